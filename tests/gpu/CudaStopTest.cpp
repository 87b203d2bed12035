// SPDX-License-Identifier: GPL-3.0-or-later
// A stop ends the GPU's kernel early: it watches a flag in mapped host memory, so a 10 s kernel
// ends within milliseconds of the stop, says so in its record, and a run on the GPU stops promptly
// with every pinned block and event freed.
#include <chrono>
#include <stop_token>
#include <thread>

#include "engine/clock/SteadyClock.h"
#include "engine/runner/Runner.h"
#include "tests/engine/RecordedRun.h"
#include "tests/gpu/CudaTestDevice.h"

namespace pinscope {
namespace {

using test::CudaDeviceTest;

constexpr double kTenSecondsUs = 10e6;
constexpr TimeNs kPrompt = 5'000'000'000;  // generous, and half the kernel's 10 s

class CudaStop : public CudaDeviceTest {};

TEST_F(CudaStop, AStopEndsARunningKernelAndTheKernelSaysSo) {
    constexpr std::size_t kBytes = 1 << 20;
    device->prepare(kBytes);
    std::stop_source stop;
    device->set_stop(stop.get_token());
    PinnedAllocation host = device->allocate_pinned(kBytes);
    const OpId copy = device->copy_to_device({host.ptr, kBytes, true}, 0);
    const OpId compute = device->launch_compute(copy, 0, kTenSecondsUs);
    device->wait(copy);
    const TimeNs asked = now_ns();
    stop.request_stop();
    const ConsumeRecord record = device->kernel_record(compute);
    EXPECT_LT(now_ns() - asked, kPrompt);
    EXPECT_NE(record.stopped_ns, 0u) << "the kernel did not see the stop";
    EXPECT_LT(record.exit_ns - record.spin_start_ns, static_cast<unsigned long long>(kTenSecondsUs * 1e3 / 2));

    // Kernels launched after the stop read their batch and end at once.
    const OpId copy2 = device->copy_to_device({host.ptr, kBytes, true}, 1);
    const ConsumeRecord after = device->kernel_record(device->launch_compute(copy2, 1, kTenSecondsUs));
    EXPECT_NE(after.stopped_ns, 0u);
    std::vector<CompletedOp> done;
    device->collect_completed(done);
    device->free_pinned(host);
}

TEST_F(CudaStop, AKernelWithoutAStopRunsItsTime) {
    constexpr std::size_t kBytes = 1 << 20;
    device->prepare(kBytes);
    std::stop_source stop;
    device->set_stop(stop.get_token());
    PinnedAllocation host = device->allocate_pinned(kBytes);
    const OpId copy = device->copy_to_device({host.ptr, kBytes, true}, 0);
    const ConsumeRecord record = device->kernel_record(device->launch_compute(copy, 0, 50000));
    EXPECT_EQ(record.stopped_ns, 0u);
    EXPECT_GE(record.exit_ns - record.spin_start_ns, 50'000'000u);
    std::vector<CompletedOp> done;
    device->collect_completed(done);
    device->free_pinned(host);
}

TEST(CudaRunStop, StopEndsARunWithATenSecondKernelPromptlyAndFreesEverything) {
    const CudaDeviceList gpus = list_cuda_devices_present();
    if (gpus.devices.empty()) GTEST_SKIP() << "no CUDA GPU here: " << gpus.why_none;
    LoaderConfig config;
    config.device = "cuda:0";
    config.batch_size = 16;
    config.num_workers = 2;
    config.gpu_us_per_batch = kTenSecondsUs;
    config.batches.reset();
    config.seconds = 600;
    {
        std::shared_ptr<test::MemoryRecorder> recorder;
        Runner runner(test::recording_into(recorder));
        runner.start(config);
        // Until a batch is pinned, then 1 s for its copy (under a millisecond) and the launch: the
        // first kernel is running. (Its copy's span is reported only once the kernel is done, so
        // it cannot say when the kernel started.)
        const TimeNs until = now_ns() + 20'000'000'000;
        while (runner.summary().pinned.allocated_bytes.current <= 0 && now_ns() < until)
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
        std::this_thread::sleep_for(std::chrono::seconds(1));
        const TimeNs asked = now_ns();
        runner.stop();
        EXPECT_LT(now_ns() - asked, kPrompt);
        const RunRecord record = recorder->taken(runner);
        EXPECT_EQ(record.summary.error, "");
        EXPECT_EQ(record.summary.pinned.reserved_bytes.current, 0);
        int kernels = 0;
        for (const Span& span : record.spans)
            if (span.stage == Stage::Compute) {
                ++kernels;
                EXPECT_LT(span.duration(), 9'000'000'000) << "not cut short";
            }
        EXPECT_GE(kernels, 1) << "the kernel cut short is reported";
    }
    EXPECT_EQ(cuda_pinned_bytes_live(), 0u);
    EXPECT_EQ(cuda_op_events_live(), 0u);
}

}  // namespace
}  // namespace pinscope
