// The dashboard's fractions, checked on hand-made timelines where the answer is known.
#include <gtest/gtest.h>

#include "metrics/IntervalSet.h"
#include "metrics/MetricsTracker.h"

namespace pinscope {
namespace {

constexpr TimeNs kMs = 1'000'000;

Span device_span(Stage stage, TimeNs start_ms, TimeNs end_ms, std::uint64_t batch, std::uint64_t bytes = 0) {
    Span s;
    s.stage = stage;
    s.start = start_ms * kMs;
    s.end = end_ms * kMs;
    s.batch = batch;
    s.bytes = bytes;
    s.lane = {stage == Stage::H2D ? LaneKind::CopyStream : stage == Stage::Compute ? LaneKind::ComputeStream
                                                                                    : LaneKind::Consumer,
              0};
    return s;
}

TEST(IntervalSet, MergesOverlapsAndMeasuresInsideARange) {
    IntervalSet set;
    set.add(10, 20);
    set.add(30, 40);
    set.add(15, 32);  // bridges both
    set.add(50, 60);
    EXPECT_EQ(set.size(), 2u);
    EXPECT_EQ(set.length_in(0, 100), 30 + 10);
    EXPECT_EQ(set.length_in(35, 55), 5 + 5);
    IntervalSet other;
    other.add(0, 12);
    other.add(38, 52);
    EXPECT_EQ(set.overlap_in(other, 0, 100), 2 + 2 + 2);
    set.drop_before(35);
    EXPECT_EQ(set.length_in(0, 100), 5 + 10);
}

TEST(MetricsTracker, GpuBusyCopyHiddenAndDataWait) {
    MetricsTracker tracker(0, 1.0);
    tracker.set_batch_size(4);
    // 100 ms: computes 0-40 and 50-90 (80% busy); copies 30-50 (half hidden under the first
    // compute) and 85-95 (half hidden); the consumer waited 40-50.
    tracker.add({device_span(Stage::Compute, 0, 40, 0), device_span(Stage::H2D, 30, 50, 1, 2'000'000'000),
                 device_span(Stage::Compute, 50, 90, 1), device_span(Stage::H2D, 85, 95, 2, 1'000'000'000),
                 device_span(Stage::Wait, 40, 50, 1), device_span(Stage::Staging, 60, 65, 2)});
    const Metrics m = tracker.whole_run(100 * kMs);
    EXPECT_DOUBLE_EQ(m.wall_s, 0.1);
    EXPECT_EQ(m.batches, 2u);
    EXPECT_EQ(m.samples, 8u);
    EXPECT_DOUBLE_EQ(m.batches_per_s, 20.0);
    EXPECT_DOUBLE_EQ(m.gpu_busy, 0.8);
    EXPECT_DOUBLE_EQ(m.copy_hidden, (10.0 + 5.0) / 30.0);
    EXPECT_DOUBLE_EQ(m.data_wait, 0.1);
    EXPECT_DOUBLE_EQ(m.host_held, 0.05);
    EXPECT_DOUBLE_EQ(m.h2d_gb_per_s, 30.0);
}

TEST(MetricsTracker, WindowCoversOnlyTheLastStretch) {
    MetricsTracker tracker(0, 0.1);
    std::vector<Span> spans;
    for (int i = 0; i < 50; ++i) spans.push_back(device_span(Stage::Compute, i * 10, i * 10 + (i < 40 ? 2 : 8), i));
    tracker.add(spans);
    const Metrics window = tracker.window(500 * kMs);
    EXPECT_EQ(window.batches, 10u);
    EXPECT_NEAR(window.gpu_busy, 0.8, 1e-9);
    const Metrics whole = tracker.whole_run(500 * kMs);
    EXPECT_EQ(whole.batches, 50u);
    EXPECT_NEAR(whole.gpu_busy, (40 * 2 + 10 * 8) / 500.0, 1e-9);
}

TEST(MetricsTracker, WholeRunStaysExactAfterOldSpansAreFolded) {
    MetricsTracker tracker(0, 0.1);
    // 10 s of 1 ms computes every 4 ms, fed in chunks: everything older than a few seconds is
    // folded into totals, and the whole-run figure must not notice.
    for (int chunk = 0; chunk < 100; ++chunk) {
        std::vector<Span> spans;
        for (int i = 0; i < 25; ++i) {
            const TimeNs t = (chunk * 25 + i) * 4;
            spans.push_back(device_span(Stage::Compute, t, t + 1, chunk * 25 + i));
        }
        tracker.add(spans);
    }
    const Metrics whole = tracker.whole_run(10'000 * kMs);
    EXPECT_EQ(whole.batches, 2500u);
    EXPECT_NEAR(whole.gpu_busy, 0.25, 1e-9);
}

}  // namespace
}  // namespace pinscope
