// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Names the resource that bounds throughput over a range of a run, from what the lanes did there.
//
// Every resource handles each batch once, so its utilisation is throughput x cost per batch /
// lanes, and the one whose cost allows the fewest batches/s (lanes / cost) is the one near 100 %
// while the others wait on it. Host lanes, the copy engine and the compute stream are such
// servers; the batch credits and the pinned budget are limits, named only when no server is near
// 100 % and threads waited on them.
#include <cstdint>
#include <string>

#include "engine/analysis/Bottleneck.h"
#include "engine/analysis/SpanUsage.h"
#include "engine/config/LoaderConfig.h"
#include "engine/metrics/Metrics.h"

namespace pinscope {

// A server at least this busy is saturated: the throughput is its bound.
inline constexpr double kSaturated = 0.8;

// `metrics`: the same range's (throughput, GPU starved). `budget_bytes`: the pinned pool's.
// `range`: how sentences name the range, "the last second" or "the run".
Bottleneck find_bottleneck(const SpanUsage& usage, const Metrics& metrics, const LoaderConfig& config,
                           std::uint64_t budget_bytes, const std::string& range);

// "the run" for the whole run; "the last second", "the last 1.5 s" for a window.
std::string range_text(double window_s, bool whole_run);

}  // namespace pinscope
