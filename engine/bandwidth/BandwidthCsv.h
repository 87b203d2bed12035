// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A bandwidth sweep as CSV: one row per point, in measuring order, rates in GB/s (1e9 bytes).
#include <ostream>
#include <string>

#include "engine/bandwidth/BandwidthSweep.h"

namespace pinscope {

inline constexpr const char* kBandwidthCsvHeader =
    "direction,memory,bytes,gb_per_s,min_gb_per_s,max_gb_per_s,samples,plain_loop_gb_per_s";

// The header, then one line per point; plain_loop_gb_per_s is empty where it was not measured
// (every series but H2D pinned).
void write_bandwidth_csv(std::ostream& out, const BandwidthResult& result);
// Written whole or not at all; throws std::runtime_error naming the path on failure.
void export_bandwidth_csv(const std::string& path, const BandwidthResult& result);

}  // namespace pinscope
