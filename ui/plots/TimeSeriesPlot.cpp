// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/plots/TimeSeriesPlot.h"

#include <algorithm>

#include "ui/plots/MemoryLogTicker.h"
#include "ui/style/AppStyle.h"
#include "ui/style/StagePalette.h"

namespace pinscope::ui {

TimeSeriesPlot::TimeSeriesPlot(const QString& title, QWidget* parent) : QCustomPlot(parent), title_(title) {
    setNoAntialiasingOnDrag(true);
    setPlottingHint(QCP::phCacheLabels, true);
    plotLayout()->insertRow(0);
    auto* title_element = new QCPTextElement(this, title, app_font(10, true));
    title_element->setTextColor(QColor(0x1F, 0x23, 0x28));
    title_element->setMargins(QMargins(0, 4, 0, 0));
    plotLayout()->addElement(0, 0, title_element);

    for (QCPAxis* axis : {xAxis, yAxis, yAxis2}) {
        axis->setTickLabelFont(app_font(8));
        axis->setLabelFont(app_font(8));
        axis->setBasePen(QPen(QColor(0xB0, 0xB6, 0xBE)));
        axis->setTickPen(QPen(QColor(0xB0, 0xB6, 0xBE)));
        axis->setSubTickPen(QPen(QColor(0xC8, 0xCD, 0xD3)));
        axis->grid()->setPen(QPen(QColor(0xE3, 0xE6, 0xEA), 1, Qt::DotLine));
    }
    xAxis->setLabel(QStringLiteral("time since start (s)"));
    yAxis->setRange(0, 1);

    // The legend goes between the title and the axes, in columns, so that it never hides data.
    legend->setVisible(true);
    legend->setFont(app_font(8));
    legend->setBrush(Qt::NoBrush);
    legend->setBorderPen(Qt::NoPen);
    legend->setIconSize(16, 8);
    legend->setColumnSpacing(14);
    legend->setRowSpacing(0);
    legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    legend->setWrap(3);
    legend->setMargins(QMargins(6, 0, 6, 0));
    axisRect()->insetLayout()->take(legend);
    plotLayout()->insertRow(1);
    plotLayout()->addElement(1, 0, legend);
    plotLayout()->setRowStretchFactor(1, 0.001);
    plotLayout()->setRowSpacing(0);
    connect(this, &QCustomPlot::afterLayout, this, &TimeSeriesPlot::space_value_ticks);
}

double TimeSeriesPlot::min_tick_spacing(const QCPAxis* axis) {
    return 1.6 * QFontMetricsF(axis->tickLabelFont()).height();  // over half a label's height of air between labels
}

void TimeSeriesPlot::space_value_ticks() {
    // The ticks were made for the axes' previous height: where that gives labels too close (or too
    // far apart) for the height they have now, change the spacing and draw again.
    bool changed = false;
    const double px = axisRect()->height();
    for (QCPAxis* axis : {yAxis, yAxis2}) {
        if (!axis->visible()) continue;
        const double spacing = min_tick_spacing(axis);
        if (auto memory = axis->ticker().dynamicCast<MemoryLogTicker>()) {
            changed |= memory->fit(axis->range(), px, spacing);
        } else {
            // QCustomPlot rounds the step to a readable one, which can give up to a third more ticks.
            const int count = std::max(2, static_cast<int>(px / (spacing * 1.34)));
            if (axis->ticker()->tickCount() != count) {
                axis->ticker()->setTickCount(count);
                changed = true;
            }
        }
    }
    if (changed) replot(rpQueuedReplot);
}

void TimeSeriesPlot::resizeEvent(QResizeEvent* event) {
    // Fewer legend columns on a narrow plot, so that no name is cut.
    const int wrap = event->size().width() < 430 ? 2 : 3;
    if (legend->wrap() != wrap) {
        legend->setWrap(wrap);
        legend->setFillOrder(QCPLayoutGrid::foColumnsFirst, true);  // re-places the existing entries
    }
    QCustomPlot::resizeEvent(event);
}

QCPGraph* TimeSeriesPlot::add_line(const QString& name, const QColor& color, QCPAxis* value_axis, Qt::PenStyle style,
                                   double width) {
    QCPGraph* graph = addGraph(xAxis, value_axis ? value_axis : yAxis);
    graph->setName(name);
    graph->setPen(QPen(color, width, style));
    graph->setAdaptiveSampling(true);
    return graph;
}

void TimeSeriesPlot::append(QCPGraph* graph, double t, double value) {
    auto points = graph->data();
    points->add(QCPGraphData(t, value));
    if (points->size() > kMaxPoints) points->removeBefore((points->constBegin() + (points->size() - kMaxPoints))->key);
}

int TimeSeriesPlot::point_count() const {
    int n = 0;
    for (int i = 0; i < graphCount(); ++i) n += graph(i)->dataCount();
    return n;
}

void TimeSeriesPlot::take(const RunFrame& frame) {
    if (frame.first) reset(frame.origin);
    add_markers(frame.markers);
    take_values(frame);
}

void TimeSeriesPlot::reset(TimeNs origin) {
    time_.reset(origin);
    for (int i = 0; i < graphCount(); ++i) graph(i)->data()->clear();
    for (auto* line : markers_) removeItem(line);
    markers_.clear();
    replot(rpQueuedReplot);
}

void TimeSeriesPlot::add_markers(const std::vector<Marker>& markers) {
    for (const Marker& marker : markers) {
        auto* line = new QCPItemStraightLine(this);
        const double t = seconds_of(marker.time);
        line->point1->setCoords(t, 0);
        line->point2->setCoords(t, 1);
        line->setPen(QPen(marker_color(marker.kind), 1, Qt::DashLine));
        markers_.push_back(line);
    }
}

void TimeSeriesPlot::refresh(double now_s) {
    time_.follow(now_s);
    fit_value_axes();
    replot(rpQueuedReplot);
}

void TimeSeriesPlot::fit_value_axes() { fit_axis_to(yAxis, 1); }

void TimeSeriesPlot::fit_axis_to(QCPAxis* axis, double minimum_top, double headroom) {
    double top = minimum_top;
    for (int i = 0; i < graphCount(); ++i) {
        QCPGraph* g = graph(i);
        if (g->valueAxis() != axis || !g->visible()) continue;
        bool found = false;
        const QCPRange range = g->getValueRange(found, QCP::sdBoth, xAxis->range());
        if (found) top = std::max(top, range.upper * headroom);
    }
    axis->setRange(0, top);
}

void TimeSeriesPlot::set_frozen(bool frozen) { time_.set_frozen(frozen); }

}  // namespace pinscope::ui
