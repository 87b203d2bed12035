// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A union of time intervals, kept sorted and disjoint: what "GPU busy" and "copy hidden" need.
// Intervals mostly arrive in time order, so adding one is usually an append.
#include <deque>

#include "engine/trace/Span.h"

namespace pinscope {

class IntervalSet {
public:
    void add(TimeNs start, TimeNs end);
    // Length of the union inside [from, to).
    TimeNs length_in(TimeNs from, TimeNs to) const;
    // Length of (this ∩ other) inside [from, to).
    TimeNs overlap_in(const IntervalSet& other, TimeNs from, TimeNs to) const;
    // Forgets what lies before `time` (intervals are cut there).
    void drop_before(TimeNs time);
    bool empty() const { return intervals_.empty(); }
    std::size_t size() const { return intervals_.size(); }

private:
    struct Interval {
        TimeNs start;
        TimeNs end;
    };
    std::deque<Interval> intervals_;
};

}  // namespace pinscope
