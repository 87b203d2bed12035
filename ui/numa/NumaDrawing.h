// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Paints the NUMA view from its layout and snapshot: banner, legend, packages, nodes with their
// pinned bytes, core cells marked where the loader's threads ran, GPUs, the traffic arrows and the
// numbers line. Plain QPainter calls, so that SVG and PDF exports get vectors.
#include <QColor>
#include <QFont>
#include <QSizeF>

#include <optional>

class QPainter;

namespace pinscope::ui {

struct NumaLayout;
struct NumaSnapshot;

// The app's colours for what needs attention and what is picked.
inline const QColor kNumaWarning(0xD9, 0x7A, 0x00);  // amber, as the timeline's markers
inline const QColor kNumaAlert(0xC6, 0x28, 0x28);    // red, as the pinned budget line
inline const QColor kNumaAccent(0x2F, 0x6F, 0xDB);   // blue, the palette's highlight

// The colour of cross-node traffic: amber while under half of it crosses, red from half on.
QColor cross_node_color(double share);

// The largest font (6 to 9 pt) in which every CPU number up to `max_cpu` fits a cell; none when
// the cells are too small (the tooltips still say).
std::optional<QFont> cpu_number_font(QSizeF cell, int max_cpu);

void draw_numa(QPainter& painter, const NumaLayout& layout, const NumaSnapshot& snapshot);

}  // namespace pinscope::ui
