// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/validate/SteadyRate.h"

#include <algorithm>
#include <limits>
#include <map>
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

double batches_per_s(const std::vector<Span>& spans, TimeNs from) {
    std::uint64_t kernels = 0;
    TimeNs first = std::numeric_limits<TimeNs>::max();
    TimeNs last = std::numeric_limits<TimeNs>::min();
    for (const Span& span : spans) {
        if (span.stage != Stage::Compute || span.end <= from) continue;
        ++kernels;
        first = std::min(first, span.end);
        last = std::max(last, span.end);
    }
    if (kernels < 2 || last <= first) return 0;
    return static_cast<double>(kernels - 1) / (static_cast<double>(last - first) * 1e-9);
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

}  // namespace

SteadyFigures steady_figures(const Trace& trace, TimeNs from) {
    TraceReader reader(trace);
    TraceDelta delta;
    reader.poll(delta);
    return {batches_per_s(delta.spans, from), host_us_per_batch(delta.spans, from)};
}

}  // namespace pinscope
