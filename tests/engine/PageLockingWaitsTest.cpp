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
#include "engine/memory/PageLockedMemory.h"

namespace pinscope {
namespace {

using nlohmann::json;

constexpr std::size_t kBlockBytes = 1 << 20;
constexpr double kKernelUs = 5000;

// Modelled microseconds each page-locking call holds its caller when a 5 ms kernel was launched
// just before it.
std::vector<double> held_behind_a_kernel(const HardwareProfile& profile) {
    EmulatedDevice device(profile, HostMode::Modeled);
    RunClock clock(0, RunClock::Pace::Unpaced, true);
    const ClockScope scope(&clock);
    clock.set_modelled(true);
    std::vector<std::byte> buffer(2 * kBlockBytes);
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
    held.push_back(held_us([&] { allocation = device.allocate_pinned(kBlockBytes); }));
    held.push_back(held_us([&] { device.free_pinned(allocation); }));
    held.push_back(held_us([&] { device.register_host(page, kBlockBytes); }));
    held.push_back(held_us([&] { device.unregister_host(page, kBlockBytes); }));
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
    const PinnedAllocation freed = device.allocate_pinned(kBlockBytes);
    const TimeNs launched = now_ns();
    device.launch_compute(0, 0, kKernelUs);
    RunThread other([&] { device.free_pinned(freed); });
    sleep_until_ns(launched + 1'000'000);
    const TimeNs asked = now_ns();
    const PinnedAllocation allocated = device.allocate_pinned(kBlockBytes);
    const TimeNs got = now_ns();
    other.join();
    device.free_pinned(allocated);
    clock.leave();
    return {static_cast<double>(asked - launched) / 1e3, static_cast<double>(got - launched) / 1e3};
}

TEST(PageLockingWaits, WhereTheDriverSaysSoAnAllocationWaitsWhileAFreeWaitsForTheGpu) {
    HardwareProfile profile = load_profile(kDefaultProfile);
    const double alloc_us = profile.host_alloc_us.scaled_at(kBlockBytes);

    profile.waits_for_device = {.free_host = true};
    profile.driver_lock = {};
    const auto [asked, got] = allocation_beside_a_waiting_free(profile);
    EXPECT_NEAR(asked, 1000, 1e-3);
    EXPECT_NEAR(got, asked + alloc_us, 1e-3);  // beside it: its own cost only

    profile.driver_lock.while_free_waits.host_alloc = true;
    const auto [asked_locked, got_locked] = allocation_beside_a_waiting_free(profile);
    EXPECT_NEAR(asked_locked, 1000, 1e-3);
    EXPECT_NEAR(got_locked, kKernelUs + alloc_us, 1e-3);  // once the kernel has ended, then its own cost
}

constexpr std::size_t kLongAllocBytes = 16 << 20;

enum class Holder { Allocation, Free, Register, Unregister };

// Thread A allocates kLongAllocBytes, frees them, registers or unregisters them (at the profile's
// cost, some milliseconds); 0.1 ms later thread B issues a copy and launches a kernel. Returns
// when B's copy and launch returned, in modelled microseconds from A's call.
std::pair<double, double> copy_and_launch_beside(const HardwareProfile& profile, Holder holder = Holder::Allocation) {
    EmulatedDevice device(profile, HostMode::Modeled);
    RunClock clock(0, RunClock::Pace::Unpaced, true);
    const ClockScope scope(&clock);
    clock.set_modelled(true);
    const PinnedAllocation source = device.allocate_pinned(4096);
    PinnedAllocation allocated = holder == Holder::Free ? device.allocate_pinned(kLongAllocBytes) : PinnedAllocation{};
    const PageableBuffer pageable = allocate_pageable(kLongAllocBytes);
    if (holder == Holder::Unregister) device.register_host(pageable.get(), kLongAllocBytes);
    const TimeNs asked = now_ns();
    RunThread other([&] {
        switch (holder) {
            case Holder::Allocation: allocated = device.allocate_pinned(kLongAllocBytes); break;
            case Holder::Free: device.free_pinned(allocated); break;
            case Holder::Register: device.register_host(pageable.get(), kLongAllocBytes); break;
            case Holder::Unregister: device.unregister_host(pageable.get(), kLongAllocBytes); break;
        }
    });
    sleep_until_ns(asked + 100'000);
    const OpId copy = device.copy_to_device(HostSource{source.ptr, 4096, true}, 0);
    const TimeNs copied = now_ns();
    device.launch_compute(copy, 0, 10);
    const TimeNs launched = now_ns();
    other.join();
    device.synchronize();
    if (holder == Holder::Allocation) device.free_pinned(allocated);
    if (holder == Holder::Register) device.unregister_host(pageable.get(), kLongAllocBytes);
    device.free_pinned(source);
    clock.leave();
    return {static_cast<double>(copied - asked) / 1e3, static_cast<double>(launched - asked) / 1e3};
}

TEST(PageLockingWaits, WhereTheDriverSaysSoCopiesAndLaunchesWaitWhileAnotherThreadAllocatesOrFrees) {
    HardwareProfile profile = load_profile(kDefaultProfile);
    profile.waits_for_device = {};
    profile.driver_lock = {};
    const double alloc_us = profile.host_alloc_us.scaled_at(kLongAllocBytes);
    const double call_us = profile.copy_call_us;
    ASSERT_GT(alloc_us, 500);

    const auto [copied, launched] = copy_and_launch_beside(profile);
    EXPECT_NEAR(copied, 100 + call_us, 1e-3);  // beside it: each its own call only
    EXPECT_NEAR(launched, 100 + 2 * call_us, 1e-3);

    profile.driver_lock.during_host_alloc.copies = true;
    const auto [copied_after, launched_after_copy] = copy_and_launch_beside(profile);
    EXPECT_NEAR(copied_after, alloc_us + call_us, 1e-3);  // once the allocation has returned
    EXPECT_NEAR(launched_after_copy, alloc_us + 2 * call_us, 1e-3);

    profile.driver_lock.during_host_alloc = {.launches = true};
    const auto [copied_beside, launched_after] = copy_and_launch_beside(profile);
    EXPECT_NEAR(copied_beside, 100 + call_us, 1e-3);
    EXPECT_NEAR(launched_after, alloc_us + call_us, 1e-3);

    // A free of its own holds the driver for its cost where the profile says so, not otherwise.
    const double free_us = profile.free_host_us.scaled_at(kLongAllocBytes);
    profile.driver_lock = {};
    const auto [copied_beside_free, launched_beside_free] = copy_and_launch_beside(profile, Holder::Free);
    EXPECT_NEAR(copied_beside_free, 100 + call_us, 1e-3);
    EXPECT_NEAR(launched_beside_free, 100 + 2 * call_us, 1e-3);
    profile.driver_lock.during_free_host.copies = true;
    const auto [copied_after_free, launched_after_free] = copy_and_launch_beside(profile, Holder::Free);
    EXPECT_NEAR(copied_after_free, free_us + call_us, 1e-3);
    EXPECT_NEAR(launched_after_free, free_us + 2 * call_us, 1e-3);
}

TEST(PageLockingWaits, WhereTheDriverSaysSoCopiesAndLaunchesWaitWhileAnotherThreadRegistersOrUnregisters) {
    HardwareProfile profile = load_profile(kDefaultProfile);
    profile.waits_for_device = {};
    profile.driver_lock = {};
    const double register_us = profile.host_register_us.scaled_at(kLongAllocBytes);
    const double unregister_us = profile.host_unregister_us.scaled_at(kLongAllocBytes);
    const double call_us = profile.copy_call_us;
    ASSERT_GT(unregister_us, 200);

    for (const Holder holder : {Holder::Register, Holder::Unregister}) {
        const auto [copied, launched] = copy_and_launch_beside(profile, holder);
        EXPECT_NEAR(copied, 100 + call_us, 1e-3);  // beside it: each its own call only
        EXPECT_NEAR(launched, 100 + 2 * call_us, 1e-3);
    }
    profile.driver_lock.during_host_register.launches = true;
    const auto [copied_beside, launched_after] = copy_and_launch_beside(profile, Holder::Register);
    EXPECT_NEAR(copied_beside, 100 + call_us, 1e-3);
    EXPECT_NEAR(launched_after, register_us + call_us, 1e-3);  // once the register has returned
    const auto [copied_beside_unregister, launched_beside_unregister] = copy_and_launch_beside(profile, Holder::Unregister);
    EXPECT_NEAR(copied_beside_unregister, 100 + call_us, 1e-3);
    EXPECT_NEAR(launched_beside_unregister, 100 + 2 * call_us, 1e-3);

    profile.driver_lock = {};
    profile.driver_lock.during_host_unregister.copies = true;
    const auto [copied_after, launched_after_copy] = copy_and_launch_beside(profile, Holder::Unregister);
    EXPECT_NEAR(copied_after, unregister_us + call_us, 1e-3);
    EXPECT_NEAR(launched_after_copy, unregister_us + 2 * call_us, 1e-3);
}

// Thread A unregisters behind a 5 ms kernel (an unregister that waits); 1 ms later thread B
// launches a kernel. Returns when B's launch returned, in modelled microseconds from A's kernel.
double launch_beside_a_waiting_unregister(const HardwareProfile& profile) {
    EmulatedDevice device(profile, HostMode::Modeled);
    RunClock clock(0, RunClock::Pace::Unpaced, true);
    const ClockScope scope(&clock);
    clock.set_modelled(true);
    const PageableBuffer pageable = allocate_pageable(kBlockBytes);
    device.register_host(pageable.get(), kBlockBytes);
    const TimeNs launched = now_ns();
    device.launch_compute(0, 0, kKernelUs);
    RunThread other([&] { device.unregister_host(pageable.get(), kBlockBytes); });
    sleep_until_ns(launched + 1'000'000);
    device.launch_compute(0, 0, 10);
    const TimeNs returned = now_ns();
    other.join();
    device.synchronize();
    clock.leave();
    return static_cast<double>(returned - launched) / 1e3;
}

TEST(PageLockingWaits, WhereTheDriverSaysSoALaunchWaitsWhileAnUnregisterWaitsForTheGpu) {
    HardwareProfile profile = load_profile(kDefaultProfile);
    profile.waits_for_device = {.host_unregister = true};
    profile.driver_lock = {};
    const double call_us = profile.copy_call_us;
    EXPECT_NEAR(launch_beside_a_waiting_unregister(profile), 1000 + call_us, 1e-3);  // beside it

    profile.driver_lock.while_free_waits.launches = true;  // a free's wait, not an unregister's
    EXPECT_NEAR(launch_beside_a_waiting_unregister(profile), 1000 + call_us, 1e-3);

    profile.driver_lock.while_unregister_waits.launches = true;
    // Once the first kernel has ended (the unregister's wait), then its own call.
    EXPECT_NEAR(launch_beside_a_waiting_unregister(profile), kKernelUs + call_us, 1e-3);
}

TEST(PageLockingWaits, AProfileKeepsWhichCallsWaitAndWithoutThemNoneDoes) {
    json original = json::parse(to_json(load_profile(kDefaultProfile)).dump());
    original["host"].erase("waits_for_device");
    EXPECT_FALSE(profile_from_json(original).waits_for_device.any());
    EXPECT_FALSE(to_json(profile_from_json(original)).at("host").contains("waits_for_device"));

    original["host"].erase("driver_lock");
    original["host"]["waits_for_device"] = {{"host_alloc", false}, {"free_host", true}, {"host_register", false},
                                            {"host_unregister", true}};
    const HardwareProfile profile = profile_from_json(original);
    EXPECT_EQ(profile.waits_for_device, (PageLockingWaits{.free_host = true, .host_unregister = true}));
    EXPECT_FALSE(profile.driver_lock.any());
    EXPECT_EQ(to_json(profile), original);

    json locked = original;
    locked["host"]["driver_lock"] = {
        {"during_host_alloc", {{"host_alloc", true}, {"free_host", false}, {"host_register", true},
                               {"host_unregister", false}, {"copies", true}, {"launches", false}}},
        {"during_free_host", {{"host_alloc", false}, {"free_host", false}, {"host_register", false},
                              {"host_unregister", false}, {"copies", true}, {"launches", false}}},
        {"during_host_register", {{"host_alloc", false}, {"free_host", false}, {"host_register", false},
                                  {"host_unregister", false}, {"copies", false}, {"launches", true}}},
        {"during_host_unregister", {{"host_alloc", false}, {"free_host", true}, {"host_register", false},
                                    {"host_unregister", false}, {"copies", false}, {"launches", false}}},
        {"while_free_waits", {{"host_alloc", true}, {"free_host", false}, {"host_register", false},
                              {"host_unregister", false}, {"copies", false}, {"launches", true}}},
        {"while_unregister_waits", {{"host_alloc", false}, {"free_host", false}, {"host_register", true},
                                    {"host_unregister", false}, {"copies", true}, {"launches", false}}}};
    const HardwareProfile with_lock = profile_from_json(locked);
    EXPECT_EQ(with_lock.driver_lock,
              (DriverLock{.during_host_alloc = {.host_alloc = true, .host_register = true, .copies = true},
                          .during_free_host = {.copies = true},
                          .during_host_register = {.launches = true},
                          .during_host_unregister = {.free_host = true},
                          .while_free_waits = {.host_alloc = true, .launches = true},
                          .while_unregister_waits = {.host_register = true, .copies = true}}));
    EXPECT_EQ(to_json(with_lock), locked);

    // A profile of before 2026-11-27 has only the first two sets and while_free_waits.
    json older = locked;
    for (const char* key : {"during_host_register", "during_host_unregister", "while_unregister_waits"})
        older["host"]["driver_lock"].erase(key);
    const DriverLock read = profile_from_json(older).driver_lock;
    EXPECT_FALSE(read.during_host_register.any() || read.during_host_unregister.any() || read.while_unregister_waits.any());
    EXPECT_EQ(read.while_free_waits, (DriverWaiters{.host_alloc = true, .launches = true}));
}

// Profiles of before 2026-11-26 measured one thing of the driver's lock: an allocation waited while
// another thread's free waited for the GPU.
TEST(PageLockingWaits, AnOlderProfilesOneAtATimeIsAnAllocationWaitingWhileAFreeWaits) {
    json older = json::parse(to_json(load_profile(kDefaultProfile)).dump());
    older["host"].erase("driver_lock");
    older["host"]["waits_for_device"] = {{"free_host", true}, {"one_at_a_time", true}};
    const HardwareProfile profile = profile_from_json(older);
    DriverLock expected;
    expected.while_free_waits.host_alloc = true;
    EXPECT_EQ(profile.driver_lock, expected);
    EXPECT_FALSE(to_json(profile)["host"]["waits_for_device"].contains("one_at_a_time"));
    EXPECT_EQ(to_json(profile)["host"]["driver_lock"]["while_free_waits"]["host_alloc"], true);
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
