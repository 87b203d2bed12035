// SPDX-License-Identifier: GPL-3.0-or-later
// Where the copy is queued, on a real GPU: on the compute stream (x.to("cuda") in a plain loop)
// a blocking copy holds the host until the kernel queued before it has ended; on a side stream it
// waits only for itself, while that kernel still runs.
#include <map>

#include "engine/clock/SteadyClock.h"
#include "tests/engine/RecordedRun.h"
#include "tests/gpu/CudaTestDevice.h"

namespace pinscope {
namespace {

using test::CudaDeviceTest;
using test::fill_random;

constexpr double kKernelUs = 50'000;  // long beside a 1 MiB copy (tens of microseconds)

class CudaCopyStream : public CudaDeviceTest {
protected:
    TimeNs tolerance() const { return device->clock_uncertainty_ns(); }
};

struct BlockingCopy {
    TimeNs issued = 0;    // host time the copy was issued
    TimeNs returned = 0;  // host time wait() on the copy returned: the end of non_blocking=False
    CompletedOp kernel;   // the kernel queued before the copy
    CompletedOp copy;
};

// A kernel of kKernelUs, then a blocking copy of the next batch on `stream`.
BlockingCopy copy_behind_a_kernel(CudaDevice& device, CopyStream stream, void* host, std::size_t bytes) {
    device.set_copy_stream(stream);
    const OpId kernel = device.launch_compute(device.copy_to_device({host, bytes, true}, 0), 0, kKernelUs);
    BlockingCopy result;
    result.issued = now_ns();
    const OpId copy = device.copy_to_device({host, bytes, true}, 1);
    device.wait(copy);
    result.returned = now_ns();
    device.launch_compute(copy, 1, 0);
    device.synchronize();
    std::vector<CompletedOp> done;
    device.collect_completed(done);
    for (const CompletedOp& op : done) {
        if (op.id == kernel) result.kernel = op;
        if (op.id == copy) result.copy = op;
    }
    EXPECT_EQ(result.kernel.id, kernel);
    EXPECT_EQ(result.copy.id, copy);
    return result;
}

TEST_F(CudaCopyStream, ABlockingCopyOnTheComputeStreamHoldsTheHostForTheQueuedKernel) {
    constexpr std::size_t kBytes = 1 << 20;
    device->prepare(kBytes);
    PinnedAllocation host = device->allocate_pinned(kBytes);
    fill_random(host.ptr, kBytes);
    const TimeNs tol = tolerance();

    const BlockingCopy compute = copy_behind_a_kernel(*device, CopyStream::Compute, host.ptr, kBytes);
    EXPECT_GE(compute.kernel.end - compute.kernel.start, duration_ns(kKernelUs * 1e3));
    EXPECT_GE(compute.copy.start, compute.kernel.end - tol) << "the copy waited for the kernel before it";
    EXPECT_GE(compute.returned, compute.kernel.end - tol) << "the host was held until the kernel had ended";
    RecordProperty("compute_held_us", std::to_string((compute.returned - compute.issued) / 1000));

    const BlockingCopy side = copy_behind_a_kernel(*device, CopyStream::Side, host.ptr, kBytes);
    EXPECT_LT(side.copy.end, side.kernel.end) << "the copy ran beside the kernel";
    EXPECT_LT(side.returned, side.kernel.end - duration_ns(kKernelUs * 1e3 / 2))
        << "the host came back while the kernel still ran";
    RecordProperty("side_held_us", std::to_string((side.returned - side.issued) / 1000));
    device->free_pinned(host);
}

// The same through the pipeline, as `pinscope-cli run --device cuda --non-blocking off` runs it:
// each blocking copy's Sync span on the consumer's lane reaches past the end of the kernel before it.
TEST(CudaCopyStreamPipeline, SyncSpansCoverTheKernelBeforeABlockingCopyOnlyOnTheComputeStream) {
    const CudaDeviceList gpus = list_cuda_devices_present();
    if (gpus.devices.empty()) GTEST_SKIP() << "no CUDA GPU here: " << gpus.why_none;
    constexpr std::uint64_t kBatches = 16;
    constexpr double kPipelineKernelUs = 5000;
    for (const CopyStream stream : {CopyStream::Compute, CopyStream::Side}) {
        LoaderConfig config = test::small_config(2, true, kBatches);
        config.device = "cuda";
        config.host.reset();
        config.gpu_us_per_batch = kPipelineKernelUs;
        config.non_blocking = false;
        config.copy_stream = stream;
        const RunRecord record = test::run_to_end(config);
        ASSERT_TRUE(record.summary.error.empty()) << record.summary.error;
        std::map<std::uint64_t, Span> kernels, syncs;
        for (const Span& span : record.spans) {
            if (span.stage == Stage::Compute) kernels[span.batch] = span;
            if (span.stage == Stage::Sync && span.bytes == config.batch_bytes()) syncs[span.batch] = span;
        }
        ASSERT_EQ(kernels.size(), kBatches);
        ASSERT_EQ(syncs.size(), kBatches);
        // GPU times come through the clock's reference bracket: microseconds of uncertainty.
        constexpr TimeNs kClockSlack = 100'000;
        int past_the_kernel = 0;
        for (std::uint64_t batch = 1; batch < kBatches; ++batch)
            if (syncs.at(batch).end >= kernels.at(batch - 1).end - kClockSlack) ++past_the_kernel;
        RecordProperty(to_string(stream) + "_syncs_past_the_kernel", std::to_string(past_the_kernel));
        if (stream == CopyStream::Compute) {
            EXPECT_EQ(past_the_kernel, static_cast<int>(kBatches) - 1) << to_string(stream);
        } else {
            EXPECT_LT(past_the_kernel, static_cast<int>(kBatches) / 2) << to_string(stream);
        }
    }
}

}  // namespace
}  // namespace pinscope
