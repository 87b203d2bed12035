// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What freeing a worker's batch costs where the pipeline frees it: the pin thread unmapping each
// batch right after copying it into a pool block, while the workers go on collating. On the H100
// VMs (2026-11-27) these frees took 1.1 to 2.6 times what freeing the same size alone took
// (measure_handed_over_free_us), with one worker as with seven; no probe without the pipeline
// reproduced it, so calibrate measures it in a short run of the pipeline itself.
#include <cstddef>
#include <string>
#include <vector>

#include "engine/device/HardwareProfile.h"

namespace pinscope {

// The pool pipeline on `device` (a CUDA device, or the emulated one in tests) with the real host:
// two workers collating batches of each of `sizes` (multiples of 16 KiB) into new pages, `seconds`
// per size. Each point is the median free on the pin thread after the run's first third, in us; a
// size whose run would lock more than the default pinned budget (a quarter of physical memory) is
// left out. Throws DeviceError when the device fails or a run ends in an error, and
// std::runtime_error when a size's run freed no batch after its first third.
SizeCurve measure_pipeline_frees_us(const std::string& device, const std::vector<std::size_t>& sizes, double seconds);

}  // namespace pinscope
