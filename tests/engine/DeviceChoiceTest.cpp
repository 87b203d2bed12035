// SPDX-License-Identifier: GPL-3.0-or-later
// A device name is parsed once, into what everything else asks: auto, emulated with its profile,
// or cuda with its ordinal; anything else is no device.
#include <gtest/gtest.h>

#include "engine/config/DeviceChoice.h"
#include "engine/config/LoaderConfig.h"

namespace pinscope {
namespace {

TEST(DeviceChoice, EachFormParsesToItsKindOrdinalAndProfile) {
    EXPECT_EQ(parse_device("auto")->kind, DeviceKind::Auto);
    const auto emulated = parse_device("emulated");
    ASSERT_TRUE(emulated);
    EXPECT_EQ(emulated->kind, DeviceKind::Emulated);
    EXPECT_EQ(emulated->profile, "");
    const auto profile = parse_device("emulated:/tmp/my:profile.json");
    ASSERT_TRUE(profile);
    EXPECT_EQ(profile->profile, "/tmp/my:profile.json");
    EXPECT_EQ(parse_device("cuda")->cuda_ordinal, 0);
    const auto third = parse_device("cuda:3");
    ASSERT_TRUE(third);
    EXPECT_EQ(third->kind, DeviceKind::Cuda);
    EXPECT_EQ(third->cuda_ordinal, 3);
    EXPECT_EQ(parse_device("cuda:63")->cuda_ordinal, kMaxCudaIndex);
}

TEST(DeviceChoice, NamesThatAreNoDeviceParseToNothing) {
    for (const char* name : {"", "Auto", "gpu", "emulated:", "emulatedx", "cuda:", "cuda:64", "cuda:-1", "cuda:1x",
                             "cuda: 1", "cudax", "cuda:99999999999999999999"})
        EXPECT_FALSE(parse_device(name)) << '"' << name << '"';
}

TEST(DeviceChoice, KindsReadAsTheyAreWritten) {
    for (const DeviceKind kind : {DeviceKind::Auto, DeviceKind::Emulated, DeviceKind::Cuda})
        EXPECT_EQ(parse_device(to_string(kind))->kind, kind);
}

TEST(DeviceChoice, AConfigurationAsksItsDeviceChoice) {
    LoaderConfig config;
    config.device = "cuda:2";
    EXPECT_TRUE(config.is_cuda());
    EXPECT_EQ(config.device_choice().cuda_ordinal, 2);
    config.device = "emulated:h100-pcie5";
    EXPECT_FALSE(config.is_cuda());
    EXPECT_EQ(config.device_choice().profile, "h100-pcie5");
}

}  // namespace
}  // namespace pinscope
