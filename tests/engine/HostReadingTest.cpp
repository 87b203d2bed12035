// SPDX-License-Identifier: GPL-3.0-or-later
// validate reads the host before each cell and sets it against the profile's own figures: the
// same figures, read here as calibrate measures them and taken from a profile as it states them.
#include <gtest/gtest.h>

#include "engine/host/HostWork.h"
#include "engine/validate/HostReading.h"

namespace pinscope {
namespace {

TEST(HostReading, AProfileStatesItsFillFirstTouchPinCopyAndTheFreeOfAWorkersSixteenMebibyteBatch) {
    HardwareProfile profile;
    profile.fill_gb_per_s = 5.8;
    profile.first_touch_gb_per_s = 1.7;
    profile.memcpy_to_pinned_gb_per_s = 6.5;
    profile.free_new_pages_us.sizes_bytes = {8.0 * kMiB, 32.0 * kMiB};
    profile.free_new_pages_us.values = {300, 1300};
    const HostReading stated = host_reading_of(profile);
    EXPECT_EQ(stated.fill_gb_per_s, 5.8);
    EXPECT_EQ(stated.first_touch_gb_per_s, 1.7);
    EXPECT_EQ(stated.pin_gb_per_s, 6.5);
    EXPECT_NEAR(stated.free_us, profile.free_new_pages_us.scaled_at(16.0 * kMiB), 1e-9);
    EXPECT_GT(stated.free_us, 300);
    EXPECT_LT(stated.free_us, 1300);

    profile.free_new_pages_us = {};
    EXPECT_EQ(host_reading_of(profile).free_us, 0.0) << "a profile from before workers' frees were measured states none";
}

TEST(HostReading, TheRangeHoldsEachFiguresLowestAndHighestOfThoseRead) {
    EXPECT_FALSE(host_range({}).has_value());
    const std::optional<HostRange> range =
        host_range({{5.0, 1.6, 900, 7.0}, {4.2, 1.9, 2900, 0}, {6.1, 1.4, 1300, 6.0}});
    ASSERT_TRUE(range.has_value());
    EXPECT_EQ(range->lowest, (HostReading{4.2, 1.4, 900, 6.0})) << "a pin copy not read is not one of 0 GB/s";
    EXPECT_EQ(range->highest, (HostReading{6.1, 1.9, 2900, 7.0}));
    EXPECT_EQ(host_range({{5.0, 1.6, 900}})->highest.pin_gb_per_s, 0.0) << "none read";
}

TEST(HostReading, TheHostsSpeedIsEachRateOverTheProfilesAndTheFreesCostInverted) {
    const HostReading profile{5.0, 2.0, 1000, 8.0};
    EXPECT_FALSE(host_speed_against({}, profile).has_value());
    const std::optional<HostSpeed> speed = host_speed_against({{4.0, 2.2, 1000, 8.0}, {6.0, 2.0, 2000, 10.4}}, profile);
    ASSERT_TRUE(speed.has_value());
    EXPECT_DOUBLE_EQ(speed->slowest, 0.5) << "a free twice as dear is half the speed";
    EXPECT_DOUBLE_EQ(speed->fastest, 1.3) << "the pin copy at 10.4 GB/s against 8";
    // A figure the profile does not state is left out.
    const std::optional<HostSpeed> no_free = host_speed_against({{4.0, 2.2, 4000}}, HostReading{5.0, 2.0, 0});
    ASSERT_TRUE(no_free.has_value());
    EXPECT_DOUBLE_EQ(no_free->slowest, 0.8);
    EXPECT_DOUBLE_EQ(no_free->fastest, 1.1);
}

TEST(HostReading, TheMedianReadingTakesEachFiguresMedianLeavingOutThoseNotRead) {
    EXPECT_FALSE(median_reading({}).has_value());
    const std::optional<HostReading> middle =
        median_reading({{5.0, 1.6, 900, 6.0}, {4.2, 1.9, 0, 0}, {6.1, 1.4, 1300, 7.0}, {3.0, 1.5, 2900, 9.0}});
    ASSERT_TRUE(middle.has_value());
    EXPECT_DOUBLE_EQ(middle->fill_gb_per_s, 4.6);
    EXPECT_DOUBLE_EQ(middle->first_touch_gb_per_s, 1.55);
    EXPECT_DOUBLE_EQ(middle->free_us, 1300) << "the free not read on one host is not a free of 0 us";
    EXPECT_DOUBLE_EQ(middle->pin_gb_per_s, 7.0);
}

TEST(HostReading, AProfileWithTheHostsRatesAsReadChangesOnlyFillingCollatingAndThePinCopy) {
    HardwareProfile profile = load_profile("h100-pcie5");
    const HardwareProfile read = with_host_rates(profile, HostReading{2.5, 0.75, 4000, 4.5});
    EXPECT_EQ(read.fill_gb_per_s, 2.5);
    EXPECT_EQ(read.first_touch_gb_per_s, 0.75);
    EXPECT_EQ(read.memcpy_to_pinned_gb_per_s, 4.5);
    EXPECT_EQ(read.memcpy_gb_per_s, profile.memcpy_gb_per_s);
    EXPECT_EQ(read.under_load.memcpy_to_pinned, profile.under_load.memcpy_to_pinned)
        << "how a pin copy slows under load is a factor on the rate alone";
    EXPECT_EQ(read.pipeline_free_us.values, profile.pipeline_free_us.values)
        << "the free's readings spread too widely to stand for a run";
    const HardwareProfile unread = with_host_rates(profile, HostReading{0, 0, 0});
    EXPECT_EQ(unread.fill_gb_per_s, profile.fill_gb_per_s) << "a rate not read stays the profile's";
    EXPECT_EQ(unread.first_touch_gb_per_s, profile.first_touch_gb_per_s);
    EXPECT_EQ(unread.memcpy_to_pinned_gb_per_s, profile.memcpy_to_pinned_gb_per_s);
}

TEST(HostReading, AProfileWithTheHostSpedUpLoadsAndCollatesThatManyTimesAsFast) {
    const HardwareProfile profile = load_profile("h100-pcie5");
    const HardwareProfile faster = with_host_speed(profile, 1.25);
    EXPECT_DOUBLE_EQ(faster.fill_gb_per_s, profile.fill_gb_per_s * 1.25);
    EXPECT_DOUBLE_EQ(faster.first_touch_gb_per_s, profile.first_touch_gb_per_s * 1.25);
    EXPECT_EQ(faster.memcpy_to_pinned_gb_per_s, profile.memcpy_to_pinned_gb_per_s) << "the pin copy is not a load";
    // The hand-measured default states neither rate: its memcpy stands for both.
    const HardwareProfile stated_none = load_profile("h200-pcie5");
    ASSERT_EQ(stated_none.fill_gb_per_s, 0.0);
    const HardwareProfile slower = with_host_speed(stated_none, 0.5);
    EXPECT_DOUBLE_EQ(slower.fill_gb_per_s, stated_none.memcpy_gb_per_s * 0.5);
    EXPECT_DOUBLE_EQ(slower.first_touch_gb_per_s, stated_none.memcpy_gb_per_s * 0.5);
}

// A worker fills and collates at calibrate's pool run's rates: run again with the host as read (or
// as it ran), a cell with workers must move as one without does, or validate's second and third
// reports would leave such a cell where it was, whatever the host did.
double worker_load_and_collate_ns(const HardwareProfile& profile) {
    const auto worker = make_host_work(HostMode::Modeled, profile, nullptr, {}, nullptr, 2);
    const WorkTimes load = worker->load_samples(nullptr, 512 << 10, 16, 0.0, 0, 0);
    const WorkTimes collate = worker->copy(nullptr, nullptr, 8 * kMiB, HostCopy::CollateNewPages, 0, 0.0);
    return static_cast<double>((load.end - load.start) + (collate.end - collate.start));
}

HardwareProfile profile_with_pool_run_workers() {
    HardwareProfile profile = load_profile("h100-pcie5");
    profile.under_load = {};
    profile.by_batch_size = {};
    profile.fill_gb_per_s = 6.0;
    profile.first_touch_gb_per_s = 1.8;
    profile.pipeline_worker_fill_gb_per_s = SizeCurve{{2 * kMiB, 32 * kMiB}, {5.0, 5.5}};
    profile.pipeline_worker_collate_gb_per_s = SizeCurve{{2 * kMiB, 32 * kMiB}, {1.5, 1.6}};
    return profile;
}

TEST(HostReading, AWorkersLoadAndCollateGoAsFastAsTheHostWasRead) {
    const HardwareProfile profile = profile_with_pool_run_workers();
    const HardwareProfile half = with_host_rates(profile, HostReading{3.0, 0.9, 0, 0});
    EXPECT_EQ(half.pipeline_worker_fill_gb_per_s.values, (std::vector<double>{2.5, 2.75}));
    EXPECT_EQ(half.pipeline_worker_collate_gb_per_s.values, (std::vector<double>{0.75, 0.8}));
    EXPECT_NEAR(worker_load_and_collate_ns(half), 2 * worker_load_and_collate_ns(profile), 64);
    const HardwareProfile unread = with_host_rates(profile, HostReading{0, 0, 0, 0});
    EXPECT_EQ(unread.pipeline_worker_fill_gb_per_s.values, profile.pipeline_worker_fill_gb_per_s.values);
    EXPECT_EQ(unread.pipeline_worker_collate_gb_per_s.values, profile.pipeline_worker_collate_gb_per_s.values);
}

TEST(HostReading, AWorkersLoadAndCollateGoThatManyTimesAsFastWithTheHostSpedUp) {
    const HardwareProfile profile = profile_with_pool_run_workers();
    EXPECT_NEAR(worker_load_and_collate_ns(with_host_speed(profile, 0.5)), 2 * worker_load_and_collate_ns(profile), 64);
    EXPECT_NEAR(worker_load_and_collate_ns(with_host_speed(profile, 1.25)), worker_load_and_collate_ns(profile) / 1.25, 64);
}

TEST(HostReading, ReadingThisHostMeasuresEveryFigure) {
    const HostReading here = read_host();
    EXPECT_GT(here.fill_gb_per_s, 0);
    EXPECT_GT(here.first_touch_gb_per_s, 0);
    EXPECT_GT(here.free_us, 0) << "unmapping a 16 MiB batch takes time";
    EXPECT_GT(here.pin_gb_per_s, 0);
}

}  // namespace
}  // namespace pinscope
