// SPDX-License-Identifier: GPL-3.0-or-later
// The pipeline's promises on the emulated device: every batch once and in order, no more in
// flight than num_workers * prefetch_factor, the pinned footprint within its bound and back to
// zero at the end, whatever the worker count and pin mode.
#include <gtest/gtest.h>

#include <map>
#include <numeric>

#include "engine/config/PinnedBudget.h"
#include "engine/memory/PinnedPool.h"
#include "tests/engine/RecordedRun.h"

namespace pinscope {
namespace {

using test::batches_of;
using test::run_to_end;
using test::small_config;

std::vector<std::uint64_t> iota(std::uint64_t n) {
    std::vector<std::uint64_t> v(n);
    std::iota(v.begin(), v.end(), 0);
    return v;
}

struct Shape {
    std::uint32_t workers;
    bool pin_memory;
    PinMode mode;
    std::uint32_t prefetch;
};

class PipelineShapes : public ::testing::TestWithParam<Shape> {};

TEST_P(PipelineShapes, DeliversEveryBatchOnceAndInOrder) {
    LoaderConfig config = small_config(GetParam().workers, GetParam().pin_memory, 48);
    config.pin_mode = GetParam().mode;
    if (config.num_workers > 0) config.prefetch_factor = GetParam().prefetch;
    const RunRecord record = run_to_end(config);
    ASSERT_TRUE(record.summary.error.empty()) << record.summary.error;
    EXPECT_EQ(batches_of(record, Stage::Compute), iota(48));
    EXPECT_EQ(batches_of(record, Stage::H2D), iota(48));
    EXPECT_EQ(record.summary.metrics.batches, 48u);
}

TEST_P(PipelineShapes, KeepsAtMostWorkersTimesPrefetchInFlight) {
    LoaderConfig config = small_config(GetParam().workers, GetParam().pin_memory, 48);
    config.pin_mode = GetParam().mode;
    if (config.num_workers > 0) config.prefetch_factor = GetParam().prefetch;
    const RunRecord record = run_to_end(config);
    if (config.num_workers == 0) {
        // Nothing is prefetched: each load starts after the previous batch went to the device.
        TimeNs previous_copy_issued = 0;
        for (const Span& span : record.spans) {
            if (span.stage == Stage::Load) {
                EXPECT_GE(span.start, previous_copy_issued);
            }
            if (span.stage == Stage::Collate) previous_copy_issued = span.end;
        }
        return;
    }
    // A batch is in flight from the moment its index is sent (before its load starts) until the
    // consumer takes it (the end of its wait span).
    std::vector<std::pair<TimeNs, int>> events;
    for (const Span& span : record.spans) {
        if (span.stage == Stage::Load) events.emplace_back(span.start, +1);
        if (span.stage == Stage::Wait) events.emplace_back(span.end, -1);
    }
    std::sort(events.begin(), events.end());  // a take before a load at the same instant
    int in_flight = 0, most = 0;
    for (const auto& [time, delta] : events) most = std::max(most, in_flight += delta);
    EXPECT_LE(most, static_cast<int>(config.max_outstanding()));
    EXPECT_GE(most, 1);
    for (const CounterSample& sample : record.counters)
        if (sample.counter == Counter::InFlightBatches) { EXPECT_LE(sample.value, config.max_outstanding()); }
}

TEST_P(PipelineShapes, PinnedFootprintStaysWithinBoundAndReturnsToZero) {
    LoaderConfig config = small_config(GetParam().workers, GetParam().pin_memory, 48);
    config.pin_mode = GetParam().mode;
    if (config.num_workers > 0) config.prefetch_factor = GetParam().prefetch;
    const std::uint64_t locked_before = test::locked_bytes();
    const RunRecord record = run_to_end(config);
    const PoolStats& pinned = record.summary.pinned;
    EXPECT_LE(static_cast<std::uint64_t>(pinned.reserved_bytes.peak), worst_case_pinned(config).bytes());
    EXPECT_EQ(pinned.allocated_bytes.current, 0);
    EXPECT_EQ(pinned.reserved_bytes.current, 0);
    EXPECT_EQ(pinned.segment.current, 0);
    EXPECT_EQ(test::locked_bytes(), locked_before);
    if (config.pin_memory) { EXPECT_GT(pinned.reserved_bytes.peak, 0); }
    for (const CounterSample& sample : record.counters)
        if (sample.counter == Counter::PinnedReservedBytes) {
            EXPECT_LE(sample.value, static_cast<double>(worst_case_pinned(config).bytes()));
        }
}

INSTANTIATE_TEST_SUITE_P(
    WorkersAndPinModes, PipelineShapes,
    ::testing::Values(Shape{0, false, PinMode::Pool, 2}, Shape{0, true, PinMode::Pool, 2},
                      Shape{0, true, PinMode::Worker, 2}, Shape{1, true, PinMode::Pool, 1},
                      Shape{3, false, PinMode::Pool, 2}, Shape{3, true, PinMode::Pool, 2},
                      Shape{3, true, PinMode::Alloc, 2}, Shape{3, true, PinMode::Register, 3},
                      Shape{4, true, PinMode::Worker, 2}, Shape{8, true, PinMode::Pool, 4}),
    [](const auto& param_info) {
        const Shape& s = param_info.param;
        return "w" + std::to_string(s.workers) + "_p" + std::to_string(s.prefetch) +
               (s.pin_memory ? "_pinned_" + to_string(s.mode) : std::string("_pageable"));
    });

TEST(LoaderPipeline, OutOfOrderDeliveryStillDeliversEachBatchOnce) {
    LoaderConfig config = small_config(4, true, 64);
    config.in_order = false;
    const RunRecord record = run_to_end(config);
    auto computed = batches_of(record, Stage::Compute);
    std::sort(computed.begin(), computed.end());
    EXPECT_EQ(computed, iota(64));
}

TEST(LoaderPipeline, CachingPoolReusesBlocks) {
    LoaderConfig config = small_config(2, true, 60);
    const RunRecord record = run_to_end(config);
    const PoolStats& pinned = record.summary.pinned;
    // 60 batches through a handful of blocks: the rest came from the cache.
    EXPECT_LE(pinned.num_host_alloc, worst_case_pinned(config).blocks);
    EXPECT_GE(pinned.cache_hits + pinned.num_host_alloc, 60u);
    EXPECT_GT(pinned.cache_hits, 30u);
}

TEST(LoaderPipeline, AllocModeAllocatesAndFreesEveryBatch) {
    LoaderConfig config = small_config(2, true, 30);
    config.pin_mode = PinMode::Alloc;
    const RunRecord record = run_to_end(config);
    EXPECT_EQ(record.summary.pinned.num_host_alloc, 30u);
    EXPECT_EQ(record.summary.pinned.num_host_free, 30u);
    EXPECT_EQ(record.summary.pinned.cache_hits, 0u);
}

TEST(LoaderPipeline, SpansCarryLanesAndCpus) {
    const RunRecord record = run_to_end(small_config(2, true, 20));
    std::map<LaneKind, int> lanes;
    for (const Span& span : record.spans) {
        ++lanes[span.lane.kind];
        EXPECT_LE(span.start, span.end);
        if (is_device_lane(span.lane.kind)) {
            EXPECT_EQ(span.cpu, -1);
        } else {
            EXPECT_GE(span.cpu, 0);
        }
        if (span.lane.kind == LaneKind::Worker) { EXPECT_LT(span.lane.index, 2); }
    }
    for (LaneKind kind : {LaneKind::Worker, LaneKind::PinThread, LaneKind::Consumer, LaneKind::CopyStream,
                          LaneKind::ComputeStream})
        EXPECT_GT(lanes[kind], 0) << to_string(kind);
}

TEST(LoaderPipeline, RealHostWorkRunsTheSamePipeline) {
    LoaderConfig config = small_config(2, true, 30);
    config.host = HostMode::Real;
    const RunRecord record = run_to_end(config);
    ASSERT_TRUE(record.summary.error.empty()) << record.summary.error;
    EXPECT_EQ(batches_of(record, Stage::Compute), iota(30));
    for (const Span& span : record.spans)
        if (span.stage == Stage::Load) { EXPECT_GE(span.duration(), 4 * 50'000) << "4 samples x 50 us of real work"; }
}

}  // namespace
}  // namespace pinscope
