// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Turns spans into Metrics, for the whole run and for a sliding window, in bounded memory: what
// lies well behind the window is folded into running totals and forgotten.
//
// GPU starved counts the compute stream's idle time from the run's first kernel start to the
// latest kernel end seen: before the first kernel the GPU has not been given work yet, and after
// the latest kernel end it is not known yet whether the GPU idles (the spans of a running kernel
// arrive once it ends) or the run is ending. A gap is counted once the kernel after it is seen.
#include <cstdint>
#include <deque>
#include <vector>

#include "engine/metrics/IntervalSet.h"
#include "engine/metrics/Metrics.h"
#include "engine/trace/Span.h"

namespace pinscope {

class MetricsTracker {
public:
    MetricsTracker(TimeNs origin, double window_s);
    void set_batch_size(std::uint32_t batch_size) { batch_size_ = batch_size; }
    void add(const std::vector<Span>& spans);
    Metrics whole_run(TimeNs now) const;
    Metrics window(TimeNs now) const;

private:
    struct Totals {
        TimeNs compute = 0, copy = 0, hidden = 0, wait = 0, held = 0;
        TimeNs starved = 0, starved_copy = 0;  // no kernel running; of that, with a copy in flight
        void add(const Totals& other);
    };
    struct Event {
        TimeNs end;
        std::uint64_t bytes;
        std::uint32_t samples;
    };
    Metrics over(TimeNs from, TimeNs to, const Totals& before, std::uint64_t batches, std::uint64_t samples,
                 double h2d_bytes) const;
    Totals totals_in(TimeNs from, TimeNs to) const;
    void fold_old(TimeNs now);

    TimeNs origin_;
    TimeNs window_;
    TimeNs retention_;
    std::uint32_t batch_size_ = 1;
    IntervalSet compute_, copy_, wait_, held_;
    std::deque<Event> computes_, copies_;  // recent completions, for rates in the window
    TimeNs folded_until_;                  // totals_ covers [origin_, folded_until_)
    Totals folded_;
    TimeNs latest_end_ = 0;
    bool computed_ = false;               // a kernel has been seen
    TimeNs first_compute_start_ = 0;
    TimeNs last_compute_end_ = 0;
    std::uint64_t batches_ = 0, samples_ = 0;
    double h2d_bytes_ = 0;
};

}  // namespace pinscope
