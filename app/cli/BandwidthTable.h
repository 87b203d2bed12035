// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A bandwidth sweep as text: what was measured on which link, then one row per size and one
// column per series (direction x memory), medians in GB/s.
#include <cstddef>
#include <string>

#include "engine/bandwidth/BandwidthSweep.h"

namespace pinscope::cli {

// For H2D pinned, the plain loop's GB/s and traced / plain in % follow its column when measured
// (not on the emulated device, which traces at no cost).
// Points not measured (a cancelled sweep) show "-".
std::string format_bandwidth_table(const BandwidthResult& result);

}  // namespace pinscope::cli
