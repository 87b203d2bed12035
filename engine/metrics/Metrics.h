// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The numbers on the dashboard, over a time range of the trace (the whole run or a sliding window).
#include <cstdint>

#include "engine/trace/Span.h"

namespace pinscope {

struct Metrics {
    TimeNs begin = 0;            // the range the figures cover
    TimeNs end = 0;
    double wall_s = 0;
    std::uint64_t batches = 0;   // batches whose compute ended in the range
    std::uint64_t samples = 0;
    double batches_per_s = 0;
    double samples_per_s = 0;
    double h2d_bytes = 0;        // bytes of copies that ended in the range
    double h2d_gb_per_s = 0;     // 1 GB = 1e9 bytes
    double gpu_busy = 0;         // union of compute spans / wall time
    double copy_hidden = 0;      // |union(copies) ∩ union(computes)| / |union(copies)|; 0 without copies
    // Time between the first kernel's start and the last kernel's end seen in which no kernel ran
    // / wall time, split by whether a copy was in flight then (waiting on the copy) or not (on the host).
    double gpu_starved = 0;       // = gpu_starved_copy + gpu_starved_host
    double gpu_starved_copy = 0;
    double gpu_starved_host = 0;
    double consumer_wait = 0;    // consumer time waiting for (without workers: building) its next batch / wall time
    double host_held = 0;        // consumer time held inside copies and syncs / wall time
};

}  // namespace pinscope
