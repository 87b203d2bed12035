// SPDX-License-Identifier: GPL-3.0-or-later
// The modelled host's shared memory: copies slow by the profile's under-load factors while other
// modelled threads stream through memory, in host work and in the emulated device's pageable staging.
#include <gtest/gtest.h>

#include <cmath>

#include <vector>

#include "engine/clock/RunClock.h"
#include "engine/clock/SteadyClock.h"
#include "engine/device/HardwareProfile.h"
#include "engine/device/emulated/EmulatedDevice.h"
#include "engine/host/HostWork.h"
#include "engine/host/ModeledMemoryBus.h"

namespace pinscope {
namespace {

HostLoadCurve halving_curve() {
    HostLoadCurve curve;
    curve.others = {0, 1};
    curve.fill = {1.0, 0.5};
    curve.first_touch = {1.0, 0.25};
    curve.memcpy_to_pinned = {1.0, 0.5};
    curve.pageable_h2d = {1.0, 0.5};
    curve.free_pageable = {1.0, 3.0};
    return curve;
}

HardwareProfile contended_profile() {
    HardwareProfile profile = load_profile(kDefaultProfile);
    profile.under_load = halving_curve();
    profile.free_pageable_us = SizeCurve{{1 << 20}, {40.0}};
    return profile;
}

TEST(ModeledMemoryBus, CountsTheOthersAtTheStartOfEachUse) {
    ModeledMemoryBus bus(halving_curve());
    {
        const auto first = bus.use(ModeledMemoryBus::Traffic::PinFromMemory);
        EXPECT_EQ(first.others(), 0);
        EXPECT_DOUBLE_EQ(first.factor(), 1.0);
        const auto second = bus.use(ModeledMemoryBus::Traffic::FirstTouch);
        EXPECT_EQ(second.others(), 1);
        EXPECT_DOUBLE_EQ(second.factor(), 0.25);
        EXPECT_EQ(bus.active(), 2);
    }
    EXPECT_EQ(bus.active(), 0);
    EXPECT_DOUBLE_EQ(bus.use(ModeledMemoryBus::Traffic::PageableFromMemory).factor(), 1.0);
}

TEST(ModeledMemoryBus, WithoutACurveNothingSlows) {
    ModeledMemoryBus bus(HostLoadCurve{});
    const auto first = bus.use(ModeledMemoryBus::Traffic::PinFromMemory);
    EXPECT_DOUBLE_EQ(bus.use(ModeledMemoryBus::Traffic::PinFromMemory).factor(), 1.0);
}

// Threads that copy 10 GB/s alone and 25 together when four copy at once.
MemoryThroughputCurve four_share_25() { return {{1, 4}, {10, 25}, {6, 12}}; }

HardwareProfile profile_with_only(const MemoryThroughputCurve& all_threads) {
    HardwareProfile profile = contended_profile();
    profile.under_load.others = {0};  // no curve's slowing: only the memory's
    profile.under_load.fill = profile.under_load.first_touch = profile.under_load.memcpy_to_pinned =
        profile.under_load.pageable_h2d = profile.under_load.free_pageable = {1.0};
    profile.under_load.all_threads = all_threads;
    profile.by_batch_size = {};
    return profile;
}

// Six workers collating 80 MB batches into page-locked blocks each went at a third of their rate
// alone on the H100: as many streams together get what calibrate's threads got together.
TEST(ModeledMemoryBus, StreamsGoAsFastAsTheMachinesMemoryLetsThatManyGoTogether) {
    HostLoadCurve curve = halving_curve();
    curve.all_threads = four_share_25();
    ModeledMemoryBus bus(curve);
    std::vector<ModeledMemoryBus::Use> uses;
    auto first = bus.use(ModeledMemoryBus::Traffic::Fill);
    EXPECT_DOUBLE_EQ(first.rate_sharing_memory(10e9, ModeledMemoryBus::Stream::Copy), 10e9);  // alone: its own rate
    auto second = bus.use(ModeledMemoryBus::Traffic::Fill);
    EXPECT_DOUBLE_EQ(second.rate_sharing_memory(10e9, ModeledMemoryBus::Stream::Copy), 10e9 * 15 / 20);  // 15 GB/s for two
    auto third = bus.use(ModeledMemoryBus::Traffic::Fill);
    third.rate_sharing_memory(10e9, ModeledMemoryBus::Stream::Copy);
    auto fourth = bus.use(ModeledMemoryBus::Traffic::Fill);
    EXPECT_DOUBLE_EQ(fourth.rate_sharing_memory(20e9, ModeledMemoryBus::Stream::Copy), 20e9 * 25 / 40);  // from the caches: 1
    EXPECT_DOUBLE_EQ(bus.streams(), 4.0);
}

TEST(ModeledMemoryBus, AStreamCountsAsMuchAsItStreamsAgainstAThreadAlone) {
    HostLoadCurve curve = halving_curve();
    curve.all_threads = four_share_25();
    ModeledMemoryBus bus(curve);
    {
        auto page_faulting = bus.use(ModeledMemoryBus::Traffic::FirstTouch);
        page_faulting.rate_sharing_memory(2e9, ModeledMemoryBus::Stream::Copy);  // a fifth of a thread
        auto writing = bus.use(ModeledMemoryBus::Traffic::Fill);
        writing.rate_sharing_memory(3e9, ModeledMemoryBus::Stream::Write);  // half of a thread filling alone
        EXPECT_DOUBLE_EQ(bus.streams(), 0.7);
        auto copy = bus.use(ModeledMemoryBus::Traffic::PinFromMemory);
        EXPECT_DOUBLE_EQ(copy.rate_sharing_memory(10e9, ModeledMemoryBus::Stream::Copy), 10e9 * (10 + 0.7 * 5) / 17);
    }
    EXPECT_DOUBLE_EQ(bus.streams(), 0.0);
    auto not_streaming = bus.use(ModeledMemoryBus::Traffic::Free);  // never asks: counts for nothing
    auto copy = bus.use(ModeledMemoryBus::Traffic::PinFromMemory);
    EXPECT_DOUBLE_EQ(copy.rate_sharing_memory(10e9, ModeledMemoryBus::Stream::Copy), 10e9);
}

TEST(ModeledMemoryBus, WithoutWhatAllThreadsGotMeasuredNoStreamIsHeldBack) {
    ModeledMemoryBus bus(halving_curve());
    auto first = bus.use(ModeledMemoryBus::Traffic::Fill);
    EXPECT_DOUBLE_EQ(first.rate_sharing_memory(500e9, ModeledMemoryBus::Stream::Copy), 500e9);
    auto second = bus.use(ModeledMemoryBus::Traffic::Fill);
    EXPECT_DOUBLE_EQ(second.rate_sharing_memory(500e9, ModeledMemoryBus::Stream::Write), 500e9);
    EXPECT_DOUBLE_EQ(bus.streams(), 0.0);
}

TEST(ModeledMemoryBus, AWorkersCollateIntoAPinnedBlockSlowsWhileOthersStream) {
    HardwareProfile profile = profile_with_only(four_share_25());
    profile.memcpy_to_pinned_gb_per_s = 10;
    auto bus = std::make_shared<ModeledMemoryBus>(profile.under_load);
    const auto host = make_host_work(HostMode::Modeled, profile, bus);
    constexpr std::size_t kBytes = 4 << 20;
    const auto collate_ns = [&] {
        const WorkTimes times = host->copy(nullptr, nullptr, kBytes, HostCopy::CollatePinned, 0, 0.0);
        return static_cast<double>(times.end - times.start);
    };
    const double alone = collate_ns();
    EXPECT_NEAR(alone, kBytes / 10.0, 2);  // ns: bytes / (GB/s)
    auto other = bus->use(ModeledMemoryBus::Traffic::Fill);
    other.rate_sharing_memory(10e9, ModeledMemoryBus::Stream::Copy);
    EXPECT_NEAR(collate_ns(), alone * 20 / 15, 2);  // two streams: 15 GB/s between them
}

TEST(ModeledMemoryBus, ALoadsWritesSlowWhileOthersStreamButNotItsCpuWork) {
    HardwareProfile profile = profile_with_only({{1, 2}, {4, 4}, {4, 4}});  // filling: 4 GB/s for one or two
    profile.fill_gb_per_s = 4;
    auto bus = std::make_shared<ModeledMemoryBus>(profile.under_load);
    const auto host = make_host_work(HostMode::Modeled, profile, bus);
    constexpr std::size_t kSampleBytes = 400'000;  // written in 100 us
    const auto load_ns = [&] {
        const WorkTimes times = host->load_samples(nullptr, kSampleBytes, 10, 100.0, 0, 0);
        return static_cast<double>(times.end - times.start);
    };
    EXPECT_NEAR(load_ns(), 10 * 200'000.0, 10);  // alone: not slowed
    auto other = bus->use(ModeledMemoryBus::Traffic::Fill);
    other.rate_sharing_memory(4e9, ModeledMemoryBus::Stream::Write);
    // It writes half the time: 1.5 threads streaming share 4 GB/s, so its writes take 1.5 times as long.
    EXPECT_NEAR(load_ns(), 10 * (1.5 * 100'000.0 + 100'000.0), 10);
}

TEST(ModeledMemoryBus, ModeledCopiesSlowWhileAnotherThreadStreams) {
    const HardwareProfile profile = contended_profile();
    auto bus = std::make_shared<ModeledMemoryBus>(profile.under_load);
    const auto host = make_host_work(HostMode::Modeled, profile, bus);
    constexpr std::size_t kBytes = 4 << 20;
    const auto duration = [&](HostCopy kind) {
        const WorkTimes times = host->copy(nullptr, nullptr, kBytes, kind, 0, 0.0);
        return static_cast<double>(times.end - times.start);
    };
    const double pin_alone = duration(HostCopy::PinFromMemory);
    const double collate_alone = duration(HostCopy::CollateNewPages);
    EXPECT_NEAR(pin_alone, kBytes / profile.memcpy_to_pinned_gb_per_s, 2);  // ns: bytes / (GB/s)
    const auto other = bus->use(ModeledMemoryBus::Traffic::PinFromMemory);
    EXPECT_NEAR(duration(HostCopy::PinFromMemory), 2 * pin_alone, 2);
    EXPECT_NEAR(duration(HostCopy::CollateNewPages), 4 * collate_alone, 4);
}

// A munmap shares the process's memory map with every worker thread, so it costs what the curve
// says for the workers the loader runs, or for the threads streaming if they are more.
TEST(ModeledMemoryBus, FreeingABatchCostsMoreWithWorkersRunningOrThreadsStreaming) {
    const HardwareProfile profile = contended_profile();
    auto bus = std::make_shared<ModeledMemoryBus>(profile.under_load);
    const auto host = make_host_work(HostMode::Modeled, profile, bus);
    PageableBuffer none;
    const auto cost_ns = [&](int workers) {
        const WorkTimes times = host->free_batch(none, 2 << 20, BatchMemory::NewPages, workers, 0);
        return static_cast<double>(times.end - times.start);
    };
    EXPECT_NEAR(cost_ns(0), 80'000, 1);  // 40 us per MiB, beyond the curve's one point
    EXPECT_NEAR(cost_ns(1), 240'000, 1);  // a worker idle: the curve's point for one other
    const auto other = bus->use(ModeledMemoryBus::Traffic::Fill);
    EXPECT_NEAR(cost_ns(0), 240'000, 1);
    EXPECT_NEAR(cost_ns(1), 240'000, 1);
}

// Measured in a running pipeline, a worker's batch costs that free with any number of workers and
// threads streaming (they ran when it was measured); the consumer's own batch is slowed as before.
TEST(ModeledMemoryBus, AWorkersBatchFreedAsMeasuredInARunningPipelineCostsThatWhateverRuns) {
    HardwareProfile profile = contended_profile();
    profile.free_new_pages_us = SizeCurve{{1 << 20}, {40.0}};
    profile.pipeline_free_us = SizeCurve{{1 << 20}, {100.0}};
    auto bus = std::make_shared<ModeledMemoryBus>(profile.under_load);
    const auto host = make_host_work(HostMode::Modeled, profile, bus);
    PageableBuffer none;
    const auto cost_ns = [&](BatchMemory memory, int workers) {
        const WorkTimes times = host->free_batch(none, 2 << 20, memory, workers, 0);
        return static_cast<double>(times.end - times.start);
    };
    EXPECT_NEAR(cost_ns(BatchMemory::NewPages, 0), 200'000, 1);  // 100 us per MiB, beyond the curve's one point
    EXPECT_NEAR(cost_ns(BatchMemory::NewPages, 6), 200'000, 1);
    const auto other = bus->use(ModeledMemoryBus::Traffic::Fill);
    EXPECT_NEAR(cost_ns(BatchMemory::NewPages, 0), 200'000, 1);
    EXPECT_NEAR(cost_ns(BatchMemory::Allocator, 0), 240'000, 1);  // 80 us, three times with one other streaming
}

TEST(ModeledMemoryBus, PageableStagingOfAHandedOverBatchSlowsButPinnedAndCachedCopiesDoNot) {
    const HardwareProfile profile = contended_profile();
    auto bus = std::make_shared<ModeledMemoryBus>(profile.under_load);
    EmulatedDevice device(profile, HostMode::Modeled, bus);
    constexpr std::size_t kBytes = 8 << 20;
    std::vector<std::byte> pageable(kBytes);
    const auto copy_ns = [&](bool pinned, bool cached = false) {
        device.copy_to_device(HostSource{pageable.data(), kBytes, pinned, cached}, 0);
        device.synchronize();
        std::vector<CompletedOp> done;
        device.collect_completed(done);
        return done.empty() ? 0.0 : static_cast<double>(done.back().end - done.back().start);
    };
    const double pageable_alone = copy_ns(false);
    const double pinned_alone = copy_ns(true);
    ASSERT_GT(pageable_alone, 0);
    const auto worker = bus->use(ModeledMemoryBus::Traffic::FirstTouch);
    EXPECT_NEAR(copy_ns(false), 2 * pageable_alone, 2);
    EXPECT_NEAR(copy_ns(true), pinned_alone, 1);
    EXPECT_NEAR(copy_ns(false, true), pageable_alone, 2);  // still in the caches: the sweep's rate
}

// A batch far beyond the caches is read from memory by the sweep's copy too: under load it slows
// by what calibrate measured at that size, between the two sizes by a factor in between.
TEST(ModeledMemoryBus, PageableStagingOfALargeOrSmallBatchSlowsByTheFactorMeasuredAtItsSize) {
    HostLoadCurve curve = halving_curve();
    const double large = 256.0 * (1 << 20);
    curve.pageable_h2d_by_size = {{large, {1.0, 0.9}}};
    ModeledMemoryBus bus(curve);
    const auto other = bus.use(ModeledMemoryBus::Traffic::Fill);
    const auto factor = [&](double bytes) { return bus.use(ModeledMemoryBus::Traffic::PageableFromMemory, 0, bytes).factor(); };
    EXPECT_DOUBLE_EQ(factor(4 << 20), 0.5);
    EXPECT_DOUBLE_EQ(factor(kCalibrationBatchBytes), 0.5);
    EXPECT_DOUBLE_EQ(factor(large), 0.9);
    EXPECT_DOUBLE_EQ(factor(4.0 * large), 0.9);
    EXPECT_NEAR(factor(std::sqrt(kCalibrationBatchBytes * large)), 0.7, 1e-9);
    // And a small one, below calibrate's batch, toward the factor measured at its own size.
    const double small = 2.0 * (1 << 20);
    curve.pageable_h2d_by_size.insert(curve.pageable_h2d_by_size.begin(), {small, {1.0, 0.2}});
    ModeledMemoryBus with_small(curve);
    const auto streaming = with_small.use(ModeledMemoryBus::Traffic::Fill);
    const auto small_factor = [&](double bytes) {
        return with_small.use(ModeledMemoryBus::Traffic::PageableFromMemory, 0, bytes).factor();
    };
    EXPECT_DOUBLE_EQ(small_factor(small), 0.2);
    EXPECT_DOUBLE_EQ(small_factor(1 << 20), 0.2);
    EXPECT_DOUBLE_EQ(small_factor(kCalibrationBatchBytes), 0.5);
    EXPECT_NEAR(small_factor(std::sqrt(kCalibrationBatchBytes * small)), 0.35, 1e-9);
    EXPECT_DOUBLE_EQ(small_factor(large), 0.9) << "above calibrate's batch, the large size's";
    // With sizes measured between, each its own, on a log size axis between neighbours.
    curve.pageable_h2d_by_size = {
        {small, {1.0, 0.2}}, {8.0 * (1 << 20), {1.0, 0.4}}, {96.0 * (1 << 20), {1.0, 0.8}}, {large, {1.0, 0.9}}};
    ModeledMemoryBus with_more(curve);
    const auto filling = with_more.use(ModeledMemoryBus::Traffic::Fill);
    const auto more_factor = [&](double bytes) {
        return with_more.use(ModeledMemoryBus::Traffic::PageableFromMemory, 0, bytes).factor();
    };
    EXPECT_DOUBLE_EQ(more_factor(small), 0.2);
    EXPECT_DOUBLE_EQ(more_factor(4.0 * (1 << 20)), 0.3) << "halfway between 2 and 8 MiB";
    EXPECT_DOUBLE_EQ(more_factor(8.0 * (1 << 20)), 0.4);
    EXPECT_DOUBLE_EQ(more_factor(kCalibrationBatchBytes), 0.5);
    EXPECT_DOUBLE_EQ(more_factor(96.0 * (1 << 20)), 0.8);
    EXPECT_NEAR(more_factor(std::sqrt(96.0 * (1 << 20) * large)), 0.85, 1e-9);
    EXPECT_DOUBLE_EQ(more_factor(1e12), 0.9);
    // Without the large size's factors, calibrate's batch's at every size.
    ModeledMemoryBus older(halving_curve());
    const auto busy = older.use(ModeledMemoryBus::Traffic::Fill);
    EXPECT_DOUBLE_EQ(older.use(ModeledMemoryBus::Traffic::PageableFromMemory, 0, 1e9).factor(), 0.5);
}

}  // namespace
}  // namespace pinscope

namespace pinscope {
namespace {

// What the device holds a modelled thread for in a cudaHostAlloc, cudaFreeHost, cudaHostRegister
// and cudaHostUnregister of `bytes`, in that order: alone, and while a worker streams. Timed in
// modelled time, so the holds are exactly the model's.
struct PageLockingHolds {
    std::vector<double> alone;
    std::vector<double> loaded;
};

PageLockingHolds page_locking_holds_us(const HardwareProfile& profile, std::size_t bytes, int loader_workers = 0) {
    auto bus = std::make_shared<ModeledMemoryBus>(profile.under_load);
    EmulatedDevice device(profile, HostMode::Modeled, bus);
    device.set_loader_workers(loader_workers);
    RunClock clock(0, RunClock::Pace::Unpaced, true);
    const ClockScope scope(&clock);
    clock.set_modelled(true);
    std::vector<std::byte> buffer(2 * bytes);
    void* page = reinterpret_cast<void*>((reinterpret_cast<std::uintptr_t>(buffer.data()) + 4095) & ~std::uintptr_t{4095});
    const auto held_us = [&](auto call) {
        const TimeNs start = now_ns();
        call();
        return static_cast<double>(now_ns() - start) / 1e3;
    };
    const auto costs = [&] {
        PinnedAllocation allocation;
        const double alloc = held_us([&] { allocation = device.allocate_pinned(bytes); });
        const double free = held_us([&] { device.free_pinned(allocation); });
        const double reg = held_us([&] { device.register_host(page, bytes); });
        const double unreg = held_us([&] { device.unregister_host(page, bytes); });
        return std::vector<double>{alloc, free, reg, unreg};
    };
    PageLockingHolds holds;
    holds.alone = costs();
    {
        const auto worker = bus->use(ModeledMemoryBus::Traffic::FirstTouch);
        holds.loaded = costs();
    }
    clock.leave();
    return holds;
}

// cudaHostAlloc and cudaHostRegister fault pages in and take the memory map's lock that the
// workers' page faults need: per batch they cost what calibrate measured with others streaming.
TEST(ModeledMemoryBus, PageLockingCostsWhatCalibrateMeasuredWithOthersStreaming) {
    HardwareProfile profile = contended_profile();
    profile.under_load.host_alloc = {1.0, 3.0};
    profile.under_load.host_register = {1.0, 2.0};
    constexpr std::size_t kBytes = 1 << 20;
    const PageLockingHolds holds = page_locking_holds_us(profile, kBytes);
    const double bytes = static_cast<double>(kBytes);
    EXPECT_NEAR(holds.alone[0], profile.host_alloc_us.scaled_at(bytes), 1e-3);
    EXPECT_NEAR(holds.alone[2], profile.host_register_us.scaled_at(bytes), 1e-3);
    EXPECT_NEAR(holds.loaded[0], 3 * holds.alone[0], 0.002);  // us: the holds are whole ns
    EXPECT_NEAR(holds.loaded[1], 3 * holds.alone[1], 0.002);
    EXPECT_NEAR(holds.loaded[2], 2 * holds.alone[2], 0.002);
    EXPECT_NEAR(holds.loaded[3], 2 * holds.alone[3], 0.002);
}

// Where calibrate timed a batch's cudaHostAlloc and cudaHostRegister in a running pipeline, the
// device charges those, slowed under load as the probe's are; the frees are the probe's still, and
// so is a batch below the pipeline's smallest, where the driver may have handed back a cached block.
TEST(ModeledMemoryBus, ABatchsPageLockingCostsWhatCalibrateMeasuredInTheRunningPipeline) {
    HardwareProfile profile = contended_profile();
    profile.under_load.host_alloc = {1.0, 3.0};
    profile.under_load.host_register = {1.0, 2.0};
    const PageLockingHolds probe_small = page_locking_holds_us(profile, 1 << 20);
    const PageLockingHolds probe_large = page_locking_holds_us(profile, 4 << 20);
    profile.pipeline_host_alloc_us = SizeCurve{{2 << 20}, {700.0}};
    profile.pipeline_host_register_us = SizeCurve{{2 << 20}, {500.0}};
    const PageLockingHolds large = page_locking_holds_us(profile, 4 << 20);
    EXPECT_NEAR(large.alone[0], 1400.0, 1e-3);  // twice the 2 MiB point: the curve scales beyond its last
    EXPECT_NEAR(large.alone[2], 1000.0, 1e-3);
    EXPECT_NEAR(large.loaded[0], 3 * 1400.0, 0.002);
    EXPECT_NEAR(large.loaded[2], 2 * 1000.0, 0.002);
    EXPECT_NEAR(large.alone[1], probe_large.alone[1], 0.002);
    EXPECT_NEAR(large.alone[3], probe_large.alone[3], 0.002);
    const PageLockingHolds small = page_locking_holds_us(profile, 1 << 20);
    for (std::size_t call = 0; call < 4; ++call) EXPECT_NEAR(small.alone[call], probe_small.alone[call], 0.002) << call;
}

// In a run with workers, a batch's cudaHostAlloc costs what calibrate measured in a pipeline with
// workers, as it is: the workers' effect is in that figure, whether they stream or not. Without
// workers, or below that curve's smallest batch, it costs what it did.
TEST(ModeledMemoryBus, WithWorkersABatchsAllocCostsWhatCalibrateMeasuredWithWorkersRunning) {
    HardwareProfile profile = contended_profile();
    profile.under_load.host_alloc = {1.0, 3.0};
    profile.pipeline_host_alloc_us = SizeCurve{{2 << 20}, {700.0}};
    const PageLockingHolds no_curve = page_locking_holds_us(profile, 4 << 20, 4);
    profile.pipeline_host_alloc_workers_us = SizeCurve{{2 << 20, 8 << 20}, {2000.0, 5000.0}};
    const PageLockingHolds with_workers = page_locking_holds_us(profile, 4 << 20, 4);
    EXPECT_NEAR(with_workers.alone[0], 3500.0, 1e-3);  // halfway on a log size axis
    EXPECT_NEAR(with_workers.loaded[0], 3500.0, 1e-3) << "not slowed again by the others streaming";
    EXPECT_NEAR(with_workers.alone[1], no_curve.alone[1], 0.002) << "cudaFreeHost is the probe's still";
    const PageLockingHolds none = page_locking_holds_us(profile, 4 << 20, 0);
    EXPECT_NEAR(none.alone[0], 1400.0, 1e-3);
    EXPECT_NEAR(none.loaded[0], 3 * 1400.0, 0.002);
    const PageLockingHolds small = page_locking_holds_us(profile, 1 << 20, 4);
    EXPECT_NEAR(small.alone[0], profile.host_alloc_us.scaled_at(1 << 20), 1e-3);
    EXPECT_NEAR(no_curve.alone[0], 1400.0, 1e-3);
}

}  // namespace
}  // namespace pinscope
