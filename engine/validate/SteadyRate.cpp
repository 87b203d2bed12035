// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/validate/SteadyRate.h"

#include <algorithm>
#include <map>
#include <optional>
#include <ranges>
#include <vector>

#include "engine/metrics/Median.h"

namespace pinscope {
namespace {

struct HostWork {
    TimeNs load = 0;
    TimeNs collate = 0;
    bool loaded = false;
    bool collated = false;
};

// The kernels' ends after `from`, in order.
std::vector<TimeNs> kernel_ends(const std::vector<Span>& spans, TimeNs from) {
    std::vector<TimeNs> ends;
    for (const Span& span : spans)
        if (span.stage == Stage::Compute && span.end > from) ends.push_back(span.end);
    std::ranges::sort(ends);
    return ends;
}

double batches_per_s(const std::vector<TimeNs>& ends) {
    if (ends.size() < 2 || ends.back() <= ends.front()) return 0;
    return static_cast<double>(ends.size() - 1) / (static_cast<double>(ends.back() - ends.front()) * 1e-9);
}

double host_us_per_batch(const std::vector<Span>& spans, TimeNs from) {
    std::map<std::uint64_t, HostWork> batches;
    for (const Span& span : spans) {
        const bool host_work = span.stage == Stage::Load || span.stage == Stage::Collate;
        if (!host_work || span.end <= from || is_device_lane(span.lane.kind)) continue;
        HostWork& work = batches[span.batch];
        if (span.stage == Stage::Load) {
            work.load += span.duration();
            work.loaded = true;
        } else {
            work.collate += span.duration();
            work.collated = true;
        }
    }
    std::vector<double> us;
    for (const auto& entry : batches) {
        const HostWork& work = entry.second;
        if (work.loaded && work.collated) us.push_back(static_cast<double>(work.load + work.collate) / 1e3);
    }
    return us.empty() ? 0 : median(std::move(us));
}

double consumer_untraced_us_per_batch(const std::vector<Span>& spans, const std::vector<TimeNs>& ends) {
    if (ends.size() < 2 || ends.back() <= ends.front()) return 0;
    const TimeNs begin = ends.front(), end = ends.back();
    std::vector<std::pair<TimeNs, TimeNs>> traced;
    for (const Span& span : spans) {
        if (span.lane.kind != LaneKind::Consumer) continue;
        const TimeNs start = std::max(span.start, begin), stop = std::min(span.end, end);
        if (start < stop) traced.emplace_back(start, stop);
    }
    std::ranges::sort(traced);
    TimeNs covered = 0, reached = begin;  // the union of the spans, which may nest (an alloc inside a pin)
    for (const auto& [start, stop] : traced) {
        if (stop <= reached) continue;
        covered += stop - std::max(start, reached);
        reached = stop;
    }
    return static_cast<double>(end - begin - covered) / 1e3 / static_cast<double>(ends.size() - 1);
}

constexpr std::size_t kSlots = static_cast<std::size_t>(kStageCount) * kLaneKindCount;

std::size_t slot(Stage stage, LaneKind lane) {
    return static_cast<std::size_t>(stage) * kLaneKindCount + static_cast<std::size_t>(lane);
}

// The figures of the slots that have one, by stage, then lane kind.
StageTimes listed(const std::vector<std::optional<double>>& by_slot) {
    StageTimes times;
    for (std::size_t i = 0; i < kSlots; ++i)
        if (by_slot[i])
            times.push_back({static_cast<Stage>(i / kLaneKindCount), static_cast<LaneKind>(i % kLaneKindCount), *by_slot[i]});
    return times;
}

StageTimes stage_times(const std::vector<Span>& spans, TimeNs from) {
    std::vector<std::optional<double>> us(kSlots);
    std::uint64_t kernels = 0;
    for (const Span& span : spans) {
        if (span.end <= from) continue;
        if (span.stage == Stage::Compute) ++kernels;
        std::optional<double>& total = us[slot(span.stage, span.lane.kind)];
        total = total.value_or(0) + static_cast<double>(span.duration()) / 1e3;
    }
    if (kernels == 0) return {};
    for (std::optional<double>& total : us)
        if (total) *total /= static_cast<double>(kernels);
    return listed(us);
}

}  // namespace

SteadyFigures steady_figures(const Trace& trace, TimeNs from) {
    TraceReader reader(trace);
    TraceDelta delta;
    reader.poll(delta);
    const std::vector<TimeNs> ends = kernel_ends(delta.spans, from);
    return {batches_per_s(ends), host_us_per_batch(delta.spans, from), stage_times(delta.spans, from),
            consumer_untraced_us_per_batch(delta.spans, ends)};
}

StageTimes median_stage_times(const std::vector<StageTimes>& runs) {
    std::vector<std::vector<double>> values(kSlots);
    for (const StageTime& time : runs | std::views::join) values[slot(time.stage, time.lane)].push_back(time.us_per_batch);
    std::vector<std::optional<double>> middle(kSlots);
    for (std::size_t i = 0; i < kSlots; ++i) {
        if (values[i].empty()) continue;
        values[i].resize(runs.size(), 0.0);  // the runs without it
        middle[i] = median(std::move(values[i]));
    }
    return listed(middle);
}
}  // namespace pinscope
