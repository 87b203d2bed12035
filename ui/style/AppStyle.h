// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The look of the application: the embedded DejaVu Sans (so that screenshots look the same on
// every machine, fonts installed or not), the Fusion style and a light palette.
#include <QFont>

class QApplication;

namespace pinscope::ui {

// Loads the embedded fonts from the resources and makes DejaVu Sans the application font.
// Returns false when the font could not be loaded (the platform's default is kept then).
bool install_app_font();
void install_app_style(QApplication& app);

// DejaVu Sans at `point_size` times the font scale (1, or presenter mode's).
QFont app_font(int point_size = 10, bool bold = false);
// Every app_font from now on is this many times its size (presenter mode: 1.75).
void set_font_scale(double scale);
double font_scale();

// Drops the offscreen platform's "does not support propagateSizeHints()" warnings and the
// "XDG_RUNTIME_DIR not set" notice, which say nothing to the user of a headless run; every other
// message goes through.
void quiet_platform_noise();

}  // namespace pinscope::ui
