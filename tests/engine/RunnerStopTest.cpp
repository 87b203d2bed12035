// SPDX-License-Identifier: GPL-3.0-or-later
// Stop is prompt whatever the run is waiting on (a 10 s kernel, 16 s of host work per batch, device
// calls that cost 10 s each), abandons the batches in flight, and frees every pinned block; a kernel
// cut short ends at the stop. A failure ends the run as promptly; a device that fails to open on
// reconfigure, or that breaks in the middle of a run, ends the run with an error and nothing held.
#include <gtest/gtest.h>

#include <chrono>
#include <functional>
#include <thread>

#include "engine/clock/SteadyClock.h"
#include "tests/engine/FaultyDevice.h"
#include "tests/engine/RecordedRun.h"
#include "tests/support/Eventually.h"

namespace pinscope {
namespace {

using test::eventually;

using namespace std::chrono_literals;
using test::FaultyDevice;
using test::small_config;

constexpr double kTenSecondsUs = 10e6;
constexpr double kOneSecondUs = 1e6;  // the most a sample may cost: batches of 16 take 16 s
// Generous for a loaded machine, and still half of what a stop that waited would take.
constexpr TimeNs kPrompt = 5'000'000'000;

bool has_span(const RunRecord& record, Stage stage) {
    for (const Span& span : record.spans)
        if (span.stage == stage) return true;
    return false;
}

struct Scenario {
    const char* name;
    std::function<void(LoaderConfig&)> shape;
    std::function<bool(const Runner&, const test::MemoryRecorder&)> inside;  // the run is in its long wait
    std::function<std::unique_ptr<Device>(const LoaderConfig&)> make_device;
};
void PrintTo(const Scenario& scenario, std::ostream* out) { *out << scenario.name; }

class StopIsPrompt : public ::testing::TestWithParam<Scenario> {};

TEST_P(StopIsPrompt, EndsWithinSecondsAndFreesEveryPinnedBlock) {
    const std::uint64_t locked_before = test::locked_bytes();
    LoaderConfig config = small_config(2, true);
    config.batches.reset();
    config.seconds = 600;
    GetParam().shape(config);
    std::vector<std::string> problems;
    std::shared_ptr<test::MemoryRecorder> recorder;
    RunnerOptions options = test::recording_into(recorder);
    options.make_device = GetParam().make_device;
    options.messages = [&](Severity severity, const std::string& text) {
        if (severity == Severity::Error || text.find("still held") != std::string::npos) problems.push_back(text);
    };
    Runner runner(options);
    runner.start(config);
    ASSERT_TRUE(eventually([&] { return GetParam().inside(runner, *recorder); })) << "the run never got to its long wait";

    const TimeNs stop_asked = now_ns();
    runner.stop();
    const TimeNs stopped = now_ns();
    EXPECT_LT(stopped - stop_asked, kPrompt) << "stop took " << static_cast<double>(stopped - stop_asked) / 1e9 << " s";
    EXPECT_FALSE(runner.running());

    const RunRecord record = recorder->taken(runner);
    EXPECT_EQ(record.summary.error, "");
    EXPECT_EQ(record.summary.pinned.reserved_bytes.current, 0);
    EXPECT_EQ(record.summary.pinned.allocated_bytes.current, 0);
    EXPECT_EQ(test::locked_bytes(), locked_before);
    EXPECT_TRUE(problems.empty()) << problems.front();  // no block left behind in a batch, no failure
    for (const Span& span : record.spans) {
        EXPECT_LE(span.end, stopped) << to_string(span.stage) << " of batch " << span.batch << " ends after the stop";
        if (span.stage == Stage::Compute) {
            EXPECT_LT(span.duration(), 9'000'000'000) << "a kernel that was not cut short";
        }
    }
}

std::unique_ptr<Device> device_with_ten_second_calls(const LoaderConfig&) {
    HardwareProfile profile = load_profile(kDefaultProfile);
    profile.copy_call_us = kTenSecondsUs;  // each copy and launch holds its caller for 10 s
    return std::make_unique<EmulatedDevice>(std::move(profile), HostMode::Modeled);
}

INSTANTIATE_TEST_SUITE_P(
    Waits, StopIsPrompt,
    ::testing::Values(
        Scenario{"TenSecondKernel", [](LoaderConfig& c) { c.gpu_us_per_batch = kTenSecondsUs; },
                 [](const Runner&, const test::MemoryRecorder& m) { return has_span(m.snapshot(), Stage::H2D); }, nullptr},
        Scenario{"SixteenSecondsOfWorkPerBatchInWorkers",
                 [](LoaderConfig& c) {
                     c.batch_size = 16;
                     c.cpu_us_per_sample = kOneSecondUs;
                     c.pin_mode = PinMode::Worker;  // a worker holds a pinned block while it loads
                 },
                 [](const Runner& r, const test::MemoryRecorder&) { return r.summary().pinned.allocated_bytes.current > 0; }, nullptr},
        Scenario{"SixteenSecondsOfWorkPerBatchWithoutWorkers",
                 [](LoaderConfig& c) {
                     c.num_workers = 0;
                     c.batch_size = 16;
                     c.cpu_us_per_sample = kOneSecondUs;
                 },
                 [](const Runner& r, const test::MemoryRecorder&) { return r.running(); }, nullptr},
        Scenario{"RealHostWorkOfSixteenSecondsPerBatch",
                 [](LoaderConfig& c) {
                     c.host = HostMode::Real;
                     c.batch_size = 16;
                     c.cpu_us_per_sample = kOneSecondUs;
                 },
                 [](const Runner& r, const test::MemoryRecorder&) { return r.running(); }, nullptr},
        Scenario{"DeviceCallsOfTenSeconds", [](LoaderConfig&) {},
                 [](const Runner&, const test::MemoryRecorder& m) { return has_span(m.snapshot(), Stage::Wait); }, device_with_ten_second_calls}),
    [](const ::testing::TestParamInfo<Scenario>& param) { return std::string(param.param.name); });

TEST(RunLength, EndsAtItsDeadlineAndCutsTheKernelShort) {
    const std::uint64_t locked_before = test::locked_bytes();
    LoaderConfig config = small_config(2, true);
    config.batches.reset();
    config.seconds = 1;
    config.gpu_us_per_batch = kTenSecondsUs;
    std::shared_ptr<test::MemoryRecorder> recorder;
    Runner runner(test::recording_into(recorder));
    const TimeNs start = now_ns();
    runner.start(config);
    runner.wait();
    EXPECT_LT(now_ns() - start, kPrompt);
    const RunRecord record = recorder->taken(runner);
    EXPECT_EQ(record.summary.error, "");
    EXPECT_EQ(record.summary.pinned.reserved_bytes.current, 0);
    EXPECT_EQ(test::locked_bytes(), locked_before);
    ASSERT_TRUE(has_span(record, Stage::Compute)) << "the first kernel ran until the deadline";
    for (const Span& span : record.spans)
        if (span.stage == Stage::Compute) {
            EXPECT_LE(span.end, record.summary.metrics.end);
        }
}

TEST(RunnerFaults, AFailureEndsTheRunAtOnceWithATenSecondKernelInFlight) {
    const std::uint64_t locked_before = test::locked_bytes();
    RunnerOptions options;
    options.make_device = [](const LoaderConfig&) {
        return std::make_unique<FaultyDevice>(FaultyDevice::Fault::CopyFails, 2);  // behind the first kernel
    };
    LoaderConfig config = small_config(2, true);
    config.batches.reset();
    config.seconds = 600;
    config.gpu_us_per_batch = kTenSecondsUs;
    Runner runner(options);
    const TimeNs start = now_ns();
    runner.start(config);
    runner.wait();
    EXPECT_LT(now_ns() - start, kPrompt) << "the failure waited for the kernel in flight";
    runner.stop();
    const RunSummary summary = runner.summary();
    EXPECT_NE(summary.error.find("injected failure"), std::string::npos) << summary.error;
    EXPECT_EQ(summary.pinned.reserved_bytes.current, 0);
    EXPECT_EQ(test::locked_bytes(), locked_before);
}

TEST(RunnerFaults, ReconfiguringOntoADeviceThatFailsToOpenEndsTheRunCleanly) {
    const std::uint64_t locked_before = test::locked_bytes();
    std::vector<std::string> errors;
    RunnerOptions options;
    options.make_device = [](const LoaderConfig& config) -> std::unique_ptr<Device> {
        if (config.device != "emulated") throw DeviceError("device " + config.device + ": injected failure to open");
        return std::make_unique<EmulatedDevice>(load_profile(kDefaultProfile), HostMode::Modeled);
    };
    options.messages = [&](Severity severity, const std::string& text) {
        if (severity == Severity::Error) errors.push_back(text);
    };
    LoaderConfig config = small_config(2, true);
    config.batches.reset();
    config.seconds = 600;
    Runner runner(options);
    runner.start(config);
    ASSERT_TRUE(eventually([&] { return runner.summary().pinned.reserved_bytes.current > 0; }));

    LoaderConfig elsewhere = config;
    elsewhere.device = "emulated:h100-pcie5";
    runner.reconfigure(elsewhere);
    runner.wait();
    runner.stop();
    const RunSummary summary = runner.summary();
    EXPECT_NE(summary.error.find("injected failure to open"), std::string::npos) << summary.error;
    ASSERT_EQ(errors.size(), 1u);
    EXPECT_EQ(summary.pinned.reserved_bytes.current, 0);
    EXPECT_EQ(summary.pinned.allocated_bytes.current, 0);
    EXPECT_EQ(test::locked_bytes(), locked_before);
}

TEST(RunnerFaults, ADeviceThatBreaksMidRunStillHasEveryPinnedBlockFreed) {
    const std::uint64_t locked_before = test::locked_bytes();
    std::vector<std::string> errors;
    RunnerOptions options;
    options.make_device = [](const LoaderConfig&) {
        return std::make_unique<FaultyDevice>(FaultyDevice::Fault::DeviceBreaks, 10);
    };
    options.messages = [&](Severity severity, const std::string& text) {
        if (severity == Severity::Error) errors.push_back(text);
    };
    Runner runner(options);
    runner.start(small_config(4, true, 200));
    runner.wait();
    runner.stop();
    const RunSummary summary = runner.summary();
    // The failing copy, or a call on another thread that found the device broken first.
    EXPECT_NE(summary.error.find("on emulated test device"), std::string::npos) << summary.error;
    EXPECT_EQ(summary.pinned.reserved_bytes.current, 0);
    EXPECT_EQ(summary.pinned.allocated_bytes.current, 0);
    EXPECT_EQ(summary.pinned.segment.current, 0);
    EXPECT_EQ(test::locked_bytes(), locked_before);
    // The run's failure, and freeing's own failure said once, not once per block.
    int freeing = 0;
    for (const std::string& text : errors) freeing += text.find("freeing pinned memory failed") != std::string::npos;
    EXPECT_EQ(freeing, 1);
}

}  // namespace
}  // namespace pinscope
