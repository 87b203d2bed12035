// SPDX-License-Identifier: GPL-3.0-or-later
// The dashboard's fractions, checked on hand-made timelines where the answer is known.
#include <gtest/gtest.h>

#include "engine/metrics/IntervalSet.h"
#include "engine/metrics/MetricsTracker.h"

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

TEST(MetricsTracker, GpuBusyCopyHiddenConsumerWaitAndHostHeld) {
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
    EXPECT_DOUBLE_EQ(m.consumer_wait, 0.1);
    EXPECT_DOUBLE_EQ(m.host_held, 0.05);
    EXPECT_DOUBLE_EQ(m.h2d_gb_per_s, 30.0);
}

// 100 ms: start-up until the first kernel at 10 ms (a copy at 5-9 ms then does not count), kernels
// 10-30, 40-60 and 80-90, copies 25-35 (half in the gap 30-40) and 62-70 (in the gap 60-80), and
// the tail 90-100 after the last kernel. The consumer waited 0-10 and 30-38.
std::vector<Span> starving_trace() {
    return {device_span(Stage::H2D, 5, 9, 0),         device_span(Stage::Wait, 0, 10, 0),
            device_span(Stage::Compute, 10, 30, 0),   device_span(Stage::H2D, 25, 35, 1),
            device_span(Stage::Wait, 30, 38, 1),      device_span(Stage::Compute, 40, 60, 1),
            device_span(Stage::H2D, 62, 70, 2),       device_span(Stage::Compute, 80, 90, 2)};
}

TEST(MetricsTracker, GpuStarvedIsTheIdleTimeBetweenKernelsSplitByWhetherACopyWasInFlight) {
    MetricsTracker tracker(0, 1.0);
    tracker.add(starving_trace());
    const Metrics m = tracker.whole_run(100 * kMs);
    EXPECT_DOUBLE_EQ(m.gpu_busy, 0.5);
    // Idle between the first kernel start (10) and the last kernel end (90): 30-40 and 60-80.
    EXPECT_DOUBLE_EQ(m.gpu_starved, 0.30);
    EXPECT_DOUBLE_EQ(m.gpu_starved_copy, (5 + 8) / 100.0);   // 30-35 and 62-70
    EXPECT_DOUBLE_EQ(m.gpu_starved_host, (5 + 12) / 100.0);  // 35-40, 60-62 and 70-80
    EXPECT_DOUBLE_EQ(m.gpu_busy + m.gpu_starved, (90 - 10) / 100.0);
    EXPECT_DOUBLE_EQ(m.consumer_wait, 0.18);
}

TEST(MetricsTracker, GpuStarvedInTheWindowCountsFromTheWindowStartNotTheFirstKernelInIt) {
    MetricsTracker tracker(0, 0.05);
    tracker.add(starving_trace());
    const Metrics w = tracker.window(100 * kMs);  // 50-100: kernels 50-60 and 80-90, gap 60-80
    EXPECT_DOUBLE_EQ(w.gpu_busy, 0.4);
    EXPECT_DOUBLE_EQ(w.gpu_starved_copy, 8 / 50.0);
    EXPECT_DOUBLE_EQ(w.gpu_starved_host, 12 / 50.0);
    EXPECT_DOUBLE_EQ(w.gpu_starved, 0.4);
    const Metrics early = tracker.window(50 * kMs);  // 0-50: start-up 0-10 is neither busy nor starved
    EXPECT_DOUBLE_EQ(early.gpu_busy, 30 / 50.0);
    EXPECT_DOUBLE_EQ(early.gpu_starved_copy, 5 / 50.0);
    EXPECT_DOUBLE_EQ(early.gpu_starved_host, 5 / 50.0);
}

