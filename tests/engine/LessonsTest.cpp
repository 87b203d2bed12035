// SPDX-License-Identifier: GPL-3.0-or-later
// The lessons pinscope teaches, on the default profile (the H200 machine) with the host modelled,
// so they hold on any machine: such a run keeps modelled time (engine/clock/RunClock.h), so its
// figures are the model's whatever this machine's load; the figures in docs/benchmarks.md say how
// large the effects are.
#include <gtest/gtest.h>

#include <string>

#include "engine/device/HardwareProfile.h"
#include "engine/runner/Runner.h"
#include "tests/engine/ImagenetBatches.h"

namespace pinscope {
namespace {

using test::imagenet_batches;

// Throughput over the last 1.5 s of the run, once the pinned pool has warmed up (its first
// allocations cost ~18 ms each, as cudaHostAlloc does on the profiled machine).
struct Steady {
    double batches_per_s = 0;
};

Steady steady_batches_per_s(const LoaderConfig& config) {
    RunnerOptions options;
    options.window_s = 1.5;
    options.pace = RunClock::Pace::Unpaced;
    Runner runner(options);
    runner.start(config);
    runner.wait();
    const RunSummary summary = runner.summary();
    EXPECT_TRUE(summary.error.empty()) << summary.error;
    EXPECT_EQ(summary.model_lag, 0.0) << "a run in modelled time never falls behind the model";
    return {runner.window_metrics().batches_per_s};
}

TEST(Lessons, TransferBoundPinningBeatsPageableAndPinningInWorkersBeatsBoth) {
    // No CPU work and a 2 ms kernel: the copy decides. A pageable copy stages through the driver
    // and cannot overlap the kernel; the pin thread's extra memcpy caps pinned at ~400 batches/s;
    // workers that collate straight into pinned blocks leave only the kernel (~500/s).
    LoaderConfig pageable = imagenet_batches(4, false, 0, 2000);
    LoaderConfig pinned = imagenet_batches(4, true, 0, 2000);
    LoaderConfig in_worker = pinned;
    in_worker.pin_mode = PinMode::Worker;
    const Steady pageable_run = steady_batches_per_s(pageable);
    const Steady pinned_run = steady_batches_per_s(pinned);
    const Steady worker_run = steady_batches_per_s(in_worker);
    const double pageable_rate = pageable_run.batches_per_s;
    const double pinned_rate = pinned_run.batches_per_s;
    const double worker_rate = worker_run.batches_per_s;
    RecordProperty("pageable", std::to_string(pageable_rate));
    RecordProperty("pinned", std::to_string(pinned_rate));
    RecordProperty("pin_in_worker", std::to_string(worker_rate));
    EXPECT_GT(pinned_rate, 1.25 * pageable_rate) << pinned_rate << " vs " << pageable_rate;
    EXPECT_GT(worker_rate, 1.1 * pinned_rate) << worker_rate << " vs " << pinned_rate;
    EXPECT_LT(worker_rate, 1000.0 / 2.0 * 1.02) << "no faster than the kernel allows";
}

TEST(Lessons, WorkersBeatNoWorkersWhenLoaderBound) {
    // 300 us of CPU work per sample: 19 ms of loading per batch against a 10 ms kernel.
    const Steady without_run = steady_batches_per_s(imagenet_batches(0, true, 300, 10000));
    const Steady with_run = steady_batches_per_s(imagenet_batches(4, true, 300, 10000));
    const double without = without_run.batches_per_s;
    const double with = with_run.batches_per_s;
    RecordProperty("workers_0", std::to_string(without));
    RecordProperty("workers_4", std::to_string(with));
    EXPECT_GT(with, 1.8 * without) << with << " vs " << without;
}

TEST(Lessons, PinMemoryHardlyMattersWhenComputeBound) {
    // A 40 ms kernel dwarfs a 2 ms pageable copy: pinning changes throughput by a few percent.
    const Steady pageable_run = steady_batches_per_s(imagenet_batches(4, false, 50, 40000));
    const Steady pinned_run = steady_batches_per_s(imagenet_batches(4, true, 50, 40000));
    const double pageable = pageable_run.batches_per_s;
    const double pinned = pinned_run.batches_per_s;
    RecordProperty("pageable", std::to_string(pageable));
    RecordProperty("pinned", std::to_string(pinned));
    EXPECT_NEAR(pinned / pageable, 1.0, 0.1) << pinned << " vs " << pageable;
}

TEST(Lessons, OnTheComputeStreamTheCopyRunsInSeriesWithTheKernels) {
    // Workers collate straight into pinned blocks, so the GPU sets the pace, and the copies block
    // (non_blocking off). On a side stream each copy runs beside the kernel before it: the kernel's
    // limit. On the compute stream, where x.to("cuda") puts it in a plain loop, each copy waits for
    // the kernel before it: one copy plus one kernel per batch, as the profile times them.
    LoaderConfig side = imagenet_batches(4, true, 0, 2000);
    side.pin_mode = PinMode::Worker;
    side.non_blocking = false;
    LoaderConfig compute = side;
    compute.copy_stream = CopyStream::Compute;
    const Steady side_run = steady_batches_per_s(side);
    const Steady compute_run = steady_batches_per_s(compute);
    const HardwareProfile profile = load_profile(kDefaultProfile);
    const auto bytes = static_cast<double>(compute.batch_bytes());
    const double copy_s = bytes / profile.h2d_bytes_per_s(bytes, true);
    const double kernel_s = bytes / (profile.device_read_gb_per_s * 1e9) + compute.gpu_us_per_batch * 1e-6;
    RecordProperty("side", std::to_string(side_run.batches_per_s));
    RecordProperty("compute", std::to_string(compute_run.batches_per_s));
    RecordProperty("model_compute", std::to_string(1 / (copy_s + kernel_s)));
    // In series the copy and the kernel set a ceiling; the host's own calls between them leave
    // small gaps on the GPU.
    EXPECT_LT(compute_run.batches_per_s * (copy_s + kernel_s), 1.01) << compute_run.batches_per_s;
    EXPECT_GT(compute_run.batches_per_s * (copy_s + kernel_s), 0.85) << compute_run.batches_per_s;
    EXPECT_LT(side_run.batches_per_s * kernel_s, 1.02) << "no faster than the kernel allows";
    EXPECT_GT(side_run.batches_per_s, 1.2 * compute_run.batches_per_s)
        << side_run.batches_per_s << " vs " << compute_run.batches_per_s;
}

}  // namespace
}  // namespace pinscope
