// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/metrics/IntervalSet.h"

#include <algorithm>

namespace pinscope {

void IntervalSet::add(TimeNs start, TimeNs end) {
    if (end <= start) return;
    // First interval that ends at or after `start`: everything before it stays as it is.
    auto first = std::lower_bound(intervals_.begin(), intervals_.end(), start,
                                  [](const Interval& i, TimeNs t) { return i.end < t; });
    auto last = first;
    while (last != intervals_.end() && last->start <= end) {
        start = std::min(start, last->start);
        end = std::max(end, last->end);
        ++last;
    }
    if (first == last) {
        intervals_.insert(first, Interval{start, end});
        return;
    }
    *first = Interval{start, end};
    intervals_.erase(first + 1, last);
}

TimeNs IntervalSet::length_in(TimeNs from, TimeNs to) const {
    TimeNs total = 0;
    auto it = std::lower_bound(intervals_.begin(), intervals_.end(), from,
                               [](const Interval& i, TimeNs t) { return i.end <= t; });
    for (; it != intervals_.end() && it->start < to; ++it) total += std::min(it->end, to) - std::max(it->start, from);
    return total;
}

TimeNs IntervalSet::overlap_in(const IntervalSet& other, TimeNs from, TimeNs to) const {
    auto lower = [from](const std::deque<Interval>& v) {
        return std::lower_bound(v.begin(), v.end(), from, [](const Interval& i, TimeNs t) { return i.end <= t; });
    };
    auto a = lower(intervals_);
    auto b = lower(other.intervals_);
    TimeNs total = 0;
    while (a != intervals_.end() && b != other.intervals_.end() && a->start < to && b->start < to) {
        const TimeNs start = std::max({a->start, b->start, from});
        const TimeNs end = std::min({a->end, b->end, to});
        if (end > start) total += end - start;
        (a->end < b->end) ? ++a : ++b;
    }
    return total;
}

void IntervalSet::drop_before(TimeNs time) {
    while (!intervals_.empty() && intervals_.front().end <= time) intervals_.pop_front();
    if (!intervals_.empty() && intervals_.front().start < time) intervals_.front().start = time;
}

}  // namespace pinscope
