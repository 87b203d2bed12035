// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/plots/UtilisationPlot.h"

#include "ui/style/StagePalette.h"

namespace pinscope::ui {

UtilisationPlot::UtilisationPlot(QWidget* parent)
    : TimeSeriesPlot(QStringLiteral("GPU busy · copy hidden · GPU starved (%)"), parent) {
    yAxis->setLabel(QStringLiteral("%"));
    fit_value_axes();  // 0 to 100 before the first data too
    gpu_busy_ = add_line(QStringLiteral("GPU busy"), stage_color(Stage::Compute).darker(115), nullptr, Qt::SolidLine, 2);
    copy_hidden_ = add_line(QStringLiteral("copy hidden"), stage_color(Stage::H2D), nullptr, Qt::SolidLine, 1.6);
    gpu_starved_ = add_line(QStringLiteral("GPU starved"), stage_color(Stage::Staging), nullptr, Qt::DashLine, 1.6);
    consumer_wait_ = add_line(QStringLiteral("consumer wait"), QColor(0x6A, 0x73, 0x7D), nullptr, Qt::DotLine, 1);
}

void UtilisationPlot::add_metrics(double t, const Metrics& window) {
    append(gpu_busy_, t, window.gpu_busy * 100);
    append(copy_hidden_, t, window.copy_hidden * 100);
    append(gpu_starved_, t, window.gpu_starved * 100);
    append(consumer_wait_, t, window.consumer_wait * 100);
}

void UtilisationPlot::fit_value_axes() { yAxis->setRange(0, 105); }

void UtilisationPlot::take_values(const RunFrame& frame) { add_metrics(frame.seconds(), frame.window); }

}  // namespace pinscope::ui
