// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A sweep's results as CSV: one row per combination, rates per second and fractions from 0 to 1.
#include <ostream>
#include <string>
#include <vector>

#include "engine/config/LoaderConfig.h"
#include "engine/runner/RunRecord.h"

namespace pinscope {

struct SweepRow {
    LoaderConfig config;
    RunSummary summary;
};

inline constexpr const char* kSweepCsvHeader =
    "workers,prefetch_factor,pin_memory,pin_mode,batches_per_s,samples_per_s,h2d_gb_per_s,gpu_busy,copy_hidden,"
    "gpu_starved,pinned_peak_bytes,batches,wall_s,bind_workers,bind_pin_thread,bind_consumer,membind,"
    "cross_node_h2d_bytes,gpu_starved_copy,gpu_starved_host,consumer_wait,host_held,copy_stream";

// The header, then one line per row. prefetch_factor and pin_mode are empty where they do not
// apply (no workers, pin_memory off). Columns added later come last (the NUMA ones, the split of
// gpu_starved and the consumer's waits, then copy_stream), so that scripts reading the earlier
// columns by position still work; CPU lists such as 0-3,8 are quoted.
void write_sweep_csv(std::ostream& out, const std::vector<SweepRow>& rows);
// Written whole or not at all; throws std::runtime_error naming the path on failure.
void export_sweep_csv(const std::string& path, const std::vector<SweepRow>& rows);

}  // namespace pinscope
