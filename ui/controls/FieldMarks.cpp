// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/controls/FieldMarks.h"

#include <QStyle>
#include <QVariant>
#include <QWidget>

namespace pinscope::ui {

namespace {
constexpr char kFields[] = "configFields";
constexpr char kRefused[] = "refused";
}  // namespace

void tag_fields(QWidget* widget, const QStringList& fields) { widget->setProperty(kFields, fields); }

QStringList fields_of(const QWidget* widget) { return widget->property(kFields).toStringList(); }

void mark_fields(QWidget* root, const QStringList& fields) {
    for (QWidget* widget : root->findChildren<QWidget*>()) {
        const QVariant tagged = widget->property(kFields);
        if (!tagged.isValid()) continue;
        bool marked = false;
        for (const QString& field : tagged.toStringList()) marked = marked || fields.contains(field);
        if (widget->property(kRefused).toBool() == marked) continue;
        widget->setProperty(kRefused, marked);
        widget->style()->unpolish(widget);  // style sheets read dynamic properties when polishing
        widget->style()->polish(widget);
        widget->update();
    }
}

QList<QWidget*> marked_widgets(QWidget* root) {
    QList<QWidget*> marked;
    for (QWidget* widget : root->findChildren<QWidget*>())
        if (widget->property(kRefused).toBool()) marked << widget;
    return marked;
}

}  // namespace pinscope::ui
