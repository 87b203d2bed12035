// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What the pipeline's own calls cost where it makes them, measured in short runs of the pipeline.
// On the H100 VMs (2026-11-27) the pin thread's frees of workers' batches took 1.1 to 2.6 times
// what freeing the same size alone took, and no probe without the pipeline reproduced it; a
// batch's cudaHostRegister took 1.1 to 2.0 times the probe's on one VM, 0.65 to 1.3 on another.
#include <cstddef>
#include <string>
#include <vector>

#include "engine/device/HardwareProfile.h"

namespace pinscope {

enum class PipelineCost {
    // The pin thread freeing a worker's batch of new pages after copying it into a pool block
    // (pin_mode pool, two workers collating).
    FreeWorkersBatch,
    // cudaHostRegister of a batch just collated into new pages (pin_mode register).
    HostRegister,
    // cudaHostAlloc of a batch's page-locked block (pin_mode alloc).
    HostAlloc,
};

// The pipeline on `device` (a CUDA device, or the emulated one in tests) with the real host,
// batches of each of `sizes` (multiples of 16 KiB), `seconds` per size. The page-locking calls are
// timed with no workers, so that no other thread holds the driver while they run: their spans are
// the calls alone, where the pipeline makes them. Each point is the median span after the run's
// first third, in us; a size whose run would lock more than the default pinned budget (a quarter
// of physical memory) is left out. Throws DeviceError when the device fails or a run ends in an
// error, and std::runtime_error when a size's run made no such call after its first third.
SizeCurve measure_pipeline_costs_us(const std::string& device, PipelineCost cost, const std::vector<std::size_t>& sizes,
                                    double seconds);

// Calibrate's step: each cost on `device` at its sizes, 1.5 s a size (quick: 2 and 32 MiB, 0.6 s),
// into the profile's pipeline_free_us, pipeline_host_register_us and pipeline_host_alloc_us.
void measure_pipeline_costs(const std::string& device, bool quick, HardwareProfile& profile);

// What that step measured, as a sentence or two of the profile's source; empty where it did not run.
std::string pipeline_costs_text(const HardwareProfile& profile, const std::string& device, bool quick);

}  // namespace pinscope
