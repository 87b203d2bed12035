// SPDX-License-Identifier: GPL-3.0-or-later
// pinscope-cli calibrate: without a real GPU it exits 1 saying why, and writes nothing.
#include <gtest/gtest.h>

#include <filesystem>

#include "engine/BuildConfig.h"
#include "tests/cli/CliProcess.h"

namespace pinscope::test {
namespace {

TEST(CliCalibrate, EmulatedDeviceNeedsARealGpu) {
    TempDir dir;
    const std::string out = dir.file("emulated.json");
    const CliResult result = run_cli({"calibrate", "--device", "emulated", "--out", out});
    EXPECT_EQ(result.exit_code, 1);
    EXPECT_NE(result.err.find("pinscope-cli: calibrate needs a real NVIDIA GPU"), std::string::npos) << result.err;
    EXPECT_NE(result.err.find("emulated device"), std::string::npos) << result.err;
    EXPECT_EQ(result.out, "");
    EXPECT_FALSE(std::filesystem::exists(out));
}

TEST(CliCalibrate, WithoutCudaSupportSaysSo) {
    if (PINSCOPE_HAVE_CUDA) GTEST_SKIP() << "this build has the CUDA device";
    TempDir dir;
    for (const char* device : {"cuda", "cuda:1"}) {
        const CliResult result = run_cli({"calibrate", "--device", device, "--out", dir.file("gpu.json")});
        EXPECT_EQ(result.exit_code, 1) << device;
        EXPECT_NE(result.err.find("calibrate needs a real NVIDIA GPU: " + std::string(device) +
                                  ": this build of pinscope has no CUDA support"),
                  std::string::npos)
            << result.err;
    }
    const CliResult plain = run_cli({"calibrate", "--quick"});  // the default device is cuda
    EXPECT_EQ(plain.exit_code, 1);
    EXPECT_NE(plain.err.find("no CUDA support"), std::string::npos) << plain.err;
    EXPECT_TRUE(std::filesystem::is_empty(dir.path().string()));
}

TEST(CliCalibrate, UnwritableOutFailsFirst) {
    TempDir dir;
    const std::string out = dir.file("missing/profile.json");
    const CliResult result = run_cli({"calibrate", "--device", "emulated", "--out", out});
    EXPECT_EQ(result.exit_code, 1);
    EXPECT_NE(result.err.find("--out: cannot write " + out), std::string::npos) << result.err;
}

}  // namespace
}  // namespace pinscope::test
