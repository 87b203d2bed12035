// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/plots/ThroughputPlot.h"

namespace pinscope::ui {

ThroughputPlot::ThroughputPlot(QWidget* parent) : TimeSeriesPlot(QStringLiteral("Throughput (1 s window)"), parent) {
    yAxis2->setVisible(true);
    yAxis->setLabel(QStringLiteral("batches/s"));
    yAxis2->setLabel(QStringLiteral("H2D GB/s"));
    batches_ = add_line(QStringLiteral("batches/s"), QColor(0x2F, 0x6F, 0xDB), nullptr, Qt::SolidLine, 2.6);
    // Dashed over the solid batches/s: with a fixed batch size the two lines coincide.
    gb_per_s_ = add_line(QStringLiteral("H2D GB/s"), QColor(0xB0, 0x7A, 0xA1), yAxis2, Qt::DashLine, 1.6);
    fit_value_axes();  // the empty scales, before the first data
}

void ThroughputPlot::add_metrics(double t, const Metrics& window) {
    append(batches_, t, window.batches_per_s);
    append(gb_per_s_, t, window.h2d_gb_per_s);
}

void ThroughputPlot::fit_value_axes() {
    fit_axis_to(yAxis, 10);
    fit_axis_to(yAxis2, 1);
}

void ThroughputPlot::take_values(const RunFrame& frame) { add_metrics(frame.seconds(), frame.window); }

}  // namespace pinscope::ui
