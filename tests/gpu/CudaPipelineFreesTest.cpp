// SPDX-License-Identifier: GPL-3.0-or-later
// Calibrate's run of the pool pipeline on the GPU, to time the pin thread's frees of workers'
// batches: it runs on CUDA with the real host, and a batch of four times the pages costs more.
#include <iostream>

#include "engine/calibrate/PipelineFrees.h"
#include "engine/text/Units.h"
#include "tests/gpu/CudaTestDevice.h"

namespace pinscope {
namespace {

using test::CudaDeviceTest;

class CudaPipelineFrees : public CudaDeviceTest {};

TEST_F(CudaPipelineFrees, TimesThePinThreadsFreesAtEachSize) {
    device.reset();  // the run opens its own
    const SizeCurve curve = measure_pipeline_frees_us("cuda:0", {2 * kMiB, 8 * kMiB}, 0.6);
    ASSERT_EQ(curve.values.size(), 2u);
    std::cout << "pipeline frees: 2 MiB " << curve.values[0] << " us, 8 MiB " << curve.values[1] << " us\n";
    EXPECT_GT(curve.values[0], 0.0);
    EXPECT_GT(curve.values[1], curve.values[0]);
}

}  // namespace
}  // namespace pinscope
