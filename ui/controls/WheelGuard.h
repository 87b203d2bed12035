// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The mouse wheel scrolls the configuration; it changes a setting only in the control that has
// the keyboard focus (clicked or tabbed into). Installed once on a widget, it covers every spin
// box, combo box and slider inside it, those added later included: each gets Qt::StrongFocus (so
// that the wheel does not give it focus) and, while unfocused, passes the wheel on to its parents,
// where the scroll area takes it.
#include <QObject>

class QWidget;

namespace pinscope::ui {

class WheelGuard : public QObject {
    Q_OBJECT

public:
    // Guards `root` and everything inside it, now and later; owned by `root`.
    static void install(QWidget* root);

    // Whether the wheel changes `widget`'s value (spin boxes, combo boxes, sliders; not scroll bars).
    static bool takes_wheel(const QObject* widget);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    explicit WheelGuard(QWidget* root);
    void watch(QWidget* widget);
};

}  // namespace pinscope::ui
