// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A stretch of a run under one configuration: a run starts with one, and each reconfiguration
// starts the next. Each has its own figures, over its own time, as the whole run has over all.
#include <cstdint>
#include <string>

#include "engine/analysis/Bottleneck.h"
#include "engine/config/LoaderConfig.h"
#include "engine/metrics/Metrics.h"

namespace pinscope {

struct RunSegment {
    std::uint32_t index = 1;  // from 1, in time order
    TimeNs begin = 0;         // on the run's clock; the first segment begins at the run's origin
    TimeNs end = 0;           // the next one's begin, or the run's end (or now)
    LoaderConfig config;      // in force over the segment
    std::string change;       // what changed from the segment before: "pin_memory: off -> on"; "" for the first
    Metrics metrics;          // over [begin, end): spans by their end time
    // The pinned footprint over the segment: the highest sampled value of the counters (every
    // 10 ms), and the page-locked allocations and cache hits the pool counted in it.
    std::uint64_t pinned_peak_bytes = 0;         // reserved
    std::uint64_t pinned_in_use_peak_bytes = 0;  // allocated
    std::uint64_t host_allocations = 0;
    std::uint64_t cache_hits = 0;
    Bottleneck bottleneck;    // what bounded the segment

    double begin_s(TimeNs origin) const { return static_cast<double>(begin - origin) * 1e-9; }
    double end_s(TimeNs origin) const { return static_cast<double>(end - origin) * 1e-9; }
};

}  // namespace pinscope
