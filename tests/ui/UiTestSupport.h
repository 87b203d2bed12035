// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What the UI tests and the timeline benchmark share: an application set up like pinscope's,
// configurations that run until stopped, synthetic spans, and image statistics.
#include <QImage>
#include <QRect>

#include <vector>

#include "engine/config/LoaderConfig.h"
#include "engine/trace/Span.h"
#include "ui/window/MainWindow.h"

namespace pinscope::test {

// The embedded font and the application style, as main() installs them.
void prepare_application();

// The default scenario on the emulated device, running until stopped.
LoaderConfig live_config(bool pin_memory = true, std::uint32_t workers = 4);

// Settings neither read nor written, errors not shown in dialogs.
ui::WindowOptions quiet_window();

// A DataLoader-like trace: per batch load and collate on a worker, pin, wait, H2D and compute, one
// batch every `period`, about `count` spans in all, starting at `origin`.
std::vector<Span> synthetic_spans(std::size_t count, TimeNs origin, TimeNs period = 2'500'000, std::uint16_t workers = 4);

// A turn of the mouse wheel at `pos` in `target` (angle in eighths of a degree; 120 is one notch,
// positive away from the user), delivered as Qt delivers a real one: to the widget under the
// pointer, then to its parents until one accepts it. Returns that widget, or null if none did.
// (Qt propagates only wheel events that come from the window system; QTest has none to send.)
QWidget* turn_wheel(QWidget* target, QPoint pos, int angle);

// Variance of the grey level of the pixels in `region`: near 0 for a blank area.
double grey_variance(const QImage& image, const QRect& region);

}  // namespace pinscope::test
