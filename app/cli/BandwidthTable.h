#pragma once
// A bandwidth sweep as text: what was measured on which link, then one row per size and one
// column per series (direction x memory), medians in GB/s.
#include <cstddef>
#include <string>

#include "bandwidth/BandwidthSweep.h"

namespace pinscope::cli {

// Binary units, as the size flags take them: "4 KiB", "1.5 MiB", "1 GiB", "100 B".
std::string format_size(std::size_t bytes);

// For H2D pinned, the plain loop's GB/s and traced / plain in % follow its column when measured
// (not on the emulated device, which traces at no cost).
// Points not measured (a cancelled sweep) show "-".
std::string format_bandwidth_table(const BandwidthResult& result);

}  // namespace pinscope::cli
