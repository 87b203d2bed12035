// SPDX-License-Identifier: GPL-3.0-or-later
// A worker fills its samples as calibrate's pool run had its workers fill them, where the profile
// has that run: in validate's cells a worker's load took 11 to 16 % longer against the model than
// the consumer's did on four H100 VMs. A run without workers fills at the profile's own rate.
#include <gtest/gtest.h>

#include "engine/device/HardwareProfile.h"
#include "engine/host/HostWork.h"
#include "engine/text/Units.h"

namespace pinscope {
namespace {

double load_ns(HostWork& host, std::size_t sample_bytes, std::uint32_t count) {
    const WorkTimes times = host.load_samples(nullptr, sample_bytes, count, 0.0, 0, 0);
    return static_cast<double>(times.end - times.start);
}

HardwareProfile profile_with_workers_filling_at(double fraction_of_idle) {
    HardwareProfile profile = load_profile(kDefaultProfile);
    profile.under_load = {};
    profile.fill_gb_per_s = 10.0;
    profile.by_batch_size = {};
    profile.pipeline_worker_fill_gb_per_s = SizeCurve{{2 * kMiB, 32 * kMiB}, {10.0 * fraction_of_idle, 10.0 * fraction_of_idle}};
    return profile;
}

TEST(WorkerFill, AWorkersLoadFillsAtThePoolRunsWorkersRate) {
    const HardwareProfile profile = profile_with_workers_filling_at(0.8);
    const auto consumer = make_host_work(HostMode::Modeled, profile);
    const auto worker = make_host_work(HostMode::Modeled, profile, nullptr, {}, nullptr, 2);
    // 16 samples of 512 KiB: an 8 MiB batch, 0.84 ms at 10 GB/s and 1.05 ms at 8.
    EXPECT_NEAR(load_ns(*worker, 512 << 10, 16), load_ns(*consumer, 512 << 10, 16) / 0.8, 16);
}

TEST(WorkerFill, AProfileWithoutThePoolRunsFillingFillsWorkersAtItsOwnRate) {
    HardwareProfile profile = profile_with_workers_filling_at(0.8);
    profile.pipeline_worker_fill_gb_per_s = {};
    const auto consumer = make_host_work(HostMode::Modeled, profile);
    const auto worker = make_host_work(HostMode::Modeled, profile, nullptr, {}, nullptr, 2);
    EXPECT_NEAR(load_ns(*worker, 512 << 10, 16), load_ns(*consumer, 512 << 10, 16), 16);
}

// The factor is the pool run's rate against the profile's at the same size, so a batch size the
// run did not reach keeps the profile's own shape by size.
TEST(WorkerFill, TheFactorIsAgainstTheProfilesRateAtThatBatchSize) {
    HardwareProfile profile = profile_with_workers_filling_at(1.0);
    profile.by_batch_size.sizes_bytes = {kMiB, 2 * kMiB, 32 * kMiB};
    profile.by_batch_size.fill = {2.0, 1.0, 1.0};
    profile.by_batch_size.collate = profile.by_batch_size.collate_new_pages = profile.by_batch_size.pin = {1.0, 1.0, 1.0};
    const auto consumer = make_host_work(HostMode::Modeled, profile);
    const auto worker = make_host_work(HostMode::Modeled, profile, nullptr, {}, nullptr, 2);
    // At 1 MiB the consumer fills twice as fast as at 2 MiB; the worker, whose run filled at the
    // profile's rate at 2 MiB, as fast as the consumer there.
    EXPECT_NEAR(load_ns(*worker, 64 << 10, 16), load_ns(*consumer, 64 << 10, 16), 16);
}

}  // namespace
}  // namespace pinscope
