// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/numa/NumaView.h"

#include <QHelpEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>

#include "ui/numa/NumaDrawing.h"
#include "ui/numa/NumaText.h"

namespace pinscope::ui {

namespace {

bool same_place(const NumaSnapshot& a, const NumaSnapshot& b) {
    return a.topology == b.topology && a.gpu.pci_bus_id == b.gpu.pci_bus_id && a.gpu.node == b.gpu.node &&
           a.gpu.in_topology == b.gpu.in_topology && a.gpu.name == b.gpu.name;
}

}  // namespace

NumaView::NumaView(QWidget* parent) : QWidget(parent) {
    setAutoFillBackground(true);
    QPalette p = palette();
    p.setColor(QPalette::Window, Qt::white);
    setPalette(p);
    setMouseTracking(true);
}

void NumaView::show_snapshot(const NumaSnapshot& snapshot) {
    if (!same_place(snapshot_, snapshot)) layout_stale_ = true;
    snapshot_ = snapshot;
    update();
    // An open tooltip says what the drawing says now, not what it said when the mouse stopped.
    if (tooltip_at_ && QToolTip::isVisible()) {
        const QString text = tooltip_at(*tooltip_at_);
        if (text.isEmpty()) QToolTip::hideText();
        else if (text != QToolTip::text()) QToolTip::showText(mapToGlobal(*tooltip_at_), text, this);
    }
}

const NumaLayout& NumaView::geometry_now() {
    if (layout_stale_) {
        layout_ = layout_numa(snapshot_.topology.get(), snapshot_.gpu, QSizeF(size()));
        layout_stale_ = false;
    }
    return layout_;
}

QString NumaView::banner_text() const { return numa_banner(snapshot_).text(); }

bool NumaView::cpu_numbers_shown() {
    const NumaLayout& layout = geometry_now();
    int max_cpu = 0;
    bool any = false;
    for (const NodeBox& node : layout.nodes)
        for (const CoreBox& core : node.cores)
            for (const CpuCell& cell : core.cpus) {
                max_cpu = std::max(max_cpu, cell.cpu);
                any = true;
            }
    return any && cpu_number_font(layout.cpu_cell, max_cpu).has_value();
}

QString NumaView::tooltip_at(QPointF widget_point) {
    const NumaLayout& layout = geometry_now();
    const QPointF point = layout.to_machine(widget_point);
    if (!snapshot_.topology) return layout.content.contains(widget_point) ? numa_banner(snapshot_).text() : QString();
    for (const GpuBox& gpu : layout.gpus)
        if (gpu.rect.contains(point)) return gpu_tooltip(snapshot_, gpu.gpu);
    for (const NodeBox& node : layout.nodes) {
        if (!node.rect.contains(point)) continue;
        for (const CoreBox& core : node.cores)
            for (const CpuCell& cell : core.cpus)
                if (cell.rect.contains(point)) return cpu_tooltip(snapshot_, cell.cpu, core.core, node.package);
        return node_tooltip(snapshot_, node.node, node.package);
    }
    if (layout.banner.contains(widget_point)) return numa_banner(snapshot_).text();
    if (layout.stats.contains(widget_point))
        return QStringLiteral("Cross-node H2D: bytes copied to the GPU from pages on another node than the GPU's. "
                              "Cross-node host copies: collate and pin copies by a thread on another node than "
                              "the pages they write. Rates over the last second; shares of the bytes moved.");
    for (const PackageBox& package : layout.packages)
        if (package.rect.contains(point))
            return package.package >= 0 ? QStringLiteral("Package (socket) %1").arg(package.package) : QString();
    return {};
}

bool NumaView::event(QEvent* event) {
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const QString text = tooltip_at(help->pos());
        tooltip_at_ = help->pos();
        if (text.isEmpty()) QToolTip::hideText();
        else QToolTip::showText(help->globalPos(), text, this);
        return true;
    }
    if (event->type() == QEvent::Leave) tooltip_at_.reset();
    return QWidget::event(event);
}

void NumaView::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    draw_numa(painter, geometry_now(), snapshot_);
}

void NumaView::resizeEvent(QResizeEvent* event) {
    layout_stale_ = true;
    QWidget::resizeEvent(event);
}

}  // namespace pinscope::ui
