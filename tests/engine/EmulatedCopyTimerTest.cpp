// SPDX-License-Identifier: GPL-3.0-or-later
// The emulated copy timer: times follow the profile's curves for every direction and memory.
#include <gtest/gtest.h>

#include "engine/device/HardwareProfile.h"
#include "engine/device/emulated/EmulatedCopyTimer.h"
#include "engine/text/Units.h"

namespace pinscope {
namespace {

TEST(EmulatedCopyTimer, PredictsTimeFromTheProfile) {
    const HardwareProfile profile = load_profile(kDefaultProfile);
    EmulatedCopyTimer timer(profile);
    // 16 MiB: the H200 profile's 54.2 (H2D pinned), 17.8 (H2D pageable), 54.6, 18.3 GB/s.
    EXPECT_NEAR(timer.time_copies(CopyDirection::H2D, HostMemoryKind::Pinned, 16 << 20, 4, true),
                4 * 16 * kMiB / 54.2e9, 1e-12);
    EXPECT_NEAR(timer.time_copies(CopyDirection::H2D, HostMemoryKind::Pageable, 16 << 20, 1, true),
                16 * kMiB / 17.8e9, 1e-12);
    EXPECT_NEAR(timer.time_copies(CopyDirection::D2H, HostMemoryKind::Pinned, 16 << 20, 2, false),
                2 * 16 * kMiB / 54.6e9, 1e-12);
    EXPECT_NEAR(timer.time_copies(CopyDirection::D2H, HostMemoryKind::Pageable, 16 << 20, 3, true),
                3 * 16 * kMiB / 18.3e9, 1e-12);
    // Between measured sizes: the curve's log-size interpolation (4 MiB is halfway from 1 to 16 MiB).
    EXPECT_NEAR(timer.gb_per_s(CopyDirection::H2D, HostMemoryKind::Pinned, 4 * kMiB), (43.0 + 54.2) / 2, 1e-9);
    // No write-combined curves in the file: they are the pinned ones.
    EXPECT_DOUBLE_EQ(timer.gb_per_s(CopyDirection::D2H, HostMemoryKind::WriteCombined, kMiB), 44.5);
    EXPECT_EQ(timer.link_name(), "PCIe Gen5 x16");
    EXPECT_DOUBLE_EQ(timer.link_gb_per_s(), 63.0);
    EXPECT_EQ(timer.info().kind, DeviceKind::Emulated);
    EXPECT_EQ(timer.info().profile, "h200-pcie5");
}

TEST(EmulatedCopyTimer, UsesWriteCombinedCurvesWhenGiven) {
    HardwareProfile profile = load_profile(kDefaultProfile);
    profile.h2d_write_combined_gb_per_s = SizeCurve{{kMiB}, {40}};
    profile.d2h_write_combined_gb_per_s = SizeCurve{};  // built in code without one: pinned
    EmulatedCopyTimer timer(profile);
    EXPECT_NEAR(timer.time_copies(CopyDirection::H2D, HostMemoryKind::WriteCombined, 1 << 20, 10, true),
                10 * kMiB / 40e9, 1e-12);
    EXPECT_DOUBLE_EQ(timer.gb_per_s(CopyDirection::D2H, HostMemoryKind::WriteCombined, kMiB), 44.5);
}

}  // namespace
}  // namespace pinscope
