// SPDX-License-Identifier: GPL-3.0-or-later
// Two runs compared: the configuration lines that differ, each figure with its difference and
// ratio, each stage's median and p95 from the spans.
#include <gtest/gtest.h>

#include <algorithm>

#include "engine/compare/RunComparison.h"

namespace pinscope {
namespace {

Span span_of(Stage stage, TimeNs duration_us) {
    Span span;
    span.stage = stage;
    span.start = 1000;
    span.end = 1000 + duration_us * 1000;
    return span;
}

const FigureComparison& figure(const RunComparison& c, const std::string& name) {
    const auto it = std::find_if(c.figures.begin(), c.figures.end(), [&](const FigureComparison& f) { return f.name == name; });
    EXPECT_NE(it, c.figures.end()) << name;
    return *it;
}

TEST(RunComparison, StageDurationsGiveTheMedianAndTheNearestRankP95) {
    std::vector<Span> spans;
    for (int us = 1; us <= 20; ++us) spans.push_back(span_of(Stage::Pin, us));  // 1..20 us
    spans.push_back(span_of(Stage::Compute, 7));
    const auto durations = stage_durations(spans);
    ASSERT_EQ(durations.size(), 2u);  // only the stages there are, in Stage order
    EXPECT_EQ(durations[0].stage, Stage::Pin);
    EXPECT_EQ(durations[0].count, 20u);
    EXPECT_DOUBLE_EQ(durations[0].median_us, 10.5);
    EXPECT_DOUBLE_EQ(durations[0].p95_us, 19);  // the 19th of 20
    EXPECT_EQ(durations[1].stage, Stage::Compute);
    EXPECT_DOUBLE_EQ(durations[1].median_us, 7);
    EXPECT_DOUBLE_EQ(durations[1].p95_us, 7);
}

TEST(RunComparison, SaysWhatDiffersAndEachFiguresDeltaAndRatio) {
    RunRecord a, b;
    a.summary.config.pin_memory = true;
    b.summary.config.pin_memory = false;
    a.summary.device.kind = b.summary.device.kind = DeviceKind::Emulated;
    a.summary.device.profile = b.summary.device.profile = "h200-pcie5";
    a.summary.metrics.batches_per_s = 200;
    b.summary.metrics.batches_per_s = 150;
    a.summary.metrics.gpu_busy = 0.5;
    b.summary.metrics.gpu_busy = 0.25;
    a.spans = {span_of(Stage::Pin, 3500)};
    b.spans = {span_of(Stage::Staging, 900)};

    const RunComparison c = compare_runs(a, b);
    EXPECT_EQ(c.differences, std::vector<std::string>{"pin_memory: on -> off"});
    const FigureComparison& rate = figure(c, "batches/s");
    EXPECT_DOUBLE_EQ(rate.delta(), -50);
    EXPECT_DOUBLE_EQ(*rate.ratio(), 0.75);
    const FigureComparison& busy = figure(c, "GPU busy");
    EXPECT_EQ(busy.unit, "%");
    EXPECT_DOUBLE_EQ(busy.a, 50);
    EXPECT_DOUBLE_EQ(busy.b, 25);
    EXPECT_FALSE(figure(c, "copy hidden").ratio());  // nothing to divide by
    ASSERT_EQ(c.stages.size(), 2u);  // a stage either run has
    EXPECT_EQ(c.stages[0].stage, Stage::Pin);
    EXPECT_EQ(c.stages[0].b.count, 0u);
    EXPECT_EQ(c.stages[1].stage, Stage::Staging);
    EXPECT_DOUBLE_EQ(c.stages[1].b.median_us, 900);
}

TEST(RunComparison, ADifferentDeviceIsSaidOnceAsTheRunsResolvedIt) {
    RunRecord a, b;
    a.summary.config.device = "auto";
    b.summary.config.device = "emulated";
    a.summary.device.kind = DeviceKind::Cuda;
    a.summary.device.name = "NVIDIA H200";
    b.summary.device.kind = DeviceKind::Emulated;
    b.summary.device.profile = "h200-pcie5";
    const RunComparison c = compare_runs(a, b);
    ASSERT_EQ(c.differences.size(), 1u);
    EXPECT_EQ(c.differences[0], "device: cuda NVIDIA H200 -> emulated h200-pcie5");
}

}  // namespace
}  // namespace pinscope
