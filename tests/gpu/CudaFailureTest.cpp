// SPDX-License-Identifier: GPL-3.0-or-later
// A CUDA call that fails stops the run cleanly: the error names the call, the device and the
// error; every pinned and device buffer and every event is freed; and the next run works. The
// pinned pool frees every block even when waiting for their copies fails.
#include "engine/device/cuda/CudaCheck.h"
#include "engine/memory/PinnedPool.h"
#include "engine/runner/Runner.h"
#include "tests/gpu/CudaTestDevice.h"

namespace pinscope {
namespace {

class CudaFailure : public ::testing::TestWithParam<const char*> {
protected:
    void SetUp() override {
        const CudaDeviceList gpus = list_cuda_devices_present();
        if (gpus.devices.empty()) GTEST_SKIP() << "no CUDA GPU here: " << gpus.why_none;
    }
    void TearDown() override { clear_cuda_failure(); }

    static LoaderConfig config() {
        LoaderConfig config;
        config.device = "cuda:0";
        config.batch_size = 16;
        config.num_workers = 2;
        config.gpu_us_per_batch = 200;
        config.batches = 150;
        config.seconds.reset();
        return config;
    }

    static RunSummary run(const LoaderConfig& config) {
        Runner runner;
        runner.start(config);
        runner.wait();
        return runner.summary();
    }

    static std::size_t device_free_bytes() {
        std::size_t free = 0, total = 0;
        EXPECT_EQ(cudaMemGetInfo(&free, &total), cudaSuccess);
        return free;
    }
};

TEST_P(CudaFailure, StopsCleanlyFreesEverythingAndTheNextRunWorks) {
    const char* call = GetParam();
    LoaderConfig base = config();
    base.pin_mode = std::string(call) == "cudaHostRegister" ? PinMode::Register : PinMode::Pool;
    // Whether a non_blocking run ever waits on an event depends on how far the GPU is ahead (on the
    // H100 it often is not: the failure then waited for the next run); a blocking copy waits on
    // its own event every batch.
    base.non_blocking = std::string(call) != "cudaEventSynchronize";
    ASSERT_EQ(run(base).error, "");  // warm: the context and its allocations exist before the baseline
    const std::size_t free_before = device_free_bytes();

    inject_cuda_failure(call, 1);
    const RunSummary failed = run(base);
    EXPECT_NE(failed.error.find(std::string(call) + " failed on cuda:0"), std::string::npos) << failed.error;
    EXPECT_NE(failed.error.find("cudaErrorLaunchFailure"), std::string::npos) << failed.error;
    EXPECT_LT(failed.metrics.batches, 150u);
    EXPECT_EQ(cuda_pinned_bytes_live(), 0u) << "pinned memory left behind after " << call << " failed";
    EXPECT_EQ(cuda_op_events_live(), 0u) << "events left behind after " << call << " failed";
    EXPECT_GE(device_free_bytes() + (4u << 20), free_before) << "device memory left behind after " << call << " failed";

    const RunSummary next = run(base);
    EXPECT_EQ(next.error, "");
    EXPECT_EQ(next.metrics.batches, 150u);
}

INSTANTIATE_TEST_SUITE_P(Calls, CudaFailure,
                         ::testing::Values("cudaMemcpyAsync", "cudaHostAlloc", "cudaLaunchCooperativeKernel",
                                           "cudaEventQuery", "cudaHostRegister", "cudaEventRecord",
                                           "cudaStreamWaitEvent", "cudaEventSynchronize"));

class CudaPoolFailure : public test::CudaDeviceTest {
protected:
    void TearDown() override { clear_cuda_failure(); }
};

TEST_F(CudaPoolFailure, ReleaseAllFreesEveryBlockWhenWaitingForTheirCopiesFails) {
    constexpr std::size_t kBytes = 16 << 20;
    device->prepare(kBytes);
    std::atomic<bool> stop{false};
    {
        PinnedPool pool(*device, std::uint64_t{1} << 30);
        for (std::uint64_t batch = 0; batch < 2; ++batch) {
            std::optional<PinnedBlock> block = pool.allocate(kBytes, stop);
            ASSERT_TRUE(block);
            const OpId copy = device->copy_to_device({block->ptr, kBytes, true}, batch);
            device->launch_compute(copy, batch, 100000);  // 100 ms, so the copy behind it waits
            pool.release(*block, copy);
        }
        ASSERT_TRUE(pool.allocate(kBytes, stop)) << "held by a batch: freed with a warning";
        EXPECT_GT(cuda_pinned_bytes_live(), 0u);

        inject_cuda_failure("cudaEventSynchronize", 0);
        EXPECT_THROW(pool.release_all(), DeviceError);
        EXPECT_EQ(cuda_pinned_bytes_live(), 0u) << "blocks kept after the wait failed";
        const PoolStats stats = pool.stats();
        EXPECT_EQ(stats.reserved_bytes.current, 0);
        EXPECT_EQ(stats.allocated_bytes.current, 0);
    }
    device->synchronize();
}

}  // namespace
}  // namespace pinscope
