// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/plots/InFlightPlot.h"

namespace pinscope::ui {

InFlightPlot::InFlightPlot(QWidget* parent) : TimeSeriesPlot(QStringLiteral("Batches in flight"), parent) {
    yAxis->setLabel(QStringLiteral("batches"));
    in_flight_ = add_line(QStringLiteral("in flight"), QColor(0x2F, 0x6F, 0xDB), nullptr, Qt::SolidLine, 1.8);
    ready_ = add_line(QStringLiteral("ready for the consumer"), QColor(0x76, 0xB7, 0xB2).darker(120), nullptr,
                      Qt::SolidLine, 1.4);
    limit_ = add_line(QStringLiteral("workers × prefetch"), QColor(0xC6, 0x28, 0x28), nullptr, Qt::DashLine, 1.4);
    in_flight_->setLineStyle(QCPGraph::lsStepLeft);
    ready_->setLineStyle(QCPGraph::lsStepLeft);
    limit_->setLineStyle(QCPGraph::lsStepLeft);
    fit_value_axes();  // the empty scale, before the first data
}

void InFlightPlot::add_counters(const std::vector<CounterSample>& samples) {
    for (const CounterSample& s : samples) {
        if (s.counter == Counter::InFlightBatches) append(in_flight_, seconds_of(s.time), s.value);
        else if (s.counter == Counter::ReadyQueueDepth) append(ready_, seconds_of(s.time), s.value);
    }
}

void InFlightPlot::add_limit(double t, const LoaderConfig& config) {
    append(limit_, t, static_cast<double>(config.max_outstanding()));
}

void InFlightPlot::fit_value_axes() { fit_axis_to(yAxis, 2, 1.25); }

void InFlightPlot::take_values(const RunFrame& frame) {
    add_counters(frame.counters);
    add_limit(frame.seconds(), frame.summary.config);
}

}  // namespace pinscope::ui
