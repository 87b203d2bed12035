// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/compare/ComparedSeriesPlot.h"

#include "engine/text/Units.h"
#include "ui/compare/ComparisonSides.h"

namespace pinscope::ui {

ComparedSeriesPlot::ComparedSeriesPlot(const QString& title, const QString& unit, Values values, double minimum_top,
                                       QWidget* parent)
    : TimeSeriesPlot(title, parent), values_(std::move(values)), minimum_top_(minimum_top) {
    yAxis->setLabel(unit);
    xAxis->setLabel(QStringLiteral("time since A's start (s)"));
    xAxis2->setVisible(false);
    for (const RunSide side : kSides) {
        QCPAxis* time = side == RunSide::A ? xAxis : xAxis2;
        QCPGraph* graph = addGraph(time, yAxis);
        graph->setPen(side_pen(side, side == RunSide::A ? 2.2 : 2.0));
        graph->setAdaptiveSampling(true);
        lines_[side_index(side)] = graph;
    }
    set_run_names(QStringLiteral("A"), QStringLiteral("B"));
    // The runs' names one above the other: side by side, two long file names would make the plot wide.
    legend->setWrap(1);
    legend->setFillOrder(QCPLayoutGrid::foColumnsFirst, true);
    set_frozen(true);  // the runs are whole: pan and zoom from the start
    fit_value_axes();
}

FrameView& ComparedSeriesPlot::input(RunSide side) { return inputs_[side_index(side)]; }

void ComparedSeriesPlot::take(const RunFrame& frame) { take_side(RunSide::A, frame); }

void ComparedSeriesPlot::take_values(const RunFrame& frame) { take_side(RunSide::A, frame); }

void ComparedSeriesPlot::take_side(RunSide side, const RunFrame& frame) {
    QCPGraph* graph = lines_[side_index(side)];
    if (frame.first) graph->data()->clear();
    points_.clear();
    values_(frame, points_);
    for (const auto& [t, value] : points_) append(graph, t, value);
}

void ComparedSeriesPlot::set_run_names(const QString& a, const QString& b) {
    lines_[0]->setName(a);
    lines_[1]->setName(b);
}

QCPAxis* ComparedSeriesPlot::time_axis(RunSide side) const { return lines_[side_index(side)]->keyAxis(); }

QCPGraph* ComparedSeriesPlot::line(RunSide side) const { return lines_[side_index(side)]; }

void ComparedSeriesPlot::resizeEvent(QResizeEvent* event) {
    QCustomPlot::resizeEvent(event);  // not TimeSeriesPlot's, which puts the legend's names side by side
}

void ComparedSeriesPlot::fit_value_axes() {
    // Each line over what its own time axis shows.
    double top = minimum_top_;
    for (QCPGraph* graph : lines_) {
        bool found = false;
        const QCPRange range = graph->getValueRange(found, QCP::sdBoth, graph->keyAxis()->range());
        if (found) top = std::max(top, range.upper * 1.15);
    }
    yAxis->setRange(0, top);
}

ComparedSeriesPlot* ComparedSeriesPlot::batches_per_s() {
    return new ComparedSeriesPlot(
        QStringLiteral("Throughput (1 s window)"), QStringLiteral("batches/s"),
        [](const RunFrame& frame, Points& points) {
            if (!frame.first) points.emplace_back(frame.seconds(), frame.window.batches_per_s);
        },
        10);
}

ComparedSeriesPlot* ComparedSeriesPlot::gpu_busy() {
    return new ComparedSeriesPlot(
        QStringLiteral("GPU busy (1 s window)"), QStringLiteral("%"),
        [](const RunFrame& frame, Points& points) {
            if (!frame.first) points.emplace_back(frame.seconds(), frame.window.gpu_busy * 100);
        },
        100);
}

ComparedSeriesPlot* ComparedSeriesPlot::pinned_in_use() {
    return new ComparedSeriesPlot(
        QStringLiteral("Pinned memory in use"), QStringLiteral("MiB"),
        [](const RunFrame& frame, Points& points) {
            for (const CounterSample& sample : frame.counters)
                if (sample.counter == Counter::PinnedInUseBytes)
                    points.emplace_back(frame.seconds_of(sample.time), sample.value / static_cast<double>(kMiB));
        },
        1);
}

}  // namespace pinscope::ui
