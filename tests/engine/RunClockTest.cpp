// SPDX-License-Identifier: GPL-3.0-or-later
// Modelled time: threads take turns, time moves on only when every one waits, and what they see
// is the model's time whatever this machine does meanwhile.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <optional>
#include <thread>
#include <vector>

#include "engine/clock/RunClock.h"
#include "engine/clock/RunThread.h"
#include "engine/clock/SteadyClock.h"
#include "engine/pipeline/BlockingQueue.h"
#include "tests/support/CpuHogs.h"

namespace pinscope {
namespace {

constexpr TimeNs kMs = 1'000'000;

// The calling thread keeps `clock`'s modelled time and takes part in it for the scope's life.
struct ModelledScope {
    explicit ModelledScope(RunClock& clock) : scope(&clock) { clock.set_modelled(true); }
    ~ModelledScope() { RunClock::of_this_thread()->leave(); }
    ClockScope scope;
};

TEST(RunClock, TimeStandsStillWhileAThreadRunsAndMovesToTheEarliestWait) {
    RunClock clock(0, RunClock::Pace::Unpaced, true);
    const ModelledScope modelled(clock);
    TimeNs woke_at = -1;
    RunThread sleeper([&] {
        sleep_until_ns(10 * kMs);
        woke_at = now_ns();
    });
    // 30 ms of this machine's time pass while this thread holds the turn: none of the model's.
    std::this_thread::sleep_for(std::chrono::milliseconds(30));
    EXPECT_EQ(now_ns(), 0);
    sleep_until_ns(20 * kMs);
    EXPECT_EQ(now_ns(), 20 * kMs);
    sleeper.join();
    EXPECT_EQ(woke_at, 10 * kMs);
}

// A producer that works 1 ms per item and a consumer that takes 3 ms per item: in modelled time
// each item is taken exactly when the model says, on an idle machine and with every core busy.
std::vector<TimeNs> taken_times() {
    RunClock clock(0, RunClock::Pace::Unpaced, true);
    const ModelledScope modelled(clock);
    BlockingQueue<int> queue;
    RunThread producer([&] {
        for (int item = 0; item < 50; ++item) {
            sleep_until_ns(now_ns() + kMs);
            queue.push(item);
        }
        queue.close();
    });
    std::vector<TimeNs> taken;
    while (auto item = queue.pop()) {
        taken.push_back(now_ns());
        sleep_until_ns(now_ns() + 3 * kMs);
    }
    producer.join();
    return taken;
}

TEST(RunClock, ThreadsThatWaitForEachOtherSeeTheModelsTimesWhateverTheLoad) {
    std::vector<TimeNs> expected;
    for (int item = 0; item < 50; ++item) expected.push_back(item == 0 ? kMs : expected.back() + 3 * kMs);
    EXPECT_EQ(taken_times(), expected);
    const test::CpuHogs hogs;
    EXPECT_EQ(taken_times(), expected);
}

TEST(RunClock, TheRunsLengthStopsTimeThereAndRequestsTheStop) {
    std::stop_source stop;
    RunClock clock(0, RunClock::Pace::Unpaced, true);
    clock.stop_at(5 * kMs, stop);
    const ModelledScope modelled(clock);
    EXPECT_FALSE(sleep_until_ns(10 * kMs, stop.get_token()));
    EXPECT_TRUE(stop.stop_requested());
    EXPECT_EQ(now_ns(), 5 * kMs);
    EXPECT_TRUE(clock.released());
}

TEST(RunClock, TheObserverSamplesAtFixedModelledMomentsWithEveryThreadHeld) {
    RunClock clock(0, RunClock::Pace::Unpaced, true, kMs);
    std::atomic<int> steps{0};
    std::vector<std::pair<TimeNs, int>> seen;
    std::thread observer([&] {
        const ClockScope scope(&clock);
        for (int k = 0; k < 5; ++k) {
            const RunClock::Moment moment = clock.await_sample();
            EXPECT_TRUE(moment.held);
            seen.emplace_back(moment.time, steps.load());
            // However long the observer takes, the model waits for it.
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
            EXPECT_EQ(now_ns(), moment.time);
            clock.resume();
        }
        clock.release();  // lets the modelled thread finish without samples
    });
    {
        const ModelledScope modelled(clock);
        for (int k = 0; k < 10; ++k) {  // a step every 0.5 ms
            sleep_until_ns(now_ns() + kMs / 2);
            ++steps;
        }
    }
    observer.join();
    const std::vector<std::pair<TimeNs, int>> expected{{kMs, 1}, {2 * kMs, 3}, {3 * kMs, 5}, {4 * kMs, 7}, {5 * kMs, 9}};
    EXPECT_EQ(seen, expected);
}

TEST(RunClock, PacedTimeNeverRunsAheadOfTheWallClock) {
    const TimeNs start = now_ns();
    RunClock clock(start, RunClock::Pace::WallClock, true);
    const TimeNs woke = [&] {
        const ModelledScope modelled(clock);
        sleep_until_ns(start + 30 * kMs);
        return now_ns();
    }();
    EXPECT_EQ(woke, start + 30 * kMs);
    EXPECT_GE(now_ns(), start + 30 * kMs);  // this thread's own clock is the steady one again
}

TEST(RunClock, AReleaseFreesAThreadThatWaitsForAnotherAndTimeStandsStill) {
    RunClock clock(0, RunClock::Pace::Unpaced, true);
    BlockingQueue<int> queue;
    std::optional<int> got = 0;
    {
        const ModelledScope modelled(clock);
        RunThread waiter([&] { got = queue.pop(); });
        sleep_until_ns(7 * kMs);
        clock.release();
        queue.close();
        waiter.join();
        EXPECT_EQ(now_ns(), 7 * kMs);
        EXPECT_TRUE(sleep_until_ns(3 * kMs));  // the past: at once
    }
    EXPECT_FALSE(got.has_value());
}

TEST(RunClock, OnTheSteadyClockNothingChanges) {
    RunClock clock(now_ns(), RunClock::Pace::Unpaced, false);
    const ClockScope scope(&clock);
    const TimeNs before = now_ns();
    sleep_until_ns(before + 2 * kMs);
    EXPECT_GE(now_ns(), before + 2 * kMs);
    EXPECT_EQ(RunClock::taking_part(), nullptr);
}

}  // namespace
}  // namespace pinscope
