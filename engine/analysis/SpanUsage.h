// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What each lane did inside a time range, added up from spans and counter samples: the input of
// find_bottleneck, whether the spans come from a live run, a recording or a test.
#include <array>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <vector>

#include "engine/trace/Counter.h"
#include "engine/trace/Span.h"

namespace pinscope {

struct StageSums {
    TimeNs busy = 0;           // span time inside the range
    std::uint64_t ended = 0;   // spans that ended inside the range
    double bytes = 0;          // bytes of those spans
};

struct SpanUsage {
    static constexpr TimeNs kOpenEnd = std::numeric_limits<TimeNs>::max();

    TimeNs from = 0;
    TimeNs to = kOpenEnd;  // the range [from, to); spans are clipped to it
    // By lane kind (every worker together) and stage.
    std::array<std::array<StageSums, kStageCount>, kLaneKindCount> lanes{};
    std::vector<TimeNs> worker_busy;  // by worker index
    // Counter samples inside the range.
    std::uint64_t in_flight_samples = 0;
    double in_flight_sum = 0;
    std::uint64_t in_flight_limit_samples = 0;  // samples at the credit limit (set_credit_limit)
    std::uint64_t pinned_samples = 0;
    double pinned_in_use_sum = 0;
    std::uint64_t budget_waits = 0;  // allocations that waited for the pinned budget (PoolStats::budget_waits)

    SpanUsage() = default;
    SpanUsage(TimeNs from_time, TimeNs to_time) : from(from_time), to(to_time) {}

    void add(const Span& span);
    // InFlightBatches counts against `credit_limit` (num_workers x prefetch_factor).
    void add(const CounterSample& sample, std::uint32_t credit_limit);
    const StageSums& at(LaneKind lane, Stage stage) const {
        return lanes[static_cast<int>(lane)][static_cast<int>(stage)];
    }
    TimeNs busy(LaneKind lane) const;  // every stage's time on the lane kind
    TimeNs busy(LaneKind lane, std::initializer_list<Stage> stages) const;
    TimeNs wall() const { return to == kOpenEnd || to <= from ? 0 : to - from; }
};

// The usage of every span and counter sample in [from, to).
SpanUsage usage_of(const std::vector<Span>& spans, const std::vector<CounterSample>& counters, TimeNs from,
                   TimeNs to, std::uint32_t credit_limit);

}  // namespace pinscope
