// SPDX-License-Identifier: GPL-3.0-or-later
// Page-locking calls that wait for the GPU (calibrate measures which: cudaFreeHost waits for every
// copy and kernel queued before it): the emulated device makes such a call wait for its queued
// work, and the profile keeps which calls do.
#include <gtest/gtest.h>

#include <cstdint>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/clock/RunClock.h"
#include "engine/clock/RunThread.h"
#include "engine/clock/SteadyClock.h"
#include "engine/config/ConfigError.h"
#include "engine/device/HardwareProfile.h"
#include "engine/device/emulated/EmulatedDevice.h"

namespace pinscope {
namespace {

using nlohmann::json;

constexpr std::size_t kBytes = 1 << 20;
constexpr double kKernelUs = 5000;

// Modelled microseconds each page-locking call holds its caller when a 5 ms kernel was launched
// just before it.
std::vector<double> held_behind_a_kernel(const HardwareProfile& profile) {
    EmulatedDevice device(profile, HostMode::Modeled);
    RunClock clock(0, RunClock::Pace::Unpaced, true);
    const ClockScope scope(&clock);
    clock.set_modelled(true);
    std::vector<std::byte> buffer(2 * kBytes);
    void* page = reinterpret_cast<void*>((reinterpret_cast<std::uintptr_t>(buffer.data()) + 4095) & ~std::uintptr_t{4095});
    const auto held_us = [&](auto call) {
        device.launch_compute(0, 0, kKernelUs);
        const TimeNs start = now_ns();
        call();
        const double us = static_cast<double>(now_ns() - start) / 1e3;
        device.synchronize();
        return us;
    };
    PinnedAllocation allocation;
    std::vector<double> held;
    held.push_back(held_us([&] { allocation = device.allocate_pinned(kBytes); }));
    held.push_back(held_us([&] { device.free_pinned(allocation); }));
    held.push_back(held_us([&] { device.register_host(page, kBytes); }));
    held.push_back(held_us([&] { device.unregister_host(page, kBytes); }));
    clock.leave();
    return held;
}

TEST(PageLockingWaits, ACallThatWaitsForTheGpuReturnsAfterTheQueuedKernelAndOthersDoNot) {
    HardwareProfile profile = load_profile(kDefaultProfile);
    profile.waits_for_device = {};
    const std::vector<double> alone = held_behind_a_kernel(profile);
    for (const double us : alone) EXPECT_LT(us, kKernelUs / 2);  // each its own cost only

    profile.waits_for_device = {.free_host = true, .host_unregister = true};
    const std::vector<double> waiting = held_behind_a_kernel(profile);
    EXPECT_NEAR(waiting[0], alone[0], 1e-3);
    EXPECT_NEAR(waiting[2], alone[2], 1e-3);
    // The kernel's remaining time (all of it but the launch call's cost), then the call's own cost.
    const double remaining = kKernelUs - profile.copy_call_us;
    EXPECT_NEAR(waiting[1], remaining + alone[1], 1e-3);
    EXPECT_NEAR(waiting[3], remaining + alone[3], 1e-3);
}

// Thread A frees behind a 5 ms kernel (a free that waits); 1 ms later thread B allocates. Returns
// when B's allocation began and ended, in modelled microseconds.
std::pair<double, double> allocation_beside_a_waiting_free(const HardwareProfile& profile) {
    EmulatedDevice device(profile, HostMode::Modeled);
    RunClock clock(0, RunClock::Pace::Unpaced, true);
    const ClockScope scope(&clock);
    clock.set_modelled(true);
    const PinnedAllocation freed = device.allocate_pinned(kBytes);
    const TimeNs launched = now_ns();
    device.launch_compute(0, 0, kKernelUs);
    RunThread other([&] { device.free_pinned(freed); });
    sleep_until_ns(launched + 1'000'000);
    const TimeNs asked = now_ns();
    const PinnedAllocation allocated = device.allocate_pinned(kBytes);
    const TimeNs got = now_ns();
    other.join();
    device.free_pinned(allocated);
    clock.leave();
    return {static_cast<double>(asked - launched) / 1e3, static_cast<double>(got - launched) / 1e3};
}

TEST(PageLockingWaits, WhereTheDriverLocksOneCallAtATimeAnAllocationWaitsForAFreeThatWaitsForTheGpu) {
    HardwareProfile profile = load_profile(kDefaultProfile);
    const double alloc_us = profile.host_alloc_us.scaled_at(kBytes);
    const double free_us = profile.free_host_us.scaled_at(kBytes);

    profile.waits_for_device = {.free_host = true};
    const auto [asked, got] = allocation_beside_a_waiting_free(profile);
    EXPECT_NEAR(asked, 1000, 1e-3);
    EXPECT_NEAR(got, asked + alloc_us, 1e-3);  // beside it: its own cost only

    profile.waits_for_device.one_at_a_time = true;
    const auto [asked_locked, got_locked] = allocation_beside_a_waiting_free(profile);
    EXPECT_NEAR(asked_locked, 1000, 1e-3);
    EXPECT_NEAR(got_locked, kKernelUs + free_us + alloc_us, 1e-3);  // after the kernel, the free, then its own
}

TEST(PageLockingWaits, AProfileKeepsWhichCallsWaitAndWithoutThemNoneDoes) {
    json original = json::parse(to_json(load_profile(kDefaultProfile)).dump());
    original["host"].erase("waits_for_device");
    EXPECT_FALSE(profile_from_json(original).waits_for_device.any());
    EXPECT_FALSE(to_json(profile_from_json(original)).at("host").contains("waits_for_device"));

    original["host"]["waits_for_device"] = {{"host_alloc", false}, {"free_host", true}, {"host_register", false},
                                            {"host_unregister", true}, {"one_at_a_time", true}};
    const HardwareProfile profile = profile_from_json(original);
    EXPECT_EQ(profile.waits_for_device,
              (PageLockingWaits{.free_host = true, .host_unregister = true, .one_at_a_time = true}));
    EXPECT_EQ(to_json(profile), original);
}

TEST(PageLockingWaits, ANonBooleanNamesTheField) {
    json profile = to_json(load_profile(kDefaultProfile));
    profile["host"]["waits_for_device"] = {{"free_host", "yes"}};
    try {
        profile_from_json(profile);
        FAIL() << "accepted a string";
    } catch (const ConfigError& error) {
        EXPECT_EQ(error.issue().field, "profile.host.waits_for_device.free_host");
        EXPECT_EQ(error.issue().allowed, "true or false");
    }
}

}  // namespace
}  // namespace pinscope
