#include "clock/SteadyClock.h"

#include <sys/prctl.h>

#include <algorithm>
#include <chrono>
#include <thread>

namespace pinscope {

TimeNs now_ns() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

TimeNs duration_ns(double ns) {
    constexpr double kMaxNs = 1e16;
    if (!(ns > 0)) return 0;  // NaN too
    return static_cast<TimeNs>(std::min(ns, kMaxNs));
}

void sleep_until_ns(TimeNs deadline) {
    // Sleep to just short of the deadline, then yield the rest away: a plain sleep overshoots by
    // the scheduler's wake-up latency, which would add up over thousands of modelled stages.
    constexpr TimeNs kSpinNs = 30'000;
    TimeNs now = now_ns();
    if (deadline - now > kSpinNs) {
        std::this_thread::sleep_until(std::chrono::steady_clock::time_point(
            std::chrono::nanoseconds(deadline - kSpinNs)));
        now = now_ns();
    }
    while (now < deadline) {
        std::this_thread::yield();
        now = now_ns();
    }
}

void use_precise_sleeps() { prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0); }

}  // namespace pinscope
