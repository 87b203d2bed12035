// SPDX-License-Identifier: GPL-3.0-or-later
// Calibrate's measurement of what freeing a worker's batch costs in a running pipeline: a short
// pool run with the real host at each size, whose pin thread's frees it takes the median of.
#include <gtest/gtest.h>

#include <stdexcept>

#include "engine/calibrate/PipelineFrees.h"
#include "engine/text/Units.h"

namespace pinscope {
namespace {

TEST(PipelineFrees, EachSizeIsTheMedianFreeOfARealPipelinesPinThread) {
    const SizeCurve curve = measure_pipeline_frees_us("emulated", {kMiB, 4 * kMiB}, 0.6);
    ASSERT_EQ(curve.sizes_bytes, (std::vector<double>{kMiB, 4 * kMiB}));
    ASSERT_EQ(curve.values.size(), 2u);
    for (const double us : curve.values) {
        EXPECT_GT(us, 0.0);
        EXPECT_LT(us, 1e6);
    }
}

// A batch whose run would lock more than a quarter of this machine's memory is left out, the
// sizes below it measured all the same (16 GiB batches would lock 112 GiB).
TEST(PipelineFrees, ASizeBeyondThePinnedBudgetIsLeftOut) {
    const SizeCurve curve = measure_pipeline_frees_us("emulated", {kMiB, 16 * kGiB}, 0.6);
    EXPECT_EQ(curve.sizes_bytes, (std::vector<double>{kMiB}));
    EXPECT_EQ(curve.values.size(), 1u);
}

TEST(PipelineFrees, ASizeThatMakesNoWholeSamplesIsRefused) {
    EXPECT_THROW(measure_pipeline_frees_us("emulated", {kMiB + 1}, 0.6), std::invalid_argument);
    EXPECT_THROW(measure_pipeline_frees_us("emulated", {0}, 0.6), std::invalid_argument);
}

}  // namespace
}  // namespace pinscope
