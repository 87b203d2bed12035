// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/compare/SharedTimeAxis.h"

#include <algorithm>

namespace pinscope::ui {

void SharedTimeAxis::add(QCPAxis* axis, double offset_s) {
    axes_.push_back({axis, offset_s});
    axis->setRange(range_.lower + offset_s, range_.upper + offset_s);
    connect(axis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this,
            [this, axis](const QCPRange& range) { moved(axis, range); });
}

void SharedTimeAxis::set_offset(QCPAxis* axis, double offset_s) {
    for (Linked& linked : axes_)
        if (linked.axis == axis) linked.offset_s = offset_s;
    apply(nullptr);
}

double SharedTimeAxis::offset(const QCPAxis* axis) const {
    const auto it = std::find_if(axes_.begin(), axes_.end(), [&](const Linked& l) { return l.axis == axis; });
    return it == axes_.end() ? 0 : it->offset_s;
}

void SharedTimeAxis::set_range(const QCPRange& range) {
    range_ = range;
    apply(nullptr);
    emit rangeChanged(range_, false);
}

void SharedTimeAxis::moved(QCPAxis* axis, const QCPRange& range) {
    if (applying_) return;  // our own setRange coming back
    const double offset_s = offset(axis);
    range_ = QCPRange(range.lower - offset_s, range.upper - offset_s);
    apply(axis);
    emit rangeChanged(range_, true);
}

void SharedTimeAxis::apply(const QCPAxis* except) {
    applying_ = true;
    for (const Linked& linked : axes_) {
        if (linked.axis == except) continue;
        linked.axis->setRange(range_.lower + linked.offset_s, range_.upper + linked.offset_s);
        linked.axis->parentPlot()->replot(QCustomPlot::rpQueuedReplot);
    }
    applying_ = false;
}

}  // namespace pinscope::ui
