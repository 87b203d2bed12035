// SPDX-License-Identifier: GPL-3.0-or-later
// The modelled process's memory map: with pin_mode register the consumer's free of a worker's
// batch waits while the pin thread's cudaHostRegister holds it, for the share calibrate measured.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <memory>
#include <vector>

#include "engine/clock/RunClock.h"
#include "engine/clock/SteadyClock.h"
#include "engine/device/HardwareProfile.h"
#include "engine/device/emulated/EmulatedDevice.h"
#include "engine/host/HostWork.h"
#include "engine/host/ModeledMemoryBus.h"

namespace pinscope {
namespace {

constexpr std::size_t kRegisteredBytes = 1 << 20;

HardwareProfile register_profile(double unmap_waits) {
    HardwareProfile profile = load_profile(kDefaultProfile);
    profile.under_load = {};
    profile.pipeline_host_register_us = {};
    profile.host_register_us = SizeCurve{{kRegisteredBytes}, {400.0}};
    profile.pipeline_free_us = SizeCurve{{kRegisteredBytes}, {100.0}};
    profile.free_pageable_us = SizeCurve{{kRegisteredBytes}, {30.0}};
    profile.unmap_waits_for_host_register = unmap_waits;
    return profile;
}

// In modelled time, so that each time is exactly the model's.
class ModelledTime {
public:
    ModelledTime() : clock_(0, RunClock::Pace::Unpaced, true), scope_(&clock_) { clock_.set_modelled(true); }
    ~ModelledTime() { clock_.leave(); }

private:
    RunClock clock_;
    ClockScope scope_;
};

// A page-aligned megabyte to register in place.
struct AlignedBlock {
    std::vector<std::byte> storage = std::vector<std::byte>(2 * kRegisteredBytes);
    void* page() {
        return reinterpret_cast<void*>((reinterpret_cast<std::uintptr_t>(storage.data()) + 4095) & ~std::uintptr_t{4095});
    }
};

TEST(ModeledMemoryMap, ARegisterHoldsTheMemoryMapForTheMeasuredShareOfItsCost) {
    const ModelledTime time;
    auto bus = std::make_shared<ModeledMemoryBus>(HostLoadCurve{});
    EmulatedDevice device(register_profile(0.5), HostMode::Modeled, bus);
    AlignedBlock block;
    const TimeNs start = now_ns();
    device.register_host(block.page(), kRegisteredBytes);
    EXPECT_EQ(now_ns() - start, 400'000);
    EXPECT_EQ(bus->memory_map().free_at(), start + 200'000);
    device.unregister_host(block.page(), kRegisteredBytes);
}

TEST(ModeledMemoryMap, NothingHoldsItWhereCalibrateSawNoWaitOrTheHostIsReal) {
    const ModelledTime time;
    AlignedBlock block;
    for (const auto& [waits, host] : {std::pair{0.0, HostMode::Modeled}, std::pair{0.5, HostMode::Real}}) {
        auto bus = std::make_shared<ModeledMemoryBus>(HostLoadCurve{});
        EmulatedDevice device(register_profile(waits), host, bus);
        device.register_host(block.page(), kRegisteredBytes);
        device.unregister_host(block.page(), kRegisteredBytes);
        EXPECT_EQ(bus->memory_map().free_at(), 0);
    }
}

// The free's span begins when it is called, as a blocked munmap's does, and ends its cost after
// the hold; the consumer's own batch (allocator memory, not unmapped) does not wait.
TEST(ModeledMemoryMap, AFreeOfNewPagesWaitsUntilTheMemoryMapIsFree) {
    const ModelledTime time;
    const HardwareProfile profile = register_profile(0.5);
    auto bus = std::make_shared<ModeledMemoryBus>(profile.under_load);
    const auto host = make_host_work(HostMode::Modeled, profile, bus);
    PageableBuffer none;
    const TimeNs called = now_ns();
    bus->memory_map().hold_until(called + 300'000);
    const WorkTimes worker_batch = host->free_batch(none, kRegisteredBytes, BatchMemory::NewPages, 2, called);
    EXPECT_EQ(worker_batch.start, called);
    EXPECT_LE(std::abs(worker_batch.end - (called + 300'000 + 100'000)), 1);  // ns: the cost's rounding

    bus->memory_map().hold_until(now_ns() + 300'000);
    const TimeNs again = now_ns();
    const WorkTimes own_batch = host->free_batch(none, kRegisteredBytes, BatchMemory::Allocator, 0, again);
    EXPECT_LE(std::abs(own_batch.end - own_batch.start - 30'000), 1);
}

TEST(ModeledMemoryMap, AHoldNeverShortensOneInProgress) {
    ModeledMemoryMap map;
    map.hold_until(500);
    map.hold_until(200);
    EXPECT_EQ(map.free_at(), 500);
    map.hold_until(900);
    EXPECT_EQ(map.free_at(), 900);
}

}  // namespace
}  // namespace pinscope
