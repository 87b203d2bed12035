// SPDX-License-Identifier: GPL-3.0-or-later
// The caching host allocator's rules: power-of-two blocks, reuse only after the copy that read a
// block has completed, never past the budget, everything freed at the end.
#include <gtest/gtest.h>

#include <thread>

#include "engine/clock/SteadyClock.h"
#include "engine/device/emulated/EmulatedDevice.h"
#include "engine/memory/PinnedPool.h"
#include "engine/text/Units.h"
#include "tests/engine/FaultyDevice.h"
#include "tests/engine/RecordedRun.h"

namespace pinscope {
namespace {

EmulatedDevice device() { return EmulatedDevice(load_profile(kDefaultProfile), HostMode::Modeled); }

TEST(PinnedPool, RoundsUpToPowersOfTwoAndCountsRoundingAsReserved) {
    EmulatedDevice dev = device();
    PinnedPool pool(dev, 64 * kMiB);
    std::atomic<bool> stop{false};
    auto block = pool.allocate(3 * kMiB, stop);
    ASSERT_TRUE(block);
    EXPECT_EQ(block->capacity, 4 * kMiB);
    EXPECT_EQ(pool.reserved_bytes(), 4 * kMiB);
    EXPECT_EQ(pool.in_use_bytes(), 4 * kMiB);
    pool.release(*block, 0);
    EXPECT_EQ(pool.in_use_bytes(), 0u);
    EXPECT_EQ(pool.reserved_bytes(), 4 * kMiB) << "cached, not freed";
}

TEST(PinnedPool, ABlockIsNotReusedBeforeItsCopyCompletes) {
    EmulatedDevice dev = device();
    PinnedPool pool(dev, 256 * kMiB);
    std::atomic<bool> stop{false};
    auto first = pool.allocate(64 * kMiB, stop);
    ASSERT_TRUE(first);
    // Queued behind an 8 GiB copy (about 150 ms on the profiled link), the block's own copy is
    // still pending while the pool is asked again.
    dev.copy_to_device({nullptr, std::size_t{8} << 30, true}, 0);
    const OpId copy = dev.copy_to_device({first->ptr, 64 * kMiB, true}, 1);
    pool.release(*first, copy);
    auto second = pool.allocate(64 * kMiB, stop);
    ASSERT_TRUE(second);
    EXPECT_FALSE(dev.is_complete(copy));
    EXPECT_NE(second->ptr, first->ptr) << "reused while the copy was still reading it";
    dev.wait(copy);
    pool.process_events();
    auto third = pool.allocate(64 * kMiB, stop);
    ASSERT_TRUE(third);
    EXPECT_EQ(third->ptr, first->ptr) << "reused once the copy completed";
    EXPECT_EQ(pool.stats().cache_hits, 1u);
    pool.release(*second, 0);
    pool.release(*third, 0);
}

TEST(PinnedPool, WaitsAtTheBudgetAndGivesUpWhenStopped) {
    EmulatedDevice dev = device();
    PinnedPool pool(dev, 8 * kMiB);
    std::atomic<bool> stop{false};
    auto a = pool.allocate(4 * kMiB, stop);
    auto b = pool.allocate(4 * kMiB, stop);
    ASSERT_TRUE(a && b);
    std::thread stopper([&] {
        sleep_until_ns(now_ns() + 20'000'000);
        stop = true;
    });
    EXPECT_FALSE(pool.allocate(4 * kMiB, stop)) << "a third block would pass the budget";
    stopper.join();
    EXPECT_LE(pool.reserved_bytes(), 8 * kMiB);
    EXPECT_EQ(pool.stats().budget_waits, 1u);

    stop = false;
    std::thread releaser([&] {
        sleep_until_ns(now_ns() + 10'000'000);
        pool.release(*a, 0);
    });
    auto c = pool.allocate(4 * kMiB, stop);
    releaser.join();
    ASSERT_TRUE(c);
    EXPECT_EQ(c->ptr, a->ptr);
    pool.release(*b, 0);
    pool.release(*c, 0);
}

TEST(PinnedPool, FreesCachedBlocksOfOtherSizesToMakeRoom) {
    EmulatedDevice dev = device();
    PinnedPool pool(dev, 8 * kMiB);
    std::atomic<bool> stop{false};
    auto small = pool.allocate(2 * kMiB, stop);
    pool.release(*small, 0);
    auto big = pool.allocate(8 * kMiB, stop);
    ASSERT_TRUE(big);
    EXPECT_EQ(pool.reserved_bytes(), 8 * kMiB);
    EXPECT_EQ(pool.stats().num_host_free, 1u);
    pool.release(*big, 0);
}

TEST(PinnedPool, ReleaseAllFreesEverythingIncludingBlocksStillHeld) {
    EmulatedDevice dev = device();
    std::vector<std::string> warnings;
    PinnedPool pool(dev, 64 * kMiB, [&](Severity, const std::string& text) { warnings.push_back(text); });
    std::atomic<bool> stop{false};
    ASSERT_TRUE(pool.allocate(kMiB, stop)) << "held by a batch that never gives it back";
    auto cached = pool.allocate(2 * kMiB, stop);
    pool.release(*cached, 0);
    pool.release_all();
    const PoolStats stats = pool.stats();
    EXPECT_EQ(stats.reserved_bytes.current, 0);
    EXPECT_EQ(stats.allocated_bytes.current, 0);
    EXPECT_EQ(stats.segment.current, 0);
    ASSERT_EQ(warnings.size(), 1u);
    EXPECT_NE(warnings[0].find("still held"), std::string::npos);
}

TEST(PinnedPool, ReleaseAllFreesEveryBlockWhenTheDeviceCannotWait) {
    const std::uint64_t locked_before = test::locked_bytes();
    test::FaultyDevice dev(test::FaultyDevice::Fault::DeviceBreaks, 0);
    PinnedPool pool(dev, 256 * kMiB);
    std::atomic<bool> stop{false};
    // Three blocks whose copies queue behind an 8 GiB one, one held by a batch, one cached.
    dev.copy_to_device({nullptr, std::size_t{8} << 30, true}, 0);
    for (std::uint64_t batch = 1; batch <= 3; ++batch) {
        auto block = pool.allocate(4 * kMiB, stop);
        ASSERT_TRUE(block);
        pool.release(*block, dev.copy_to_device({block->ptr, 4 * kMiB, true}, batch));
    }
    ASSERT_TRUE(pool.allocate(2 * kMiB, stop));
    auto cached = pool.allocate(kMiB, stop);
    pool.release(*cached, 0);
    EXPECT_GT(test::locked_bytes(), locked_before);

    dev.break_now();  // a sticky error: every wait and query fails from now on
    EXPECT_THROW(pool.release_all(), DeviceError);
    const PoolStats stats = pool.stats();
    EXPECT_EQ(stats.reserved_bytes.current, 0);
    EXPECT_EQ(stats.allocated_bytes.current, 0);
    EXPECT_EQ(stats.segment.current, 0);
    EXPECT_EQ(test::locked_bytes(), locked_before);
}

}  // namespace
}  // namespace pinscope
