// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Which configuration keys a control and its label show, and the red mark on those whose edit
// cannot apply or was refused. The panel's style sheet draws the mark (the "refused" property).
#include <QStringList>

class QWidget;

namespace pinscope::ui {

// `widget` shows the configuration keys `fields` ("num_workers"; "seconds" and "batches").
void tag_fields(QWidget* widget, const QStringList& fields);
// The configuration keys tag_fields gave `widget`; empty when none.
QStringList fields_of(const QWidget* widget);
// Marks every tagged widget inside `root` that shows one of `fields`, and clears the others.
void mark_fields(QWidget* root, const QStringList& fields);
// The tagged widgets inside `root` that are marked now.
QList<QWidget*> marked_widgets(QWidget* root);

}  // namespace pinscope::ui
