// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The one clock of the engine: nanoseconds on std::chrono::steady_clock, and precise sleeps; on
// a thread of a run that keeps modelled time, that run's clock (engine/clock/RunClock.h).
#include <chrono>
#include <stop_token>

#include "engine/clock/TimeNs.h"

namespace pinscope {

TimeNs now_ns();
// The steady clock's time point at `ns`, for waits on the standard library's clocks.
inline std::chrono::steady_clock::time_point steady_time(TimeNs ns) {
    return std::chrono::steady_clock::time_point(std::chrono::nanoseconds(ns));
}
// A modelled duration in (fractional) nanoseconds as whole ones, held within [0, about 115 days]
// so that a huge or NaN figure from a profile can neither overflow the conversion (undefined
// behaviour) nor a deadline computed from it.
TimeNs duration_ns(double ns);
// Sleeps until the deadline; returns at once if it has passed. Precise to tens of microseconds
// once the thread has called use_precise_sleeps(). Every modelled wait of a run sleeps here with
// the run's stop token: a stop ends the sleep at once, and then it returns false.
bool sleep_until_ns(TimeNs deadline, const std::stop_token& stop = {});
// Lowers this thread's timer slack (Linux defaults to 50 us) so that modelled waits end on time.
void use_precise_sleeps();

}  // namespace pinscope
