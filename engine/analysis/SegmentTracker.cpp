// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/analysis/SegmentTracker.h"

#include <algorithm>
#include <optional>

#include "engine/analysis/BottleneckFinder.h"
#include "engine/config/PinnedBudget.h"

namespace pinscope {
namespace {

std::string join(const std::vector<std::string>& parts) {
    std::string out;
    for (const auto& part : parts) out += (out.empty() ? "" : ", ") + part;
    return out;
}

std::uint64_t since(std::uint64_t now, std::uint64_t then) { return now >= then ? now - then : now; }

}  // namespace

struct SegmentTracker::Segment {
    Segment(std::uint32_t index, TimeNs begin, const LoaderConfig& config, std::string change, PoolCounts pool)
        : metrics(begin, 1.0), usage(begin, SpanUsage::kOpenEnd), pool_at_begin(pool) {
        figures.index = index;
        figures.begin = figures.end = begin;
        figures.config = config;
        figures.change = std::move(change);
        metrics.set_batch_size(config.batch_size);
    }
    MetricsTracker metrics;
    SpanUsage usage;
    PoolCounts pool_at_begin;
    std::optional<PoolCounts> pool_at_end;  // set once the next segment began
    RunSegment figures;                     // as last worked out
    bool changed = true;                    // took something since then
};

SegmentTracker::SegmentTracker(TimeNs origin, const LoaderConfig& config) {
    segments_.push_back(std::make_unique<Segment>(1, origin, config, std::string(), PoolCounts{}));
}

SegmentTracker::~SegmentTracker() = default;
SegmentTracker::SegmentTracker(SegmentTracker&&) noexcept = default;
SegmentTracker& SegmentTracker::operator=(SegmentTracker&&) noexcept = default;

void SegmentTracker::begin_segment(TimeNs time, const LoaderConfig& config, const PoolCounts& ended_with,
                                   const PoolCounts& begins_with) {
    Segment& last = *segments_.back();
    time = std::max(time, last.figures.begin);
    last.pool_at_end = ended_with;
    last.figures.end = time;
    last.changed = true;
    const std::vector<std::string> changes = describe_changes(last.figures.config, config);
    segments_.push_back(std::make_unique<Segment>(static_cast<std::uint32_t>(segments_.size() + 1), time, config,
                                                  changes.empty() ? std::string("no change") : join(changes),
                                                  begins_with));
}

const RunSegment& SegmentTracker::last() const { return segments_.back()->figures; }

// The last segment that began at or before `time` (the first for anything earlier).
SegmentTracker::Segment& SegmentTracker::segment_at(TimeNs time) {
    const auto after = std::upper_bound(segments_.begin() + 1, segments_.end(), time,
                                        [](TimeNs t, const auto& segment) { return t < segment->figures.begin; });
    return **(after - 1);
}

void SegmentTracker::add(const std::vector<Span>& spans, const std::vector<CounterSample>& counters) {
    if (segments_.size() == 1) {
        Segment& only = *segments_.front();
        only.metrics.add(spans);
        for (const Span& span : spans) only.usage.add(span);
        only.changed = only.changed || !spans.empty();
    } else {
        std::vector<Span> of_segment;
        for (std::size_t i = 0; i < spans.size();) {
            Segment& segment = segment_at(spans[i].end);
            of_segment.clear();
            // Spans come mostly in order: take the run of them that falls in one segment at once.
            for (; i < spans.size() && &segment_at(spans[i].end) == &segment; ++i) {
                of_segment.push_back(spans[i]);
                segment.usage.add(spans[i]);
            }
            segment.metrics.add(of_segment);
            segment.changed = true;
        }
    }
    for (const CounterSample& sample : counters) {
        Segment& segment = segment_at(sample.time);
        const LoaderConfig& config = segment.figures.config;
        segment.usage.add(sample, config.num_workers > 0 ? config.max_outstanding() : 0);
        const auto value = static_cast<std::uint64_t>(std::max(0.0, sample.value));
        if (sample.counter == Counter::PinnedReservedBytes)
            segment.figures.pinned_peak_bytes = std::max(segment.figures.pinned_peak_bytes, value);
        else if (sample.counter == Counter::PinnedInUseBytes)
            segment.figures.pinned_in_use_peak_bytes = std::max(segment.figures.pinned_in_use_peak_bytes, value);
        segment.changed = true;
    }
}

std::vector<RunSegment> SegmentTracker::segments(TimeNs now, const PoolCounts& pool_now) {
    std::vector<RunSegment> out;
    out.reserve(segments_.size());
    for (const auto& segment : segments_) {
        const bool open = !segment->pool_at_end;
        RunSegment& f = segment->figures;
        if (open || segment->changed) {
            if (open) f.end = std::max(now, f.begin);
            const PoolCounts& end = open ? pool_now : *segment->pool_at_end;
            const PoolCounts& begin = segment->pool_at_begin;
            f.host_allocations = since(end.host_allocations, begin.host_allocations);
            f.cache_hits = since(end.cache_hits, begin.cache_hits);
            f.metrics = segment->metrics.whole_run(f.end);
            SpanUsage usage = segment->usage;
            usage.to = f.end;
            usage.budget_waits = since(end.budget_waits, begin.budget_waits);
            f.bottleneck = find_bottleneck(usage, f.metrics, f.config, f.config.pinned_budget_bytes.value_or(default_pinned_budget()), "segment " + std::to_string(f.index));
            segment->changed = false;
        }
        out.push_back(f);
    }
    return out;
}

}  // namespace pinscope
