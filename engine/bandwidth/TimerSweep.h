// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The bandwidth sweep's loop over an open CopyTimer, with the sizes and repeats it uses; shared by
// run_bandwidth_sweep (which opens the timer) and calibration (which gets one from its probe).
#include <cstddef>
#include <functional>
#include <vector>

#include "engine/bandwidth/BandwidthSweep.h"
#include "engine/device/CopyTimer.h"
#include "engine/config/ConfigError.h"

namespace pinscope {

inline constexpr std::size_t kMaxBandwidthBytes = std::size_t{16} << 30;  // largest size a sweep may ask for
inline constexpr int kMaxBandwidthSamples = 1000;

// What is wrong with the options, in field order: "min_bytes", "max_bytes", "directions",
// "memories", "samples". options.device is checked when it is opened.
std::vector<ConfigIssue> find_bandwidth_issues(const BandwidthOptions& options);

// min, 2 min, 4 min... up to max, and max itself when the doubling misses it.
std::vector<std::size_t> bandwidth_sizes(std::size_t min_bytes, std::size_t max_bytes);

// Copies per sample: enough that a sample moves about 64 MiB, at most 100 (small copies are timed
// well enough by 100 back to back) and at least 4 (so a 1 GiB sample is a few copies).
int bandwidth_repeats(std::size_t bytes);

using BandwidthProgress = std::function<bool(double, const BandwidthPoint&)>;

// Measures each series of options.directions x options.memories at `sizes` on `timer`. For each
// point: one warm-up sample, discarded, then options.samples samples; for H2D pinned points the
// untraced (plain loop) samples are interleaved with the traced ones. options.device and the
// size range of `options` are not used. Throws ConfigError for invalid samples/series.
BandwidthResult sweep_copy_timer(CopyTimer& timer, const BandwidthOptions& options,
                                 const std::vector<std::size_t>& sizes, const BandwidthProgress& progress);

}  // namespace pinscope