TEST(MetricsTracker, KernelsBackToBackAreNotStarvedHoweverLongTheConsumerWaits) {
    // The consumer runs ahead of the GPU: it waits 9 ms of every 10 for its next batch from the
    // loader while the kernels of the batches it queued earlier run back to back.
    MetricsTracker tracker(0, 1.0);
    std::vector<Span> spans;
    for (int i = 0; i < 10; ++i) {
        spans.push_back(device_span(Stage::Wait, i * 10, i * 10 + 9, i + 2));
        spans.push_back(device_span(Stage::H2D, i * 10 + 5, i * 10 + 8, i + 2));
        spans.push_back(device_span(Stage::Compute, i * 10, i * 10 + 10, i));
    }
    tracker.add(spans);
    const Metrics m = tracker.whole_run(100 * kMs);
    EXPECT_DOUBLE_EQ(m.consumer_wait, 0.9);
    EXPECT_DOUBLE_EQ(m.gpu_busy, 1.0);
    EXPECT_DOUBLE_EQ(m.gpu_starved, 0.0);
    EXPECT_DOUBLE_EQ(m.gpu_starved_copy, 0.0);
    EXPECT_DOUBLE_EQ(m.gpu_starved_host, 0.0);
    EXPECT_DOUBLE_EQ(m.copy_hidden, 1.0);
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

// 10 s of a 4 ms period, fed in chunks so that old spans fold: a 1 ms kernel, then a 1 ms copy
// in the 3 ms gap before the next kernel. The last gap (9997-10000) is the tail, not starving.
std::vector<Span> periodic_chunk(int chunk) {
    std::vector<Span> spans;
    for (int i = 0; i < 25; ++i) {
        const int n = chunk * 25 + i;
        spans.push_back(device_span(Stage::Compute, n * 4, n * 4 + 1, n));
        spans.push_back(device_span(Stage::H2D, n * 4 + 1, n * 4 + 2, n + 1));
    }
    return spans;
}

TEST(MetricsTracker, GpuStarvedOverTheWholeRunStaysExactAfterOldSpansAreFolded) {
    MetricsTracker folded(0, 0.1);
    MetricsTracker kept(0, 1000.0);  // retention far beyond the run: nothing folds
    for (int chunk = 0; chunk < 100; ++chunk) {
        folded.add(periodic_chunk(chunk));
        kept.add(periodic_chunk(chunk));
    }
    const Metrics m = folded.whole_run(10'000 * kMs);
    EXPECT_NEAR(m.gpu_starved_copy, (2500 - 1) / 10'000.0, 1e-12);
    EXPECT_NEAR(m.gpu_starved_host, (2500 - 1) * 2 / 10'000.0, 1e-12);
    EXPECT_NEAR(m.gpu_starved, (2500 - 1) * 3 / 10'000.0, 1e-12);
    const Metrics reference = kept.whole_run(10'000 * kMs);
    EXPECT_DOUBLE_EQ(m.gpu_starved_copy, reference.gpu_starved_copy);
    EXPECT_DOUBLE_EQ(m.gpu_starved_host, reference.gpu_starved_host);
    const Metrics window = folded.window(10'000 * kMs);  // 9900-10000: 24 whole periods and the tail
    EXPECT_NEAR(window.gpu_starved_copy, 24 / 100.0, 1e-12);
    EXPECT_NEAR(window.gpu_starved_host, 24 * 2 / 100.0, 1e-12);
}

TEST(MetricsTracker, AStallLongerThanTheFoldDelayIsStarvingOnceTheNextKernelComes) {
    // A kernel at 0-1 ms, then the loader stalls; the consumer's wait spans keep arriving (so old
    // time would fold), a copy runs at 4000-4500, and the next kernel starts at 5000.
    MetricsTracker tracker(0, 0.1);
    tracker.add({device_span(Stage::Compute, 0, 1, 0)});
    for (int t = 1; t < 4000; t += 1000) tracker.add({device_span(Stage::Wait, t, t + 1000, 1)});
    const Metrics during = tracker.whole_run(4000 * kMs);
    EXPECT_DOUBLE_EQ(during.gpu_starved, 0.0);  // not known yet: the stall may be the run's end
    tracker.add({device_span(Stage::H2D, 4000, 4500, 1), device_span(Stage::Compute, 5000, 5001, 1)});
    const Metrics m = tracker.whole_run(5001 * kMs);
    EXPECT_DOUBLE_EQ(m.gpu_starved_copy, 500 / 5001.0);
    EXPECT_DOUBLE_EQ(m.gpu_starved_host, 4499 / 5001.0);
}

}  // namespace
}  // namespace pinscope
