// SPDX-License-Identifier: GPL-3.0-or-later
// Where the copy is queued, on the emulated device: on the compute stream (a plain loop's
// x.to("cuda")) each copy follows the kernel queued before it, so a blocking copy holds the host
// for that kernel too; on a side stream copies overlap kernels and a blocking copy waits only for
// itself. The spans say which: Sync for the host waiting on the GPU, Staging for staging alone.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <optional>
#include <vector>

#include "engine/clock/SteadyClock.h"
#include "tests/engine/RecordedRun.h"

namespace pinscope {
namespace {

using test::run_to_end;
using test::small_config;

constexpr std::uint64_t kBatches = 24;
constexpr double kKernelUs = 10000;  // far longer than a batch's loading: the kernel decides the pace
// A batch counts as "early" when its copy was issued with at least half the kernel before it left
// to run. How many are depends on this machine's speed (under TSan on a loaded machine, few), so
// the holds are checked on the early ones, and a run with too few of them says so and skips.
constexpr std::size_t kEnoughEarly = kBatches / 4;

LoaderConfig blocking_config(CopyStream stream, bool pin_memory = true) {
    LoaderConfig config = small_config(2, pin_memory, kBatches);
    config.gpu_us_per_batch = kKernelUs;
    config.non_blocking = false;
    config.copy_stream = stream;
    return config;
}

// One span per batch of `stage` on `lane`, keyed by batch; with `bytes`, only spans of that size.
std::map<std::uint64_t, Span> by_batch(const RunRecord& record, Stage stage, LaneKind lane,
                                       std::optional<std::uint64_t> bytes = std::nullopt) {
    std::map<std::uint64_t, Span> spans;
    for (const Span& span : record.spans)
        if (span.stage == stage && span.lane.kind == lane && (!bytes || span.bytes == *bytes))
            spans.emplace(span.batch, span);
    return spans;
}

TimeNs median(std::vector<TimeNs> values) {
    std::sort(values.begin(), values.end());
    return values.empty() ? 0 : values[values.size() / 2];
}

struct Streams {
    std::map<std::uint64_t, Span> copies, kernels, blocking_syncs;
};

Streams streams_of(const RunRecord& record, const LoaderConfig& config) {
    EXPECT_TRUE(record.summary.error.empty()) << record.summary.error;
    Streams s{by_batch(record, Stage::H2D, LaneKind::CopyStream), by_batch(record, Stage::Compute, LaneKind::ComputeStream),
              by_batch(record, Stage::Sync, LaneKind::Consumer, config.batch_bytes())};
    EXPECT_EQ(s.copies.size(), kBatches);
    EXPECT_EQ(s.kernels.size(), kBatches);
    return s;
}

TEST(CopyStream, OnTheComputeStreamEachCopyStartsOnlyAfterTheKernelQueuedBeforeIt) {
    for (const bool non_blocking : {true, false}) {
        LoaderConfig config = blocking_config(CopyStream::Compute);
        config.non_blocking = non_blocking;
        const RunRecord record = run_to_end(config);
        const Streams s = streams_of(record, config);
        for (std::uint64_t batch = 1; batch < kBatches; ++batch) {
            EXPECT_GE(s.copies.at(batch).start, s.kernels.at(batch - 1).end)
                << "batch " << batch << (non_blocking ? ", non_blocking on" : ", non_blocking off");
        }
        EXPECT_EQ(record.summary.metrics.copy_hidden, 0.0) << "a copy in stream order never runs beside a kernel";
    }
}

TEST(CopyStream, OnASideStreamCopiesRunWhileTheKernelBeforeThemRuns) {
    const LoaderConfig config = blocking_config(CopyStream::Side);
    const Streams s = streams_of(run_to_end(config), config);
    int overlapping = 0;
    for (std::uint64_t batch = 1; batch < kBatches; ++batch)
        if (s.copies.at(batch).start < s.kernels.at(batch - 1).end) ++overlapping;
    EXPECT_GT(overlapping, static_cast<int>(kBatches) / 2);
}

TEST(CopyStream, ABlockingCopyOnTheComputeStreamHoldsTheHostThroughTheKernelBeforeIt) {
    const LoaderConfig config = blocking_config(CopyStream::Compute);
    const Streams s = streams_of(run_to_end(config), config);
    ASSERT_EQ(s.blocking_syncs.size(), kBatches);
    std::size_t early = 0;
    for (std::uint64_t batch = 1; batch < kBatches; ++batch) {
        const Span& sync = s.blocking_syncs.at(batch);
        const Span& previous_kernel = s.kernels.at(batch - 1);
        // The host returns only once the kernel before the copy and the copy itself have ended.
        EXPECT_GE(sync.end, previous_kernel.end) << "batch " << batch;
        EXPECT_GE(sync.end, s.copies.at(batch).end) << "batch " << batch;
        if (previous_kernel.end - sync.start > duration_ns(kKernelUs * 1e3 / 2)) ++early;
    }
    if (early < kEnoughEarly)
        GTEST_SKIP() << "the host issued only " << early << " of " << kBatches
                     << " copies while half the kernel before them was left: too slow here to show the hold";
}

TEST(CopyStream, ABlockingCopyOnASideStreamWaitsOnlyForItself) {
    const LoaderConfig config = blocking_config(CopyStream::Side);
    const Streams s = streams_of(run_to_end(config), config);
    ASSERT_EQ(s.blocking_syncs.size(), kBatches);
    std::vector<TimeNs> held;
    for (std::uint64_t batch = 1; batch < kBatches; ++batch) {
        const Span& sync = s.blocking_syncs.at(batch);
        EXPECT_GE(sync.end, s.copies.at(batch).end) << "batch " << batch;
        held.push_back(sync.end - sync.start);
    }
    // 48 KiB copies take microseconds: nothing like the 2 ms kernel they run beside.
    EXPECT_LT(median(held), duration_ns(kKernelUs * 1e3 / 4));
}

TEST(CopyStream, APageableCopyOnTheComputeStreamWaitsForTheStreamAsSyncThenStages) {
    for (const bool non_blocking : {true, false}) {
        LoaderConfig config = blocking_config(CopyStream::Compute, false);
        config.non_blocking = non_blocking;
        const RunRecord record = run_to_end(config);
        const Streams s = streams_of(record, config);
        const auto staging = by_batch(record, Stage::Staging, LaneKind::Consumer);
        ASSERT_EQ(staging.size(), kBatches);
        // The wait for the stream, recorded under the batch it is for, before its staging.
        std::map<std::uint64_t, Span> stream_syncs;
        for (const Span& span : record.spans)
            if (span.stage == Stage::Sync && span.lane.kind == LaneKind::Consumer && span.bytes == 0 &&
                staging.count(span.batch) != 0 && span.end <= staging.at(span.batch).start)
                stream_syncs[span.batch] = span;
        std::size_t early = 0;
        for (std::uint64_t batch = 1; batch < kBatches; ++batch) {
            const Span& previous_kernel = s.kernels.at(batch - 1);
            // Staging starts once the kernel queued before the copy has ended: it is staging alone.
            EXPECT_GE(staging.at(batch).start, previous_kernel.end) << "batch " << batch;
            // When the consumer came to the copy with half the kernel left, that wait is a Sync span
            // lasting to the kernel's end (not staging, and not lost).
            const auto sync = stream_syncs.find(batch);
            const TimeNs arrived = sync == stream_syncs.end() ? staging.at(batch).start : sync->second.start;
            if (previous_kernel.end - arrived <= duration_ns(kKernelUs * 1e3 / 2)) continue;
            ++early;
            ASSERT_NE(sync, stream_syncs.end()) << "batch " << batch << ": no Sync span for the wait";
            EXPECT_GE(sync->second.end, previous_kernel.end) << "batch " << batch;
        }
        if (early < kEnoughEarly)
            GTEST_SKIP() << "the consumer came to only " << early << " of " << kBatches
                         << " copies while half the kernel before them was left: too slow here to show the wait"
                         << (non_blocking ? " (non_blocking on)" : "");
    }
}

}  // namespace
}  // namespace pinscope
