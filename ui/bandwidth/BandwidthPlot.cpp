// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/bandwidth/BandwidthPlot.h"

#include <algorithm>

#include "ui/plots/ByteFormat.h"
#include "ui/plots/MemoryLogTicker.h"
#include "ui/style/AppStyle.h"

namespace pinscope::ui {

namespace {

QColor memory_color(HostMemoryKind memory) {
    switch (memory) {
        case HostMemoryKind::Pinned: return QColor(0xF2, 0x8E, 0x2B);
        case HostMemoryKind::Pageable: return QColor(0x4E, 0x79, 0xA7);
        case HostMemoryKind::WriteCombined: return QColor(0xB0, 0x7A, 0xA1);
    }
    return Qt::black;
}

QString memory_name(HostMemoryKind memory) {
    switch (memory) {
        case HostMemoryKind::Pinned: return QStringLiteral("pinned");
        case HostMemoryKind::Pageable: return QStringLiteral("pageable");
        case HostMemoryKind::WriteCombined: return QStringLiteral("write-combined");
    }
    return QStringLiteral("?");
}

// Write-combined and pinned H2D run at the same rate: different marks keep both in sight.
QCPScatterStyle::ScatterShape memory_scatter(HostMemoryKind memory, bool h2d) {
    switch (memory) {
        case HostMemoryKind::Pinned: return h2d ? QCPScatterStyle::ssDisc : QCPScatterStyle::ssCircle;
        case HostMemoryKind::Pageable: return h2d ? QCPScatterStyle::ssDisc : QCPScatterStyle::ssCircle;
        case HostMemoryKind::WriteCombined: return h2d ? QCPScatterStyle::ssDiamond : QCPScatterStyle::ssCross;
    }
    return QCPScatterStyle::ssDisc;
}

}  // namespace

BandwidthPlot::BandwidthPlot(QWidget* parent) : QCustomPlot(parent) {
    plotLayout()->insertRow(0);
    plotLayout()->addElement(0, 0, new QCPTextElement(this, QStringLiteral("Copy bandwidth by size"), app_font(11, true)));
    auto ticker = QSharedPointer<MemoryLogTicker>::create();
    ticker->setLogBase(4);
    ticker->setSubTickCount(1);
    xAxis->setScaleType(QCPAxis::stLogarithmic);
    xAxis->setTicker(ticker);
    xAxis->setLabel(QStringLiteral("copy size"));
    yAxis->setLabel(QStringLiteral("GB/s (1 GB = 10⁹ bytes)"));
    for (QCPAxis* axis : {xAxis, yAxis}) {
        axis->setTickLabelFont(app_font(9));
        axis->setLabelFont(app_font(9));
        axis->grid()->setPen(QPen(QColor(0xE3, 0xE6, 0xEA), 1, Qt::DotLine));
        axis->grid()->setSubGridVisible(false);
    }
    legend->setVisible(true);
    legend->setFont(app_font(9));
    legend->setBrush(QColor(255, 255, 255, 225));
    legend->setBorderPen(QPen(QColor(0xD0, 0xD4, 0xDA)));
    axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignLeft);
    link_ = addGraph();
    link_->setPen(QPen(QColor(0xC6, 0x28, 0x28), 1.6, Qt::DashLine));
    link_->setName(QStringLiteral("link limit: unknown"));
    setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    reset(min_bytes_, max_bytes_);
}

void BandwidthPlot::reset(std::size_t min_bytes, std::size_t max_bytes) {
    min_bytes_ = min_bytes;
    max_bytes_ = std::max(max_bytes, min_bytes * 2);
    for (auto& [key, graph] : series_) removeGraph(graph);
    series_.clear();
    link_->data()->clear();
    link_gb_per_s_ = 0;
    link_->setName(QStringLiteral("link limit: unknown"));
    fit();
    replot(rpQueuedReplot);
}

QCPGraph* BandwidthPlot::series_for(CopyDirection direction, HostMemoryKind memory) {
    const auto key = std::make_pair(direction, memory);
    if (const auto it = series_.find(key); it != series_.end()) return it->second;
    QCPGraph* graph = addGraph();
    const bool h2d = direction == CopyDirection::H2D;
    graph->setName(QStringLiteral("%1 %2").arg(h2d ? QStringLiteral("H2D") : QStringLiteral("D2H"), memory_name(memory)));
    graph->setPen(QPen(memory_color(memory), h2d ? 2.2 : 1.6, h2d ? Qt::SolidLine : Qt::DashLine));
    // Write-combined's open marks are larger, so that they ring the pinned discs drawn over them.
    graph->setScatterStyle(QCPScatterStyle(memory_scatter(memory, h2d), memory == HostMemoryKind::WriteCombined ? 11 : 6));
    series_[key] = graph;
    restack();
    return graph;
}

void BandwidthPlot::restack() {
    // Drawn in a fixed order whatever order the sweep measures in: write-combined, pageable, then
    // pinned on top, D2H under H2D, so that the pinned H2D curve is never hidden under a line
    // that coincides with it (write-combined H2D runs at the pinned rate).
    for (const CopyDirection direction : {CopyDirection::D2H, CopyDirection::H2D})
        for (const HostMemoryKind memory : {HostMemoryKind::WriteCombined, HostMemoryKind::Pageable, HostMemoryKind::Pinned})
            if (const auto it = series_.find({direction, memory}); it != series_.end()) it->second->setLayer(it->second->layer());
}

std::vector<QCPGraph*> BandwidthPlot::drawing_order() const {
    std::vector<QCPGraph*> order;
    for (QCPLayerable* item : layer(QStringLiteral("main"))->children())
        if (auto* graph = qobject_cast<QCPGraph*>(item); graph != nullptr && graph != link_) order.push_back(graph);
    return order;
}

QCPGraph* BandwidthPlot::series(CopyDirection direction, HostMemoryKind memory) const {
    const auto it = series_.find({direction, memory});
    return it == series_.end() ? nullptr : it->second;
}

void BandwidthPlot::add_point(const BandwidthPoint& point) {
    series_for(point.direction, point.memory)->addData(static_cast<double>(point.bytes), point.gb_per_s);
    fit();
    replot(rpQueuedReplot);
}

void BandwidthPlot::set_link(const QString& name, double gb_per_s) {
    link_gb_per_s_ = gb_per_s;
    link_->data()->clear();
    if (gb_per_s > 0) {
        link_->addData(static_cast<double>(min_bytes_) / 2, gb_per_s);
        link_->addData(static_cast<double>(max_bytes_) * 2, gb_per_s);
        link_->setName(QStringLiteral("link limit%1: %2 GB/s")
                           .arg(name.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(name))
                           .arg(gb_per_s, 0, 'f', 1));
    }
    fit();
    replot(rpQueuedReplot);
}

int BandwidthPlot::point_count() const {
    int n = 0;
    for (const auto& [key, graph] : series_) n += graph->dataCount();
    return n;
}

void BandwidthPlot::fit() {
    xAxis->setRange(static_cast<double>(min_bytes_) / 1.5, static_cast<double>(max_bytes_) * 1.5);
    double top = std::max(1.0, link_gb_per_s_);
    for (const auto& [key, graph] : series_) {
        bool found = false;
        const QCPRange range = graph->getValueRange(found);
        if (found) top = std::max(top, range.upper);
    }
    yAxis->setRange(0, top * 1.12);
}

}  // namespace pinscope::ui
