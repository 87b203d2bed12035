// SPDX-License-Identifier: GPL-3.0-or-later
// Calibrate's measurements of what the pipeline's own calls cost where it makes them: short runs
// with the real host at each size, whose frees or page-locking calls it takes the median of.
#include <gtest/gtest.h>

#include <stdexcept>

#include "engine/calibrate/PipelineCosts.h"
#include "engine/text/Units.h"

namespace pinscope {
namespace {

void expect_a_plausible_cost_at_each_size(const SizeCurve& curve) {
    ASSERT_EQ(curve.sizes_bytes, (std::vector<double>{kMiB, 4 * kMiB}));
    ASSERT_EQ(curve.values.size(), 2u);
    for (const double us : curve.values) {
        EXPECT_GT(us, 0.0);
        EXPECT_LT(us, 1e6);
    }
}

TEST(PipelineCosts, EachSizeIsTheMedianFreeOfARealPipelinesPinThread) {
    expect_a_plausible_cost_at_each_size(
        measure_pipeline_costs_us("emulated", PipelineCost::FreeWorkersBatch, {kMiB, 4 * kMiB}, 0.6));
}

TEST(PipelineCosts, EachSizeIsTheMedianRegisterOfARealPipelinesBatches) {
    expect_a_plausible_cost_at_each_size(
        measure_pipeline_costs_us("emulated", PipelineCost::HostRegister, {kMiB, 4 * kMiB}, 0.6));
}

TEST(PipelineCosts, EachSizeIsTheMedianAllocOfARealPipelinesBatches) {
    expect_a_plausible_cost_at_each_size(
        measure_pipeline_costs_us("emulated", PipelineCost::HostAlloc, {kMiB, 4 * kMiB}, 0.6));
}

// A batch whose run would lock more than a quarter of this machine's memory is left out, the
// sizes below it measured all the same (16 GiB batches would lock 112 GiB).
TEST(PipelineCosts, ASizeBeyondThePinnedBudgetIsLeftOut) {
    const SizeCurve curve = measure_pipeline_costs_us("emulated", PipelineCost::FreeWorkersBatch, {kMiB, 16 * kGiB}, 0.6);
    EXPECT_EQ(curve.sizes_bytes, (std::vector<double>{kMiB}));
    EXPECT_EQ(curve.values.size(), 1u);
}

TEST(PipelineCosts, ASizeThatMakesNoWholeSamplesIsRefused) {
    for (const PipelineCost cost : {PipelineCost::FreeWorkersBatch, PipelineCost::HostRegister, PipelineCost::HostAlloc}) {
        EXPECT_THROW(measure_pipeline_costs_us("emulated", cost, {kMiB + 1}, 0.6), std::invalid_argument);
        EXPECT_THROW(measure_pipeline_costs_us("emulated", cost, {0}, 0.6), std::invalid_argument);
    }
}

}  // namespace
}  // namespace pinscope
