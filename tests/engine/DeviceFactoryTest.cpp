// SPDX-License-Identifier: GPL-3.0-or-later
// Which device a configuration gets: "auto" is the GPU when there is one and the emulated device,
// with the reason, when there is not; asking for CUDA where there is none fails with the reason.
#include <gtest/gtest.h>

#include "engine/device/factory/DeviceFactory.h"

namespace pinscope {
namespace {

TEST(DeviceFactory, AutoPicksTheGpuOrSaysWhyItFellBack) {
    const CudaDeviceList gpus = list_cuda_devices();
    const ResolvedDevice resolved = resolve_device("auto");
    if (gpus.devices.empty()) {
        EXPECT_EQ(resolved.device, "emulated");
        EXPECT_NE(resolved.note.find("no CUDA GPU (" + gpus.why_none + ")"), std::string::npos) << resolved.note;
        EXPECT_NE(resolved.note.find("using the emulated device"), std::string::npos) << resolved.note;
    } else {
        EXPECT_EQ(resolved.device, "cuda:0");
        EXPECT_EQ(resolved.note, "");
    }
}

TEST(DeviceFactory, NamedDevicesAreKeptAsTheyAre) {
    EXPECT_EQ(resolve_device("emulated:h200-pcie5").device, "emulated:h200-pcie5");
    EXPECT_EQ(resolve_device("cuda:3").device, "cuda:3");
    EXPECT_EQ(resolve_device("cuda:3").note, "");
}

TEST(DeviceFactory, CudaWithoutAGpuFailsWithTheReason) {
    const CudaDeviceList gpus = list_cuda_devices();
    if (!gpus.devices.empty()) GTEST_SKIP() << "this machine has a CUDA GPU";
    EXPECT_FALSE(gpus.why_none.empty());
    LoaderConfig config;
    config.device = "cuda";
    try {
        (void)open_device(config);
        FAIL() << "opening cuda without a GPU should fail";
    } catch (const DeviceError& e) {
        EXPECT_NE(std::string(e.what()).find("cuda"), std::string::npos) << e.what();
    }
}

TEST(DeviceFactory, AMissingGpuOrdinalNamesHowManyThereAre) {
    LoaderConfig config;
    config.device = "cuda:63";
    try {
        (void)open_device(config);
        FAIL() << "cuda:63 should not exist";
    } catch (const DeviceError& e) {
        EXPECT_NE(std::string(e.what()).find("cuda:63"), std::string::npos) << e.what();
    }
}

}  // namespace
}  // namespace pinscope
