// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Keeps each segment's figures as a run goes (RunSegment): a span belongs to the segment in
// which it ended, a counter sample to the one in which it was taken. Bounded memory per segment
// (a MetricsTracker and running usage totals); a segment that takes nothing new is not worked
// out again.
#include <cstdint>
#include <memory>
#include <vector>

#include "engine/analysis/RunSegment.h"
#include "engine/analysis/SpanUsage.h"
#include "engine/metrics/MetricsTracker.h"

namespace pinscope {

// The pinned pool's running counts (PoolStats), which segments take their share of.
struct PoolCounts {
    std::uint64_t host_allocations = 0;
    std::uint64_t cache_hits = 0;
    std::uint64_t budget_waits = 0;
};

class SegmentTracker {
public:
    SegmentTracker(TimeNs origin, const LoaderConfig& config);
    ~SegmentTracker();
    SegmentTracker(SegmentTracker&&) noexcept;
    SegmentTracker& operator=(SegmentTracker&&) noexcept;

    // The next segment begins at `time` (no earlier than the last one's) with `config`.
    // `ended_with`: the pool's counts as the last segment ended; `begins_with`: as this one begins
    // (a new pool counts from 0).
    void begin_segment(TimeNs time, const LoaderConfig& config, const PoolCounts& ended_with,
                       const PoolCounts& begins_with);
    void add(const std::vector<Span>& spans, const std::vector<CounterSample>& counters);
    // Every segment, the last up to `now` with the pool's counts `pool_now`.
    std::vector<RunSegment> segments(TimeNs now, const PoolCounts& pool_now);
    std::size_t count() const { return segments_.size(); }
    // The segment begun last, as it began (no figures).
    const RunSegment& last() const;

private:
    struct Segment;
    Segment& segment_at(TimeNs time);
    std::vector<std::unique_ptr<Segment>> segments_;
};

}  // namespace pinscope
