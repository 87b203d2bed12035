// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Waits for another thread of the run: a condition variable's wait, except that a thread taking
// part in its run's modelled time (engine/clock/RunClock.h) waits for its turns instead, so that
// modelled time moves on only while it waits.
#include <chrono>
#include <condition_variable>
#include <mutex>

#include "engine/clock/RunClock.h"

namespace pinscope {

// Until pred() holds, `lock` held while it is asked; `real_wait()` waits as a thread does without
// modelled time (cv.wait(lock, pred)).
template <class Lock, class Pred, class RealWait>
void wait_until(Lock& lock, Pred pred, RealWait real_wait) {
    RunClock* clock = RunClock::taking_part();
    bool did_something = true;  // since its last turn, this thread has done what others may wait for
    while (!pred()) {
        if (clock == nullptr) {
            real_wait();
            return;
        }
        lock.unlock();
        const bool turn = clock->park(RunClock::kNever, true, did_something);
        lock.lock();
        if (!turn) clock = nullptr;  // released: from now on, as without modelled time
        did_something = false;
    }
}

template <class Pred>
void wait_until(std::unique_lock<std::mutex>& lock, std::condition_variable& cv, Pred pred) {
    wait_until(lock, pred, [&] { cv.wait(lock, pred); });
}

// For `period` (a poll: what it waits for is looked at again after it), or until `cv` is notified
// when the thread does not take part in modelled time.
inline void wait_a_while(std::unique_lock<std::mutex>& lock, std::condition_variable& cv, TimeNs period) {
    if (RunClock* clock = RunClock::taking_part()) {
        lock.unlock();
        const bool turn = clock->park(clock->now() + period, false, true);
        lock.lock();
        if (turn) return;
    }
    cv.wait_for(lock, std::chrono::nanoseconds(period));
}

}  // namespace pinscope
