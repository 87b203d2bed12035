// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Copy bandwidth against copy size (log axis): one line per direction and kind of host memory
// (pinned, pageable, write-combined; H2D solid, D2H dashed), and the link's theoretical limit.
#include <map>
#include <utility>
#include <vector>

#include <qcustomplot.h>

#include "engine/bandwidth/BandwidthSweep.h"

namespace pinscope::ui {

class BandwidthPlot : public QCustomPlot {
    Q_OBJECT

public:
    explicit BandwidthPlot(QWidget* parent = nullptr);
    void reset(std::size_t min_bytes, std::size_t max_bytes);
    void add_point(const BandwidthPoint& point);
    void set_link(const QString& name, double gb_per_s);
    int series_count() const { return static_cast<int>(series_.size()); }
    int point_count() const;
    QCPGraph* series(CopyDirection direction, HostMemoryKind memory) const;  // nullptr before its first point
    // The measured curves from the bottom one to the one drawn on top.
    std::vector<QCPGraph*> drawing_order() const;

private:
    void restack();
    QCPGraph* series_for(CopyDirection direction, HostMemoryKind memory);
    void fit();

    std::map<std::pair<CopyDirection, HostMemoryKind>, QCPGraph*> series_;
    QCPGraph* link_ = nullptr;
    double link_gb_per_s_ = 0;
    std::size_t min_bytes_ = 4096, max_bytes_ = 1ull << 30;
};

}  // namespace pinscope::ui
