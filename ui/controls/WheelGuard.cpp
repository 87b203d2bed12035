// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/controls/WheelGuard.h"

#include <QAbstractSlider>
#include <QAbstractSpinBox>
#include <QChildEvent>
#include <QComboBox>
#include <QScrollBar>
#include <QWheelEvent>
#include <QWidget>

namespace pinscope::ui {

WheelGuard::WheelGuard(QWidget* root) : QObject(root) { watch(root); }

void WheelGuard::install(QWidget* root) { new WheelGuard(root); }

bool WheelGuard::takes_wheel(const QObject* widget) {
    return qobject_cast<const QAbstractSpinBox*>(widget) != nullptr || qobject_cast<const QComboBox*>(widget) != nullptr ||
           (qobject_cast<const QAbstractSlider*>(widget) != nullptr && qobject_cast<const QScrollBar*>(widget) == nullptr);
}

void WheelGuard::watch(QWidget* widget) {
    widget->installEventFilter(this);  // installing twice keeps one entry
    if (takes_wheel(widget)) widget->setFocusPolicy(Qt::StrongFocus);
    for (QWidget* child : widget->findChildren<QWidget*>(Qt::FindDirectChildrenOnly)) watch(child);
}

bool WheelGuard::eventFilter(QObject* watched, QEvent* event) {
    switch (event->type()) {
    case QEvent::ChildAdded:
        // A widget created with a parent is not a spin box yet while its constructor runs: it is
        // watched now and gets its focus policy when it is polished.
        if (auto* child = qobject_cast<QWidget*>(static_cast<QChildEvent*>(event)->child())) watch(child);
        break;
    case QEvent::Polish:
        if (takes_wheel(watched)) static_cast<QWidget*>(watched)->setFocusPolicy(Qt::StrongFocus);
        break;
    case QEvent::Wheel:
        if (takes_wheel(watched) && !static_cast<QWidget*>(watched)->hasFocus()) {
            event->ignore();  // unhandled: Qt offers it to the parents, up to the scroll area
            return true;
        }
        break;
    default: break;
    }
    return false;
}

}  // namespace pinscope::ui
