// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Every span a lane ever had, kept or let go by the store, summed per time bin: how long each
// stage kept the lane busy. Folding reads it where a pixel column holds two bins or more (a
// whole-run view then costs a step per bin, not per span), and where the spans were let go.
// Bounded: when the bins would span more than kMaxBins, neighbouring bins merge (the bin width
// doubles), so hours cost the memory of seconds (kMaxBins * 40 bytes per lane). Bins are
// anchored at time 0 (bin k covers [k * bin_ns, (k + 1) * bin_ns)). Plain C++.
#include <array>
#include <cstdint>
#include <vector>

#include "engine/trace/Span.h"

namespace pinscope::ui {

class LaneSummary {
public:
    static constexpr std::size_t kMaxBins = 32768;
    static constexpr TimeNs kFirstBinNs = 1'000'000;
    using StageTimes = std::array<float, kStageCount>;  // busy nanoseconds per stage

    void add(const Span& span);
    bool empty() const { return bins_.empty(); }
    std::uint64_t spans() const { return spans_; }  // how many spans it sums up
    TimeNs bin_ns() const { return bin_ns_; }
    std::int64_t first_bin() const { return first_; }
    const std::vector<StageTimes>& bins() const { return bins_; }
    TimeNs earliest() const { return earliest_; }  // start of the earliest span it holds
    TimeNs start() const { return first_ * bin_ns_; }  // of the first bin
    TimeNs end() const { return (first_ + static_cast<std::int64_t>(bins_.size())) * bin_ns_; }

private:
    void make_room(std::int64_t from_bin, std::int64_t to_bin);
    void coarsen();

    TimeNs bin_ns_ = kFirstBinNs;
    std::int64_t first_ = 0;
    std::vector<StageTimes> bins_;
    std::uint64_t spans_ = 0;
    TimeNs earliest_ = 0;
};

}  // namespace pinscope::ui
