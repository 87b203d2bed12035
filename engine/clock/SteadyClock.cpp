// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/clock/SteadyClock.h"

#include "engine/clock/RunClock.h"

#include <sys/prctl.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

namespace pinscope {
namespace {

// Sleeps until `until` or a stop, whichever comes first.
void sleep_or_stop(TimeNs until, const std::stop_token& stop) {
    if (!stop.stop_possible()) {
        std::this_thread::sleep_until(steady_time(until));
        return;
    }
    struct Waker {
        std::mutex mutex;
        std::condition_variable woken;
    };
    thread_local Waker mine;
    Waker* waker = &mine;  // the callback runs on the thread that stops, with its own thread_locals
    // Registered before the lock is taken: on a stop already requested it runs here, at once.
    const std::stop_callback wake(stop, [waker] {
        std::lock_guard lock(waker->mutex);
        waker->woken.notify_all();
    });
    std::unique_lock lock(waker->mutex);
    waker->woken.wait_until(lock, steady_time(until), [&] { return stop.stop_requested(); });
}

}  // namespace

TimeNs now_ns() {
    if (const RunClock* clock = RunClock::of_this_thread()) return clock->now();
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

TimeNs duration_ns(double ns) {
    constexpr double kMaxNs = 1e16;
    if (!(ns > 0)) return 0;  // NaN too
    return static_cast<TimeNs>(std::min(ns, kMaxNs));
}

bool sleep_until_ns(TimeNs deadline, const std::stop_token& stop) {
    if (RunClock* clock = RunClock::taking_part()) {
        bool did_something = true;
        while (!stop.stop_requested() && clock->now() < deadline) {
            // Released (a stop): time stands still, so the sleep is over, short of its deadline.
            if (!clock->park(deadline, false, did_something)) return clock->now() >= deadline;
            did_something = false;
        }
        return !stop.stop_requested() || clock->now() >= deadline;
    }
    // Sleep to just short of the deadline, then yield the rest away: a plain sleep overshoots by
    // the scheduler's wake-up latency, which would add up over thousands of modelled stages.
    constexpr TimeNs kSpinNs = 30'000;
    TimeNs now = now_ns();
    if (deadline - now > kSpinNs) {
        sleep_or_stop(deadline - kSpinNs, stop);
        now = now_ns();
    }
    while (now < deadline && !stop.stop_requested()) {
        std::this_thread::yield();
        now = now_ns();
    }
    return !stop.stop_requested() || now >= deadline;
}

void use_precise_sleeps() { prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0); }

}  // namespace pinscope
