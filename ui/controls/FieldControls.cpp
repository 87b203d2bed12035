// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/controls/FieldControls.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QSpinBox>

#include <algorithm>
#include <limits>

namespace pinscope::ui {

namespace {

QString sentence(std::string_view text) {
    QString out = to_qstring(text);
    if (!out.isEmpty()) out[0] = out[0].toUpper();
    return out;
}

QString unit_suffix(const ConfigField& field) {
    return field.unit_symbol.empty() ? QString() : QLatin1Char(' ') + to_qstring(field.unit_symbol);
}

}  // namespace

QString to_qstring(std::string_view text) {
    return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size()));
}

QString field_tip(const ConfigField& field) {
    QString tip = sentence(field.help);
    if (!field.default_note.empty()) tip += QStringLiteral("; default: ") + to_qstring(field.default_note);
    return tip;
}

QString choice_tip(const FieldChoice& choice) { return sentence(choice.help.empty() ? choice.brief : choice.help); }

void set_field_range(QSpinBox* spin, const ConfigField& field) {
    const auto [lo, hi] = integer_range(field);
    constexpr std::uint64_t kMostInt = std::numeric_limits<int>::max();
    spin->setRange(static_cast<int>(std::min(lo, kMostInt)), static_cast<int>(std::min(hi, kMostInt)));
    spin->setSuffix(unit_suffix(field));
}

void set_field_range(QDoubleSpinBox* spin, const ConfigField& field) {
    spin->setRange(field.range->lo, field.range->hi);
    spin->setSuffix(unit_suffix(field));
}

void add_choices(QComboBox* combo, const ConfigField& field) {
    for (const FieldChoice& choice : field.choices) {
        combo->addItem(to_qstring(choice.name), to_qstring(choice.name));
        combo->setItemData(combo->count() - 1, choice_tip(choice), Qt::ToolTipRole);
    }
}

}  // namespace pinscope::ui
