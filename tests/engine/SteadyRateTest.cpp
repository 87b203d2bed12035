// SPDX-License-Identifier: GPL-3.0-or-later
// validate's figures of a run: throughput from the kernels that ended after the warm-up, and the
// host's work per batch (its load and collate) as it ran then, on workers or the consumer.
#include <gtest/gtest.h>

#include "engine/validate/SteadyRate.h"

namespace pinscope {
namespace {

Span span(Stage stage, LaneKind lane, std::uint64_t batch, TimeNs start, TimeNs end) {
    Span s;
    s.stage = stage;
    s.lane = Lane{lane, 0};
    s.batch = batch;
    s.start = start;
    s.end = end;
    return s;
}

constexpr TimeNs kUs = 1000;

TEST(SteadyRate, ThroughputCountsTheKernelsThatEndedAfterTheWarmUp) {
    Trace trace(64);
    for (std::uint64_t b = 0; b < 5; ++b)
        trace.add(span(Stage::Compute, LaneKind::ComputeStream, b, static_cast<TimeNs>(b) * 10 * kUs,
                       static_cast<TimeNs>(b + 1) * 10 * kUs));
    // Kernels end at 10, 20, ..., 50 us; after 15 us: 20 to 50, three intervals in 30 us.
    EXPECT_NEAR(steady_figures(trace, 15 * kUs).batches_per_s, 3 / 30e-6, 1e-6);
    EXPECT_EQ(steady_figures(trace, 45 * kUs).batches_per_s, 0.0);  // one kernel: no interval
}

TEST(SteadyRate, TheHostsWorkPerBatchIsTheMedianOfItsLoadAndCollateAfterTheWarmUp) {
    Trace trace(64);
    // Batch 0 ends (at 1.8 ms) before the warm-up; batches 1 to 3 load on workers, batch 4 on the consumer.
    const TimeNs load_us[] = {900, 100, 300, 200, 250};
    const TimeNs collate_us[] = {900, 50, 50, 50, 50};
    for (std::uint64_t b = 0; b < 5; ++b) {
        const LaneKind lane = b == 4 ? LaneKind::Consumer : LaneKind::Worker;
        const TimeNs at = static_cast<TimeNs>(b) * 2000 * kUs;
        trace.add(span(Stage::Load, lane, b, at, at + load_us[b] * kUs));
        trace.add(span(Stage::Collate, lane, b, at + load_us[b] * kUs, at + (load_us[b] + collate_us[b]) * kUs));
        trace.add(span(Stage::H2D, LaneKind::CopyStream, b, at, at + 5000 * kUs));  // not the host's
    }
    trace.add(span(Stage::Load, LaneKind::Worker, 5, 10000 * kUs, 10999 * kUs));  // loaded, not yet collated
    // Batches 1 to 4: 150, 350, 250 and 300 us; the median 275.
    EXPECT_NEAR(steady_figures(trace, 1900 * kUs).host_us_per_batch, 275.0, 1e-9);
    EXPECT_EQ(steady_figures(Trace(8), 0).host_us_per_batch, 0.0);
}

TEST(SteadyRate, EachStagesTimePerBatchSumsItsSpansAfterTheWarmUpOverTheKernels) {
    Trace trace(64);
    // Four batches, 1 ms apart; the first before the warm-up. Loads on two workers (lane index
    // apart, one kind), a staging and two frees of each batch on the consumer, a kernel each.
    for (std::uint64_t b = 0; b < 4; ++b) {
        const TimeNs at = static_cast<TimeNs>(b) * 1000 * kUs;
        Span load = span(Stage::Load, LaneKind::Worker, b, at, at + (100 + 20 * static_cast<TimeNs>(b)) * kUs);
        load.lane.index = static_cast<std::uint16_t>(b % 2);
        trace.add(load);
        trace.add(span(Stage::Staging, LaneKind::Consumer, b, at + 200 * kUs, at + 250 * kUs));
        trace.add(span(Stage::Free, LaneKind::Consumer, b, at + 300 * kUs, at + 310 * kUs));
        trace.add(span(Stage::Free, LaneKind::Consumer, b, at + 320 * kUs, at + 350 * kUs));
        trace.add(span(Stage::Compute, LaneKind::ComputeStream, b, at + 400 * kUs, at + 900 * kUs));
    }
    trace.add(span(Stage::Free, LaneKind::PinThread, 3, 3500 * kUs, 3590 * kUs));  // one batch of three
    const StageTimes stages = steady_figures(trace, 950 * kUs).stages;
    const StageTimes expected{{Stage::Load, LaneKind::Worker, (120.0 + 140 + 160) / 3},
                              {Stage::Staging, LaneKind::Consumer, 50},
                              {Stage::Compute, LaneKind::ComputeStream, 500},
                              {Stage::Free, LaneKind::PinThread, 30},
                              {Stage::Free, LaneKind::Consumer, 40}};
    ASSERT_EQ(stages.size(), expected.size());
    for (std::size_t i = 0; i < stages.size(); ++i) {
        EXPECT_EQ(stages[i].stage, expected[i].stage) << i;
        EXPECT_EQ(stages[i].lane, expected[i].lane) << i;
        EXPECT_NEAR(stages[i].us_per_batch, expected[i].us_per_batch, 1e-9) << i;
    }
    EXPECT_TRUE(steady_figures(trace, 5000 * kUs).stages.empty()) << "no kernel after the warm-up";
}

// What the consumer did outside its spans (its driver calls, its loop) shows where a model that
// traces every stage right still misses: spans that nest count once, other lanes not at all.
TEST(SteadyRate, TheConsumersUntracedTimeIsWhatNoneOfItsSpansCoverBetweenTheKernels) {
    Trace trace(64);
    // Kernels end at 1, 2, 3 and 4 ms: three batches between the first and the last.
    for (std::uint64_t b = 0; b < 4; ++b) {
        const TimeNs at = static_cast<TimeNs>(b) * 1000 * kUs;
        trace.add(span(Stage::Compute, LaneKind::ComputeStream, b, at + 500 * kUs, at + 1000 * kUs));
        // The consumer: a pin of 400 us with an alloc inside it, a free of 200 us; 400 us untraced.
        trace.add(span(Stage::Pin, LaneKind::Consumer, b, at + 1000 * kUs, at + 1400 * kUs));
        trace.add(span(Stage::Alloc, LaneKind::Consumer, b, at + 1100 * kUs, at + 1300 * kUs));
        trace.add(span(Stage::Free, LaneKind::Consumer, b, at + 1600 * kUs, at + 1800 * kUs));
        trace.add(span(Stage::Load, LaneKind::Worker, b, at, at + 1000 * kUs));  // another lane's
    }
    // From 1 ms to 4 ms: the consumer's spans cover 1.0-1.4, 1.6-1.8, 2.0-2.4, 2.6-2.8, 3.0-3.4 and 3.6-3.8 ms.
    EXPECT_NEAR(steady_figures(trace, 0).consumer_untraced_us_per_batch, (3000.0 - 1800) / 3, 1e-9);
    // After 2.5 ms only the kernels ending at 3 and 4 ms count: 1 ms, 600 us of it traced.
    EXPECT_NEAR(steady_figures(trace, 2500 * kUs).consumer_untraced_us_per_batch, 400.0, 1e-9);
    EXPECT_EQ(steady_figures(trace, 3500 * kUs).consumer_untraced_us_per_batch, 0.0) << "one kernel: no batch between";
}

TEST(SteadyRate, TheMedianStageTimesCountAStageARunLackedAsZero) {
    const StageTimes a{{Stage::Load, LaneKind::Worker, 100}, {Stage::Wait, LaneKind::Consumer, 30}};
    const StageTimes b{{Stage::Load, LaneKind::Worker, 300}};
    const StageTimes c{{Stage::Load, LaneKind::Worker, 200}, {Stage::Wait, LaneKind::Consumer, 10}};
    const StageTimes middle = median_stage_times({a, b, c});
    EXPECT_EQ(middle, (StageTimes{{Stage::Load, LaneKind::Worker, 200}, {Stage::Wait, LaneKind::Consumer, 10}}));
    EXPECT_TRUE(median_stage_times({}).empty());
}

}  // namespace
}  // namespace pinscope
