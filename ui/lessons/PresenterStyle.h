// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Presenter mode's look, for a projector at 1920x1080 seen from the back of a room: type 1.75
// times its size, lines twice as thick, the Okabe-Ito stage palette. Applied to widgets that
// exist (their fonts and their plots' fonts and pens) and, through app_font and stage_color, to
// what is drawn or made later.
class QWidget;

namespace pinscope::ui {

inline constexpr double kPresenterFontScale = 1.75;
inline constexpr double kPresenterLineScale = 2.0;

// Switches the look on or off for `root` and everything in it (a second call with the same `on`
// changes nothing).
void set_presenter_style(QWidget& root, bool on);
bool presenter_style_on();

}  // namespace pinscope::ui
