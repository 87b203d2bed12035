// SPDX-License-Identifier: GPL-3.0-or-later
// What calibrate measures a batch's cudaHostAlloc to cost is what the run's device pays for it
// with pin_mode alloc, where each batch's block stays allocated while the next ones are. Measured
// in alloc-free pairs, calibrate once read 2 us for a 1.4 MB block that cost the pipeline 0.85 ms.
#include <deque>
#include <iostream>
#include <vector>

#include "engine/clock/SteadyClock.h"
#include "engine/device/cuda/CudaCalibrationProbe.h"
#include "tests/gpu/CudaTestDevice.h"

namespace pinscope {
namespace {

using test::CudaDeviceTest;

class CudaPageLockingCost : public CudaDeviceTest {};

// The run's device allocating blocks of `bytes` with three held, as the pin thread does ahead of
// the copies: the median cost of an allocation.
double run_alloc_us(Device& device, std::size_t bytes) {
    std::deque<PinnedAllocation> held;
    std::vector<double> costs;
    for (int i = 0; i < 12; ++i) {
        const TimeNs start = now_ns();
        held.push_back(device.allocate_pinned(bytes));
        if (i >= 3) costs.push_back(static_cast<double>(now_ns() - start) / 1e3);
        if (held.size() > 3) {
            device.free_pinned(held.front());
            held.pop_front();
        }
    }
    for (const PinnedAllocation& block : held) device.free_pinned(block);
    return median(costs);
}

TEST_F(CudaPageLockingCost, ABatchsAllocationCostsTheRunWhatCalibrateMeasuresAtItsSize) {
    const auto probe = open_cuda_calibration_probe(0);
    for (const std::size_t bytes : {std::size_t{1393580}, std::size_t{4} << 20}) {
        device->prepare(bytes);
        const double calibrated = probe->host_alloc_free_us(bytes).pin_us;
        const double in_run = run_alloc_us(*device, bytes);
        std::cout << bytes << " bytes: calibrate " << calibrated << " us, the run's device " << in_run << " us\n";
        EXPECT_GT(calibrated, in_run / 2) << bytes << " bytes";
        EXPECT_LT(calibrated, in_run * 2) << bytes << " bytes";
    }
}

}  // namespace
}  // namespace pinscope
