// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Controls set up from the configuration's field table (engine/config/ConfigFields.h): their
// tooltips, ranges, units and items say what the command line's --help and the engine's messages say.
#include <QString>

#include "engine/config/ConfigFields.h"

class QComboBox;
class QDoubleSpinBox;
class QSpinBox;

namespace pinscope::ui {

QString to_qstring(std::string_view text);
// The field's help as a sentence, with its default where LoaderConfig's value does not say it:
// "Batches each worker keeps ready ahead, ...; default: 2 with workers".
QString field_tip(const ConfigField& field);
QString choice_tip(const FieldChoice& choice);
// The field's range, and its unit after the value (" µs").
void set_field_range(QSpinBox* spin, const ConfigField& field);
void set_field_range(QDoubleSpinBox* spin, const ConfigField& field);
// One item per choice, named as the configuration writes it, with the choice's tooltip.
void add_choices(QComboBox* combo, const ConfigField& field);

}  // namespace pinscope::ui
