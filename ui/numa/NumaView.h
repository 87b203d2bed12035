// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The NUMA tab: the run's machine (or the loaded topology) as packages, NUMA nodes and cores, the
// GPUs at their nodes, where the workers, the pin thread and the consumer ran in the last second,
// pinned bytes per node and the host-to-device traffic that crosses nodes. One widget that paints
// everything itself (a 2-socket server has hundreds of CPUs); tooltips say what each thing is.
#include <QWidget>

#include <optional>

#include "ui/numa/NumaLayout.h"
#include "ui/numa/NumaViewModel.h"

namespace pinscope::ui {

class NumaView : public QWidget {
    Q_OBJECT

public:
    explicit NumaView(QWidget* parent = nullptr);

    void show_snapshot(const NumaSnapshot& snapshot);
    const NumaSnapshot& snapshot() const { return snapshot_; }

    // Where things are at the current size (tests check that nothing overlaps).
    const NumaLayout& geometry_now();
    QString banner_text() const;
    // Whether the CPU numbers fit their cells at the current size.
    bool cpu_numbers_shown();
    // The tooltip at a point of the widget: a CPU, a node, a GPU or nothing.
    QString tooltip_at(QPointF widget_point);

    QSize minimumSizeHint() const override { return {480, 320}; }
    QSize sizeHint() const override { return {1000, 640}; }

protected:
    bool event(QEvent* event) override;
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    NumaSnapshot snapshot_;
    NumaLayout layout_;
    bool layout_stale_ = true;
    // Where the shown tooltip points, so that it follows the snapshots while it is open.
    std::optional<QPoint> tooltip_at_;
};

}  // namespace pinscope::ui
