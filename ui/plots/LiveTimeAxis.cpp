// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/plots/LiveTimeAxis.h"

#include <algorithm>

namespace pinscope::ui {

LiveTimeAxis::LiveTimeAxis(QCustomPlot& plot, double window_s, double shortest_s)
    : plot_(plot), window_s_(window_s), shortest_s_(shortest_s) {
    plot_.axisRect()->setRangeDrag(Qt::Horizontal);
    plot_.axisRect()->setRangeZoom(Qt::Horizontal);
    plot_.xAxis->setRange(0, window_s_);
    set_frozen(false);
}

void LiveTimeAxis::reset(TimeNs origin) {
    origin_ = origin;
    plot_.xAxis->setRange(0, window_s_);
}

void LiveTimeAxis::follow(double now_s) {
    if (frozen_) return;
    const double least_upper = shortest_s_ > 0 ? shortest_s_ : window_s_;
    plot_.xAxis->setRange(std::max(0.0, now_s - window_s_), std::max(least_upper, now_s));
}

void LiveTimeAxis::set_frozen(bool frozen) {
    frozen_ = frozen;
    plot_.setInteractions(frozen ? QCP::Interactions(QCP::iRangeDrag | QCP::iRangeZoom) : QCP::Interactions());
}

}  // namespace pinscope::ui
