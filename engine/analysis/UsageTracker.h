// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Keeps a run's SpanUsage for the whole run and for a sliding window as spans arrive, in bounded
// memory: running totals for the run, and only the spans and samples the window can still reach.
#include <cstdint>
#include <deque>
#include <utility>
#include <vector>

#include "engine/analysis/SpanUsage.h"

namespace pinscope {

class UsageTracker {
public:
    UsageTracker(TimeNs origin, double window_s);
    // `credit_limit`: num_workers x prefetch_factor in force (0 without workers).
    void add(const std::vector<Span>& spans, const std::vector<CounterSample>& counters, std::uint32_t credit_limit);
    // The pool's PoolStats::budget_waits at `now`; a new pool (a new budget) starts again from 0.
    void note_budget_waits(TimeNs now, std::uint64_t pool_total);
    SpanUsage whole_run(TimeNs now) const;
    SpanUsage window(TimeNs now) const;

private:
    struct Sample {
        CounterSample sample;
        std::uint32_t credit_limit;
    };
    void forget_old();

    TimeNs origin_;
    TimeNs window_;
    TimeNs retention_;
    SpanUsage run_;
    TimeNs latest_ = 0;
    std::deque<Span> spans_;
    std::deque<Sample> counters_;
    std::uint64_t pool_waits_ = 0;                        // the current pool's count, last seen
    std::deque<std::pair<TimeNs, std::uint64_t>> waits_;  // (time, budget waits over the run so far)
};

}  // namespace pinscope
