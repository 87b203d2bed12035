// SPDX-License-Identifier: GPL-3.0-or-later
// The bottleneck named for the lessons' scenarios on the default profile with the host modelled,
// over the last second of a 2.5 s run, and the top suggestion measured against the run it improves.
#include <gtest/gtest.h>

#include "engine/advice/Advisor.h"
#include "engine/runner/Runner.h"
#include "tests/engine/ImagenetBatches.h"

namespace pinscope {
namespace {

using test::imagenet_batches;

struct Observed {
    Bottleneck window;
    RunSummary summary;
    double batches_per_s = 0;
};

Observed observe(const LoaderConfig& config) {
    RunnerOptions options;
    options.pace = RunClock::Pace::Unpaced;  // modelled time: the same figures as paced, sooner
    Runner runner(options);
    runner.start(config);
    runner.wait();
    return {runner.window_bottleneck(), runner.summary(), runner.window_metrics().batches_per_s};
}

struct Case {
    const char* name;
    LoaderConfig config;
    Resource expected;
};

class NamedBottleneck : public ::testing::TestWithParam<Case> {};

TEST_P(NamedBottleneck, IsTheResourceThatBoundsTheScenario) {
    const Observed run = observe(GetParam().config);
    RecordProperty("evidence", run.window.evidence);
    EXPECT_EQ(run.window.resource, GetParam().expected) << run.window.evidence;
    EXPECT_EQ(run.summary.bottleneck.resource, GetParam().expected) << run.summary.bottleneck.evidence;
    EXPECT_TRUE(run.window.saturated) << run.window.evidence;
    // The bound is the throughput at 100 %: what ran is within it.
    EXPECT_LE(run.batches_per_s, run.window.bound_batches_per_s * 1.05) << run.window.evidence;
}

LoaderConfig with_pin_mode(LoaderConfig config, PinMode mode) {
    config.pin_mode = mode;
    return config;
}

INSTANTIATE_TEST_SUITE_P(
    Scenarios, NamedBottleneck,
    ::testing::Values(
        Case{"TransferBound", with_pin_mode(imagenet_batches(8, true, 0, 0), PinMode::Worker), Resource::CopyEngine},
        Case{"LoaderBound", imagenet_batches(2, true, 300, 2000), Resource::Workers},
        Case{"ComputeBound", imagenet_batches(4, true, 50, 40000), Resource::Compute},
        Case{"PageableWithWorkers", imagenet_batches(4, false, 0, 2000), Resource::PageableStaging},
        // Without workers the consumer loads, collates and stages each batch: loading takes most.
        Case{"PageableWithoutWorkers", imagenet_batches(0, false, 0, 2000), Resource::Consumer},
        Case{"DefaultPinThread", imagenet_batches(4, true, 0, 2000), Resource::PinThread},
        Case{"HostAllocPerBatch", with_pin_mode(imagenet_batches(4, true, 0, 2000), PinMode::Alloc), Resource::PageLocking}),
    [](const auto& param_info) { return std::string(param_info.param.name); });

class TopSuggestion : public ::testing::TestWithParam<Case> {};

TEST_P(TopSuggestion, ImprovesMeasuredThroughput) {
    const Observed before = observe(GetParam().config);
    AdviceOptions options;
    options.seconds = 1.5;
    const std::vector<Advice> advice = advise(before.summary, options);
    ASSERT_FALSE(advice.empty()) << before.summary.bottleneck.evidence;
    const Observed after = observe(apply_change(GetParam().config, advice.front().change));
    RecordProperty("change", advice.front().change.text());
    RecordProperty("before", std::to_string(before.batches_per_s));
    RecordProperty("after", std::to_string(after.batches_per_s));
    RecordProperty("predicted", std::to_string(advice.front().predicted_batches_per_s));
    EXPECT_GT(after.batches_per_s, 1.05 * before.batches_per_s) << advice.front().change.text();
}

INSTANTIATE_TEST_SUITE_P(
    Scenarios, TopSuggestion,
    ::testing::Values(Case{"DefaultPinThread", imagenet_batches(4, true, 0, 2000), Resource::PinThread},
                      Case{"HostAllocPerBatch", with_pin_mode(imagenet_batches(4, true, 0, 2000), PinMode::Alloc),
                           Resource::PageLocking},
                      Case{"LoaderBound", imagenet_batches(2, true, 300, 2000), Resource::Workers},
                      Case{"PageableWithoutWorkers", imagenet_batches(0, false, 0, 2000), Resource::Consumer}),
    [](const auto& param_info) { return std::string(param_info.param.name); });

TEST(Advice, ComputeBoundOnASideStreamOffersNothing) {
    RunSummary summary;
    summary.config = imagenet_batches(4, true, 50, 40000);
    summary.bottleneck.resource = Resource::Compute;
    EXPECT_TRUE(candidate_changes(summary).empty());
}

TEST(Advice, CudaRunIsPredictedOnItsGpusCalibratedProfile) {
    RunSummary summary;
    summary.device.kind = DeviceKind::Cuda;
    summary.device.name = "NVIDIA H200";
    EXPECT_EQ(prediction_device(summary), "emulated:h200-pcie5-calibrated");
    summary.device.name = "NVIDIA A100-SXM4-40GB";
    EXPECT_EQ(prediction_device(summary), "emulated:h200-pcie5");
}

}  // namespace
}  // namespace pinscope
