// A CUDA call that fails stops the run cleanly: the error names the call, the device and the
// error; every pinned and device buffer is freed; and the next run works.
#include "device/cuda/CudaCheck.h"
#include "gpu/CudaTestDevice.h"
#include "runner/Runner.h"

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
    ASSERT_EQ(run(base).error, "");  // warm: the context and its allocations exist before the baseline
    const std::size_t free_before = device_free_bytes();

    inject_cuda_failure(call, 1);
    const RunSummary failed = run(base);
    EXPECT_NE(failed.error.find(std::string(call) + " failed on cuda:0"), std::string::npos) << failed.error;
    EXPECT_NE(failed.error.find("cudaErrorLaunchFailure"), std::string::npos) << failed.error;
    EXPECT_LT(failed.metrics.batches, 150u);
    EXPECT_EQ(cuda_pinned_bytes_live(), 0u) << "pinned memory left behind after " << call << " failed";
    EXPECT_GE(device_free_bytes() + (4u << 20), free_before) << "device memory left behind after " << call << " failed";

    const RunSummary next = run(base);
    EXPECT_EQ(next.error, "");
    EXPECT_EQ(next.metrics.batches, 150u);
}

INSTANTIATE_TEST_SUITE_P(Calls, CudaFailure,
                         ::testing::Values("cudaMemcpyAsync", "cudaHostAlloc", "cudaLaunchCooperativeKernel",
                                           "cudaEventQuery", "cudaHostRegister"));

}  // namespace
}  // namespace pinscope
