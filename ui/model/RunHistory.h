// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The run shown, as the exporters take it: every span, counter sample and marker of its frames
// (the oldest let go past the capacities), a NUMA sample per frame, and the newest summary.
#include <cstddef>
#include <deque>
#include <vector>

#include "engine/runner/RunFrame.h"
#include "engine/runner/RunRecord.h"

namespace pinscope::ui {

class RunHistory {
public:
    RunHistory(std::size_t span_capacity, std::size_t sample_capacity);

    // A frame of the run shown (its first: start afresh).
    void take(const RunFrame& frame);
    bool empty() const { return !seen_; }
    RunRecord record() const;

private:
    std::size_t span_capacity_;
    std::size_t sample_capacity_;
    bool seen_ = false;
    TimeNs origin_ = 0;
    RunSummary summary_;
    std::deque<Span> spans_;
    std::deque<CounterSample> counters_;
    std::vector<Marker> markers_;
    std::deque<NumaSample> numa_samples_;
};

}  // namespace pinscope::ui
