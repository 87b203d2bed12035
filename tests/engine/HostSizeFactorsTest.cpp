// SPDX-License-Identifier: GPL-3.0-or-later
// A worker's host rates by batch size: calibrate measures them as a worker works (batches in a row
// on a thread of its own), the profile keeps them as factors against calibrate's batch, and the
// modelled host charges a batch of each size at its own rates.
#include <gtest/gtest.h>

#include <sched.h>

#include <nlohmann/json.hpp>

#include "engine/calibrate/Calibration.h"
#include "engine/clock/SteadyClock.h"
#include "engine/config/ConfigError.h"
#include "engine/device/HardwareProfile.h"
#include "engine/host/HostMeasurement.h"
#include "engine/host/HostWork.h"
#include "engine/host/ModeledMemoryBus.h"

namespace pinscope {
namespace {

using nlohmann::json;

HostSizeFactors cache_friendly() {
    HostSizeFactors factors;
    factors.sizes_bytes = {1 << 20, 4 << 20, kCalibrationBatchBytes};
    factors.collate = {4.0, 2.0, 1.0};
    factors.collate_new_pages = {1.5, 1.25, 1.0};
    factors.pin = {5.0, 4.0, 1.0};
    return factors;
}

TEST(HostSizeFactors, InterpolateOnLogSizeHoldFlatBeyondAndAreOneWhenNotMeasured) {
    const HostSizeFactors factors = cache_friendly();
    EXPECT_DOUBLE_EQ(factors.at(factors.pin, 1 << 20), 5.0);
    EXPECT_DOUBLE_EQ(factors.at(factors.pin, 2 << 20), 4.5);  // halfway on a log axis
    EXPECT_DOUBLE_EQ(factors.at(factors.pin, 64 << 10), 5.0);
    EXPECT_DOUBLE_EQ(factors.at(factors.collate, 1e9), 1.0);
    EXPECT_DOUBLE_EQ(HostSizeFactors{}.at({}, 1 << 20), 1.0);
}

TEST(HostSizeFactors, RoundTripInTheProfileAndABadFactorIsRefusedByName) {
    HardwareProfile profile = load_profile(kDefaultProfile);
    EXPECT_FALSE(to_json(profile).at("host").contains("by_batch_size"));
    profile.by_batch_size = cache_friendly();
    const json written = to_json(profile);
    EXPECT_EQ(written.at("host").at("by_batch_size").at("pin"), json({5.0, 4.0, 1.0}));
    EXPECT_EQ(to_json(profile_from_json(written)), written);

    json bad = written;
    bad["host"]["by_batch_size"]["collate"][1] = 0;
    try {
        profile_from_json(bad);
        ADD_FAILURE() << "a factor of 0 was taken";
    } catch (const ConfigError& error) {
        EXPECT_EQ(error.issue().field, "profile.host.by_batch_size.collate[1]");
    }
    bad = written;
    bad["host"]["by_batch_size"]["pin"] = json{1.0};
    EXPECT_THROW(profile_from_json(bad), ConfigError);  // one factor per size
}

TEST(HostSizeFactors, ModelledHostWorkChargesEachBatchSizeAtItsOwnRates) {
    HardwareProfile profile = load_profile(kDefaultProfile);
    profile.under_load = {};
    const auto plain = make_host_work(HostMode::Modeled, profile);
    profile.by_batch_size = cache_friendly();
    const auto sized = make_host_work(HostMode::Modeled, profile);
    const auto copy_ns = [](HostWork& host, std::size_t bytes, HostCopy kind) {
        const WorkTimes times = host.copy(nullptr, nullptr, bytes, kind, 0, 0.0);
        return static_cast<double>(times.end - times.start);
    };
    const auto load_ns = [](HostWork& host, std::size_t sample_bytes, std::uint32_t count) {
        const WorkTimes times = host.load_samples(nullptr, sample_bytes, count, 0.0, 0, 0);
        return static_cast<double>(times.end - times.start);
    };
    constexpr std::size_t kSmall = 1 << 20;
    EXPECT_NEAR(copy_ns(*sized, kSmall, HostCopy::PinCached), copy_ns(*plain, kSmall, HostCopy::PinCached) / 5, 2);
    EXPECT_NEAR(copy_ns(*sized, kSmall, HostCopy::PinFromMemory), copy_ns(*plain, kSmall, HostCopy::PinFromMemory) / 5, 2);
    EXPECT_NEAR(copy_ns(*sized, kSmall, HostCopy::CollatePinned), copy_ns(*plain, kSmall, HostCopy::CollatePinned) / 5, 2);
    // A batch from the allocator at its factor, a worker's batch of new pages at its own.
    EXPECT_NEAR(copy_ns(*sized, kSmall, HostCopy::CollateAllocated), copy_ns(*plain, kSmall, HostCopy::CollateAllocated) / 4, 2);
    EXPECT_NEAR(copy_ns(*sized, kSmall, HostCopy::CollateNewPages), copy_ns(*plain, kSmall, HostCopy::CollateNewPages) / 1.5, 2);
    // Filling has no factor by size: 16 samples of 64 KiB, a 1 MiB batch, at the profile's rate.
    EXPECT_NEAR(load_ns(*sized, 64 << 10, 16), load_ns(*plain, 64 << 10, 16), 16);
    // At calibrate's batch, what the profile's rates say.
    EXPECT_NEAR(copy_ns(*sized, kCalibrationBatchBytes, HostCopy::CollateNewPages),
                copy_ns(*plain, kCalibrationBatchBytes, HostCopy::CollateNewPages), 2);
    EXPECT_NEAR(copy_ns(*sized, kCalibrationBatchBytes, HostCopy::CollateAllocated),
                copy_ns(*plain, kCalibrationBatchBytes, HostCopy::CollateAllocated), 2);
}

// Profiles calibrated before workers' batches had pages of their own measured only the allocator's.
TEST(HostSizeFactors, AWorkersBatchWithoutItsOwnFactorsCostsTheFreshRateAtEverySize) {
    HardwareProfile profile = load_profile(kDefaultProfile);
    profile.under_load = {};
    const auto plain = make_host_work(HostMode::Modeled, profile);
    profile.by_batch_size = cache_friendly();
    profile.by_batch_size.collate_new_pages.clear();
    const auto sized = make_host_work(HostMode::Modeled, profile);
    const auto copy_ns = [](HostWork& host, HostCopy kind) {
        const WorkTimes times = host.copy(nullptr, nullptr, 1 << 20, kind, 0, 0.0);
        return static_cast<double>(times.end - times.start);
    };
    EXPECT_NEAR(copy_ns(*sized, HostCopy::CollateNewPages), copy_ns(*plain, HostCopy::CollateNewPages), 2);
    EXPECT_NEAR(copy_ns(*sized, HostCopy::CollateAllocated), copy_ns(*plain, HostCopy::CollateAllocated) / 4, 2);
    // And a profile without it writes none.
    EXPECT_FALSE(to_json(profile)["host"]["by_batch_size"].contains("collate_new_pages"));
    EXPECT_TRUE(profile_from_json(to_json(profile)).by_batch_size.collate_new_pages.empty());
}

// Profiles calibrated before 2026-11-28 hold fill factors by size, which did not say how fast
// validate's cells filled: they load, and a batch fills at the profile's one rate.
TEST(HostSizeFactors, AnOlderProfilesFillFactorsAreLeftAside) {
    HardwareProfile profile = load_profile(kDefaultProfile);
    profile.under_load = {};
    profile.by_batch_size = cache_friendly();
    profile.fill_gb_per_s = 10.0;
    json older = to_json(profile);
    older["host"]["by_batch_size"]["fill"] = json{3.0, 2.0, 1.0};
    const HardwareProfile loaded = profile_from_json(older);
    EXPECT_FALSE(to_json(loaded)["host"]["by_batch_size"].contains("fill"));
    const auto host = make_host_work(HostMode::Modeled, loaded);
    const auto load_ns = [](HostWork& work) {
        const WorkTimes times = work.load_samples(nullptr, 64 << 10, 16, 0.0, 0, 0);
        return static_cast<double>(times.end - times.start);
    };
    EXPECT_NEAR(load_ns(*host), 16.0 * (64 << 10) / 10.0, 16);  // 1 MiB at 10 GB/s, in ns
}

TEST(HostSizeFactors, TheBatchLoopMeasuresEveryRateForBothKindsOfBatch) {
    for (const BatchMemory memory : {BatchMemory::NewPages, BatchMemory::Allocator}) {
        const BatchLoopRates rates = measure_batch_loop(1 << 20, 6, memory);
        EXPECT_GT(rates.collate_gb_per_s, 0);
        EXPECT_GT(rates.pin_gb_per_s, 0);
        EXPECT_GT(rates.free_us, 0) << "unmapping a worker's batch, on another CPU, takes time";
    }
}

// Measuring a worker's collate keeps the measuring thread on one CPU while another frees the
// batches; calibrate's thread then has every CPU it had before.
TEST(HostSizeFactors, MeasuringFirstTouchLeavesTheThreadsCpusAsTheyWere) {
    cpu_set_t before;
    ASSERT_EQ(sched_getaffinity(0, sizeof(before), &before), 0);
    EXPECT_GT(measure_first_touch_gb_per_s(1 << 20, 2), 0);
    cpu_set_t after;
    ASSERT_EQ(sched_getaffinity(0, sizeof(after), &after), 0);
    EXPECT_TRUE(CPU_EQUAL(&before, &after)) << CPU_COUNT(&before) << " CPUs before, " << CPU_COUNT(&after) << " after";
}

// A worker's batch is unmapped when freed, whatever its size; the consumer's own goes back to the
// allocator, which keeps a small one for the next. A profile without the first curve has it from
// the second's points where glibc maps every batch too (32 MiB and up), linear in size below.
TEST(HostSizeFactors, FreeingAWorkersBatchCostsItsUnmapAndTheConsumersItsAllocatorsFree) {
    HardwareProfile profile = load_profile(kDefaultProfile);
    profile.under_load = {};
    profile.free_pageable_us = SizeCurve{{1 << 20, 64 << 20}, {0.2, 2000.0}};
    profile.free_new_pages_us = SizeCurve{{1 << 20, 64 << 20}, {60.0, 2000.0}};
    const auto free_us = [](HostWork& host, BatchMemory memory) {
        PageableBuffer none;
        const WorkTimes times = host.free_batch(none, 1 << 20, memory, 0, 0);
        return static_cast<double>(times.end - times.start) / 1e3;
    };
    const auto measured = make_host_work(HostMode::Modeled, profile);
    EXPECT_NEAR(free_us(*measured, BatchMemory::NewPages), 60.0, 0.01);
    EXPECT_NEAR(free_us(*measured, BatchMemory::Allocator), 0.2, 0.01);
    EXPECT_EQ(profile_from_json(to_json(profile)).free_new_pages_us.values, profile.free_new_pages_us.values);

    profile.free_new_pages_us = {};
    const auto older = make_host_work(HostMode::Modeled, profile);
    EXPECT_NEAR(free_us(*older, BatchMemory::NewPages), 2000.0 / 64, 0.01);
    EXPECT_NEAR(free_us(*older, BatchMemory::Allocator), 0.2, 0.01);
    EXPECT_FALSE(to_json(profile)["host"].contains("free_new_pages_us"));
}

// Modelled host work never allocates a batch, but one registered in place is real: freeing it
// releases it, within the profile's cost rather than after it.
TEST(HostSizeFactors, AModelledFreeReleasesARealBatchAndChargesTheProfilesCost) {
    HardwareProfile profile = load_profile(kDefaultProfile);
    profile.under_load = {};
    profile.free_new_pages_us = SizeCurve{{1 << 20, 64 << 20}, {60.0, 2000.0}};
    const auto host = make_host_work(HostMode::Modeled, profile);
    PageableBuffer batch = allocate_batch(1 << 20, BatchMemory::NewPages);
    const WorkTimes times = host->free_batch(batch, 1 << 20, BatchMemory::NewPages, 0, now_ns());
    EXPECT_FALSE(batch);
    EXPECT_NEAR(static_cast<double>(times.end - times.start) / 1e3, 60.0, 0.01);
}

}  // namespace
}  // namespace pinscope
