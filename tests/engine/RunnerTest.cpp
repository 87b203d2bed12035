// SPDX-License-Identifier: GPL-3.0-or-later
// The runner's life cycle: runs end by length, stop and errors free every pinned block, and a
// reconfiguration while running loses no batch.
#include <gtest/gtest.h>

#include <chrono>
#include <numeric>
#include <thread>

#include "engine/clock/SteadyClock.h"
#include "engine/config/ConfigError.h"
#include "engine/device/emulated/EmulatedDevice.h"
#include "tests/engine/FaultyDevice.h"
#include "tests/engine/RecordedRun.h"
#include "tests/support/Eventually.h"

namespace pinscope {
namespace {

using namespace std::chrono_literals;
using test::batches_of;
using test::small_config;

// Runs until stopped, keeping every span.
LoaderConfig until_stopped(LoaderConfig config) {
    config.batches.reset();
    config.seconds = 60;
    return config;
}


bool contiguous_from_zero(const std::vector<std::uint64_t>& batches) {
    for (std::size_t i = 0; i < batches.size(); ++i)
        if (batches[i] != i) return false;
    return true;
}

// A configuration that runs for half a second of its own time.
LoaderConfig half_a_second(LoaderConfig config) {
    config.batches.reset();
    config.seconds = 0.5;
    return config;
}

// Starts the run and waits for its end; returns the wall-clock seconds that took.
double wall_seconds_to_end(Runner& runner, const LoaderConfig& config) {
    const TimeNs start = now_ns();
    runner.start(config);
    runner.wait();
    return static_cast<double>(now_ns() - start) / 1e9;
}

// The emulated device keeps modelled time, paced to the wall clock (docs/architecture.md): a run by
// seconds covers that much of its own time and no less of the wall clock's. How much more of the
// wall clock it takes depends on this machine (many small batches are many turns of its threads).
TEST(Runner, RunBySecondsRunsForItsLength) {
    Runner runner;
    EXPECT_GE(wall_seconds_to_end(runner, half_a_second(small_config(2, true))), 0.5);
    EXPECT_FALSE(runner.running());
    EXPECT_NEAR(runner.summary().metrics.wall_s, 0.5, 0.01);
    EXPECT_GT(runner.summary().metrics.batches, 10u);
}

// A worker's batch takes 8 s and a kernel 10 s: a run of 0.5 s that waited for either would take
// seconds more, of its own time and of the wall clock's; the bound below leaves room for a loaded
// machine, and the run has few batches, so few turns of its threads.
TEST(Runner, RunBySecondsEndsOnTimeWhateverItsBatchesWouldStillTake) {
    LoaderConfig config = half_a_second(small_config(2, true));
    config.batch_size = 8;
    config.cpu_us_per_sample = 1e6;
    config.gpu_us_per_batch = 1e7;
    Runner runner;
    EXPECT_LT(wall_seconds_to_end(runner, config), 6.0);
    EXPECT_FALSE(runner.running());
    EXPECT_NEAR(runner.summary().metrics.wall_s, 0.5, 0.01);
}

TEST(Runner, OriginIsTheRunsTimeZero) {
    std::shared_ptr<test::MemoryRecorder> recorder;
    Runner runner(test::recording_into(recorder));
    EXPECT_EQ(runner.origin(), 0);
    const TimeNs before = now_ns();
    runner.start(small_config(2, true));
    runner.wait();
    const RunRecord record = recorder->taken(runner);
    EXPECT_EQ(runner.origin(), record.origin);
    EXPECT_GE(runner.origin(), before);
    ASSERT_FALSE(record.spans.empty());
    for (const Span& span : record.spans) EXPECT_GE(span.start, runner.origin());
}

TEST(Runner, RejectsAnInvalidConfigurationBeforeStarting) {
    LoaderConfig config = small_config(0, true);
    config.prefetch_factor = 2;
    Runner runner;
    EXPECT_THROW(runner.start(config), ConfigError);
    EXPECT_FALSE(runner.running());
}

TEST(Runner, StopFreesEveryPinnedBlock) {
    const std::uint64_t locked_before = test::locked_bytes();
    const LoaderConfig config = until_stopped(small_config(4, true));
    std::shared_ptr<test::MemoryRecorder> recorder;
    Runner runner(test::recording_into(recorder));
    runner.start(config);
    ASSERT_TRUE(test::eventually([&] { return runner.summary().metrics.batches >= 10; }));
    EXPECT_TRUE(runner.running());
    EXPECT_GT(runner.summary().pinned.reserved_bytes.current, 0);
    runner.stop();
    EXPECT_FALSE(runner.running());
    const RunSummary summary = runner.summary();
    EXPECT_EQ(summary.pinned.reserved_bytes.current, 0);
    EXPECT_EQ(summary.pinned.allocated_bytes.current, 0);
    EXPECT_EQ(test::locked_bytes(), locked_before);
    // Stopping abandons the batches in flight; those computed are every batch from the first, in order.
    EXPECT_TRUE(contiguous_from_zero(batches_of(recorder->taken(runner), Stage::Compute)));
}

TEST(Runner, ReconfigureWhileRunningLosesNoBatchAndLeaksNothing) {
    const std::uint64_t locked_before = test::locked_bytes();
    const LoaderConfig config = until_stopped(small_config(4, false));
    std::shared_ptr<test::MemoryRecorder> recorder;
    Runner runner(test::recording_into(recorder));
    // Each configuration runs until it has computed batches of its own.
    const auto computes_more = [&runner](std::uint64_t more) {
        const std::uint64_t from = runner.summary().metrics.batches;
        return test::eventually([&] { return runner.summary().metrics.batches >= from + more; });
    };
    runner.start(config);
    ASSERT_TRUE(computes_more(12));

    LoaderConfig pinned = config;
    pinned.pin_memory = true;
    runner.reconfigure(pinned);
    ASSERT_TRUE(test::eventually([&] { return runner.summary().reconfigurations == 1; }));
    ASSERT_TRUE(computes_more(12));

    LoaderConfig fewer = pinned;
    fewer.num_workers = 2;
    fewer.pin_mode = PinMode::Worker;
    fewer.batch_size = 8;
    runner.reconfigure(fewer);
    ASSERT_TRUE(test::eventually([&] { return runner.summary().reconfigurations == 2; }));
    ASSERT_TRUE(computes_more(12));
    runner.stop();

    const RunRecord record = recorder->taken(runner);
    ASSERT_TRUE(record.summary.error.empty()) << record.summary.error;
    const auto computed = batches_of(record, Stage::Compute);
    EXPECT_GT(computed.size(), 30u);
    EXPECT_TRUE(contiguous_from_zero(computed));
    EXPECT_TRUE(contiguous_from_zero(batches_of(record, Stage::H2D)));
    EXPECT_EQ(record.summary.reconfigurations, 2u);
    EXPECT_EQ(record.summary.config, fewer);

    std::vector<std::string> texts;
    for (const Marker& m : record.markers) {
        texts.push_back(m.text);
        EXPECT_EQ(m.kind, MarkerKind::Reconfigured) << m.text;
    }
    ASSERT_EQ(texts.size(), 2u);
    EXPECT_NE(texts[0].find("pin_memory: off -> on"), std::string::npos) << texts[0];
    EXPECT_NE(texts[1].find("num_workers: 4 -> 2"), std::string::npos) << texts[1];
    // The second configuration's batches are 8 samples: spans after the marker say so.
    const TimeNs second_marker = record.markers[1].time;
    for (const Span& span : record.spans)
        if (span.stage == Stage::Load && span.start > second_marker) { EXPECT_EQ(span.bytes, 8u * 3 * 32 * 32 * 4); }

    EXPECT_EQ(record.summary.pinned.reserved_bytes.current, 0);
    EXPECT_EQ(test::locked_bytes(), locked_before);
}

TEST(Runner, DeviceFailureStopsCleanlyAndTheNextRunWorks) {
    const std::uint64_t locked_before = test::locked_bytes();
    std::vector<std::string> errors;
    std::shared_ptr<test::MemoryRecorder> recorder;
    RunnerOptions options = test::recording_into(recorder);
    options.make_device = [](const LoaderConfig&) {
        return std::make_unique<test::FaultyDevice>(test::FaultyDevice::Fault::CopyFails, 10);
    };
    options.messages = [&](Severity s, const std::string& text) {
        if (s == Severity::Error) errors.push_back(text);
    };
    Runner runner(options);
    runner.start(small_config(4, true, 200));
    runner.wait();
    const RunSummary failed = runner.summary();
    EXPECT_NE(failed.error.find("injected failure"), std::string::npos) << failed.error;
    ASSERT_EQ(errors.size(), 1u);
    EXPECT_NE(errors[0].find("cudaMemcpyAsync"), std::string::npos);
    // The error is marked on the timeline as an error, not as a reconfiguration or a warning.
    const RunRecord record = recorder->taken(runner);
    std::vector<std::string> error_marks;
    for (const Marker& m : record.markers)
        if (m.kind == MarkerKind::Error) error_marks.push_back(m.text);
    EXPECT_EQ(error_marks, errors);
    EXPECT_EQ(failed.pinned.reserved_bytes.current, 0);
    EXPECT_EQ(test::locked_bytes(), locked_before);

    Runner fresh;
    fresh.start(small_config(4, true, 40));
    fresh.wait();
    EXPECT_TRUE(fresh.summary().error.empty());
    EXPECT_EQ(fresh.summary().metrics.batches, 40u);
}

}  // namespace
}  // namespace pinscope
