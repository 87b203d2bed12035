// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// `pinscope-cli calibrate`: measures a hardware profile on the GPU at hand, the JSON that the
// emulated device then replays. The copy curves come from the bandwidth sweep on the probe's copy
// timer; the host's figures (cores, memcpy, fill, first touch, freeing pageable memory, and how
// these slow under background load) from this machine; the rest from the probe.
#include <chrono>
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "engine/device/CalibrationProbe.h"
#include "engine/device/HardwareProfile.h"

namespace pinscope {

struct CalibrationOptions {
    std::string name;     // the profile's name; empty: default_profile_name()
    std::string command;  // the exact command line, recorded in the profile's source
    bool quick = false;   // copy sizes every 4x instead of 2x, 3 samples instead of 5
    std::size_t memcpy_bytes = 0;  // host memcpy buffers; 0: memcpy_buffer_bytes() (far beyond the LLC)
    std::optional<std::chrono::system_clock::time_point> when;  // the date recorded; unset: now
    // How many background threads the under-load rates are measured with; empty: load_thread_counts(cores).
    std::vector<int> load_threads;
    // Batch sizes a worker's rates are measured at, besides kCalibrationBatchBytes (the sizes'
    // factors are against it); empty: 1 MiB to 256 MiB, or 1 MiB and 8 MiB when quick.
    std::vector<std::size_t> batch_loop_sizes;
    // The device short runs of the pipeline run on, to measure what freeing a worker's batch and
    // page-locking a batch cost in it (engine/calibrate/PipelineCosts.h): the calibrated GPU
    // ("cuda:0"); empty: not measured.
    std::string pipeline_device;
};

// 0, then powers of two below cores - 1, then cores - 2: up to every core but the measuring
// thread's and one for the rest of the system. {0} on two cores.
std::vector<int> load_thread_counts(int cores);

// The thread counts what the machine's memory gives every thread together is measured with:
// powers of two below the hardware threads, then all of them.
std::vector<int> all_threads_counts(int hardware_threads);

// What is being measured ("copy bandwidth, h2d pinned", "cudaHostAlloc"; called again as each
// step advances) and how far along the calibration is (0 to 1).
using CalibrationProgress = std::function<void(const std::string& step, double fraction)>;

// Throws DeviceError when the probe fails, and std::runtime_error naming the field when a
// measurement makes no valid profile (a rate of 0, say). The result loads back with
// profile_from_json(to_json(...)) unchanged.
HardwareProfile calibrate_profile(CalibrationProbe& probe, const CalibrationOptions& options,
                                  const CalibrationProgress& progress);

// The profile as JSON (two-space indent), written whole or not at all; throws std::runtime_error
// naming the path on failure.
void export_profile(const std::string& path, const HardwareProfile& profile);

// "NVIDIA H100 80GB HBM3" on "PCIe Gen5 x16" -> "h100-pcie5"; "NVIDIA GeForce RTX 4090" on an
// unknown link -> "rtx-4090". Lower-case letters, digits and dashes only; "gpu" when nothing is left.
std::string default_profile_name(const std::string& gpu_name, const std::string& link_name);

}  // namespace pinscope
