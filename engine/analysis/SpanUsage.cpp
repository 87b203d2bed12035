// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/analysis/SpanUsage.h"

#include <algorithm>

namespace pinscope {

void SpanUsage::add(const Span& span) {
    const TimeNs start = std::max(span.start, from);
    const TimeNs end = std::min(span.end, to);
    StageSums& sums = lanes[static_cast<int>(span.lane.kind)][static_cast<int>(span.stage)];
    if (span.end > from && span.end <= to) {  // ended inside the range (at its end included)
        ++sums.ended;
        sums.bytes += static_cast<double>(span.bytes);
    }
    if (end <= start) return;
    sums.busy += end - start;
    if (span.lane.kind == LaneKind::Worker) {
        if (worker_busy.size() <= span.lane.index) worker_busy.resize(span.lane.index + 1u, 0);
        worker_busy[span.lane.index] += end - start;
    }
}

void SpanUsage::add(const CounterSample& sample, std::uint32_t credit_limit) {
    if (sample.time < from || sample.time >= to) return;
    if (sample.counter == Counter::InFlightBatches) {
        ++in_flight_samples;
        in_flight_sum += sample.value;
        if (credit_limit > 0 && sample.value >= credit_limit) ++in_flight_limit_samples;
    } else if (sample.counter == Counter::PinnedInUseBytes) {
        ++pinned_samples;
        pinned_in_use_sum += sample.value;
    }
}

TimeNs SpanUsage::busy(LaneKind lane) const {
    TimeNs total = 0;
    for (const StageSums& sums : lanes[static_cast<int>(lane)]) total += sums.busy;
    return total;
}

TimeNs SpanUsage::busy(LaneKind lane, std::initializer_list<Stage> stages) const {
    TimeNs total = 0;
    for (Stage stage : stages) total += at(lane, stage).busy;
    return total;
}

SpanUsage usage_of(const std::vector<Span>& spans, const std::vector<CounterSample>& counters, TimeNs from,
                   TimeNs to, std::uint32_t credit_limit) {
    SpanUsage usage(from, to);
    for (const Span& span : spans) usage.add(span);
    for (const CounterSample& sample : counters) usage.add(sample, credit_limit);
    return usage;
}

}  // namespace pinscope
