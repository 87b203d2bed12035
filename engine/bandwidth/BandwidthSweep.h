// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Copy bandwidth by size, direction and kind of host memory, timed the way nvbandwidth does: for
// `pinscope-cli bandwidth`, the GUI's bandwidth view and `pinscope-cli calibrate`.
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "engine/device/CopyKinds.h"
#include "engine/device/Device.h"

namespace pinscope {

// One size of one series. Rates are in GB/s (1 GB = 1e9 bytes); a sample is bytes * repeats
// divided by the time of `repeats` back-to-back copies, each copy traced as pinscope's CUDA device
// traces the copies of a run.
struct BandwidthPoint {
    CopyDirection direction;
    HostMemoryKind memory;
    std::size_t bytes;
    double gb_per_s;      // median of the samples
    double min_gb_per_s;
    double max_gb_per_s;
    int samples;
    // H2D from pinned memory only (0 otherwise): the same copies as a plain cudaMemcpyAsync loop
    // without per-copy events, timed in the same sweep, median.
    double plain_loop_gb_per_s = 0;
};

struct BandwidthOptions {
    std::string device = "auto";  // "auto", "emulated[:PROFILE]", "cuda[:N]"
    // Sizes double from min_bytes up to max_bytes (max_bytes is added when the doubling misses it).
    std::size_t min_bytes = 4096;
    std::size_t max_bytes = 1ull << 30;
    // Series run in the order of directions, then memories; sizes ascend within a series.
    std::vector<CopyDirection> directions{CopyDirection::H2D, CopyDirection::D2H};
    std::vector<HostMemoryKind> memories{HostMemoryKind::Pinned, HostMemoryKind::Pageable,
                                         HostMemoryKind::WriteCombined};
    int samples = 5;  // timed samples per point, after one warm-up sample
};

struct BandwidthResult {
    DeviceInfo device;
    std::string link_name;      // "PCIe Gen5 x16"; empty when unknown
    double link_gb_per_s = 0;   // the link's theoretical limit per direction; 0 when unknown
    std::vector<BandwidthPoint> points;  // in measuring order
    std::string note;           // why "auto" fell back to the emulated device; empty otherwise
};

// Resolves and opens options.device and measures every point, calling `progress` after each.
// Throws ConfigError for invalid options (see find_bandwidth_issues in TimerSweep.h; field
// "device" for a bad profile) and DeviceError when the device cannot be opened or a copy fails.
// progress(fraction done, point just measured); returning false cancels and returns what was measured so far
BandwidthResult run_bandwidth_sweep(const BandwidthOptions&,
                                    const std::function<bool(double, const BandwidthPoint&)>& progress);

}  // namespace pinscope
