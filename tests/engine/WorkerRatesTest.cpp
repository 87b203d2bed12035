// SPDX-License-Identifier: GPL-3.0-or-later
// A worker fills its samples as calibrate's pool run had its workers fill, where the profile has
// that run (in validate's cells a worker's load took 11 to 16 % longer against the model than the
// consumer's did on four H100 VMs), and collates at that run's workers' rate. A run without
// workers fills at the profile's own rate.
#include <gtest/gtest.h>

#include "engine/device/HardwareProfile.h"
#include "engine/host/HostWork.h"
#include "engine/host/ModeledMemoryBus.h"
#include "engine/text/Units.h"

namespace pinscope {
namespace {

double load_ns(HostWork& host, std::size_t sample_bytes, std::uint32_t count) {
    const WorkTimes times = host.load_samples(nullptr, sample_bytes, count, 0.0, 0, 0);
    return static_cast<double>(times.end - times.start);
}

double collate_ns(HostWork& host, std::size_t bytes) {
    const WorkTimes times = host.copy(nullptr, nullptr, bytes, HostCopy::CollateNewPages, 0, 0.0);
    return static_cast<double>(times.end - times.start);
}

// Filling at 10 GB/s and collating new pages at 2, its workers at `fraction_of_idle` of both.
HardwareProfile profile_with_workers_at(double fraction_of_idle) {
    HardwareProfile profile = load_profile(kDefaultProfile);
    profile.under_load = {};
    profile.fill_gb_per_s = 10.0;
    profile.first_touch_gb_per_s = 2.0;
    profile.by_batch_size = {};
    profile.pipeline_worker_fill_gb_per_s = SizeCurve{{2 * kMiB, 32 * kMiB}, {10.0 * fraction_of_idle, 10.0 * fraction_of_idle}};
    profile.pipeline_worker_collate_gb_per_s = SizeCurve{{2 * kMiB, 32 * kMiB}, {2.0 * fraction_of_idle, 2.0 * fraction_of_idle}};
    return profile;
}

TEST(WorkerRates, AWorkersLoadGoesAtThePoolRunsWorkersRate) {
    const HardwareProfile profile = profile_with_workers_at(0.8);
    const auto consumer = make_host_work(HostMode::Modeled, profile);
    const auto worker = make_host_work(HostMode::Modeled, profile, nullptr, {}, nullptr, 2);
    // 16 samples of 512 KiB: an 8 MiB batch, 0.84 ms at 10 GB/s and 1.05 ms at 8.
    EXPECT_NEAR(load_ns(*worker, 512 << 10, 16), load_ns(*consumer, 512 << 10, 16) / 0.8, 16);
}

// The pool run's rate holds its two workers' load on memory: another thread streaming slows the
// consumer's collate by the profile's factor, and a worker's not again.
TEST(WorkerRates, AWorkersCollateGoesAtThePoolRunsRateNotSlowedAgainByOthersStreaming) {
    HardwareProfile profile = profile_with_workers_at(0.5);
    profile.under_load.others = {0, 1};
    profile.under_load.first_touch = {1.0, 0.8};
    const auto bus = std::make_shared<ModeledMemoryBus>(profile.under_load);
    const auto consumer = make_host_work(HostMode::Modeled, profile, bus);
    const auto worker = make_host_work(HostMode::Modeled, profile, bus, {}, nullptr, 2);
    const auto other = bus->use(ModeledMemoryBus::Traffic::Fill);
    // 8 MiB at 2 GB/s: 4.19 ms; at 0.8 of it with the other thread, at the pool run's 1 GB/s twice.
    EXPECT_NEAR(collate_ns(*consumer, 8 * kMiB), 8.0 * kMiB / 2.0 / 0.8, 16);
    EXPECT_NEAR(collate_ns(*worker, 8 * kMiB), 8.0 * kMiB / 1.0, 16);
}

TEST(WorkerRates, AProfileWithoutThePoolRunHasWorkersFillAndCollateAtItsOwnRates) {
    HardwareProfile profile = profile_with_workers_at(0.8);
    profile.pipeline_worker_fill_gb_per_s = {};
    profile.pipeline_worker_collate_gb_per_s = {};
    const auto consumer = make_host_work(HostMode::Modeled, profile);
    const auto worker = make_host_work(HostMode::Modeled, profile, nullptr, {}, nullptr, 2);
    EXPECT_NEAR(load_ns(*worker, 512 << 10, 16), load_ns(*consumer, 512 << 10, 16), 16);
    EXPECT_NEAR(collate_ns(*worker, 8 * kMiB), collate_ns(*consumer, 8 * kMiB), 16);
}

}  // namespace
}  // namespace pinscope
