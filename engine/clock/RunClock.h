// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The clock of one run's threads. On a real GPU, or with real host work, it is the steady clock.
// With the emulated device and the modelled host nothing real takes time, so the run keeps
// modelled time instead, and its figures depend on the model alone, not on when this machine
// gets round to running its threads (a busy laptop shows what an idle server shows):
//  - The run's modelled threads take part: one at a time holds the turn and runs; every other
//    waits, either for a modelled time (a sleep) or for something another thread does (a queue,
//    a free core). A thread that waits hands the turn to the next, in a fixed order.
//  - Time moves on only when every thread that takes part waits, to the earliest time one of
//    them waits for. Threads that wait for something are let to look again whenever the thread
//    that held the turn has done anything.
//  - Paced, modelled time follows the wall clock: never ahead of it, and behind it when this
//    machine cannot keep up (the live view slows; the figures do not change). Unpaced, it runs
//    as fast as the threads take their turns.
//  - The run's observer samples at fixed modelled moments, with every thread held there, so that
//    what it reads (counters, the trace) is the model's state at that moment.
//  - A stop releases everything: time stands still at the stop and threads run freely to their end.
// now_ns(), sleep_until_ns() and the waits of engine/clock/ModelledWait.h use the clock of the
// thread that calls them (ClockScope), so that code that runs either way needs no change.
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <limits>
#include <map>
#include <mutex>
#include <optional>
#include <stop_token>

#include "engine/clock/TimeNs.h"

namespace pinscope {

class RunClock {
public:
    enum class Pace : std::uint8_t { WallClock, Unpaced };
    using Ticket = std::uint64_t;  // a thread that takes part, in the order they joined
    static constexpr TimeNs kNever = std::numeric_limits<TimeNs>::max();

    // `sample_period`: how often (in modelled time) the observer samples; 0: no observer.
    RunClock(TimeNs start, Pace pace, bool modelled, TimeNs sample_period = 0);
    RunClock(const RunClock&) = delete;
    RunClock& operator=(const RunClock&) = delete;

    TimeNs now() const;
    bool modelled() const { return modelled_.load(); }
    // The clock of the calling thread (ClockScope), or null: the steady clock.
    static RunClock* of_this_thread();
    // The calling thread's clock when the thread takes part in its modelled time, else null.
    static RunClock* taking_part();

    // Between segments, by the one thread that takes part (or none): modelled time from now on,
    // the caller taking part (from the start time if the clock was made modelled), or the steady
    // clock again (the caller stops taking part; unpaced time that ran ahead of the wall clock is
    // waited out, so that time never goes back).
    void set_modelled(bool on);
    // The run's length: modelled time does not pass `deadline`; reaching it, the clock stops
    // there and requests `stop`. kNever: no length.
    void stop_at(TimeNs deadline, std::stop_source stop);
    // Time stands still from now on and no thread waits for its turn any more (a stop). When the
    // run's length stops the run, the clock releases once the stop has been requested.
    void release();
    bool released() const { return released_.load(); }
    // Modelled time stood still at a stop no later than `t`: what begins at `t` never ran.
    bool stopped_by(TimeNs t) const { return released_.load() && modelled_.load() && t >= now_.load(); }
    // The run's engine has ended: the observer's next sample comes at once.
    void end();

    // Taking part. enroll(): by the thread that holds the turn (or any thread while none takes
    // part), for a thread about to start; the new thread calls attach() with the ticket, which
    // returns once it is its turn. leave(): the calling thread takes no more part.
    Ticket enroll();
    void attach(Ticket ticket);
    void leave();
    void withdraw(Ticket ticket);  // a thread enrolled that never started
    bool takes_part(Ticket ticket) const;
    // The calling thread (which holds the turn) waits: until `wake` (kNever: no time), and, if
    // `look_on_change`, until another thread has done something (then it should look whether
    // what it waits for has come, and park again with did_something false if not).
    // `did_something`: since it last got the turn it changed what others may wait for.
    // Returns false when the clock does not model time (released, or the steady clock): the
    // caller waits as it would without it.
    bool park(TimeNs wake, bool look_on_change, bool did_something);

    // The observer's. Waits for the next moment to sample and returns it: `sample_period` of
    // modelled time after the last, with every thread held there until resume() (`held`); on the
    // steady clock, after a sleep of that period; at once once released or ended.
    struct Moment {
        TimeNs time = 0;
        bool held = false;
    };
    Moment await_sample();
    void resume();

private:
    enum class State : std::uint8_t { Ready, Running, Parked };
    struct Participant {
        State state = State::Ready;
        TimeNs wake = kNever;
        bool look_on_change = false;
        bool look = false;  // let it look (something changed, or its time came)
    };
    // Hands the turn on (caller holds mutex_, and the turn is free). Returns true when the run's
    // length was reached: the caller requests the stop once it has let go of the lock.
    bool dispatch(std::unique_lock<std::mutex>& lock);
    // Waits until the wall clock reaches modelled time `t` (paced); false if released meanwhile.
    bool pace_to(std::unique_lock<std::mutex>& lock, TimeNs t);
    void mark_changed(Ticket except);
    void request_stop_if(bool reached);
    static TimeNs steady_now();

    const Pace pace_;
    const TimeNs sample_period_;
    mutable std::mutex mutex_;
    std::condition_variable turn_;  // participants wait for their turn, the observer for a moment
    std::atomic<bool> modelled_;
    std::atomic<TimeNs> now_;
    TimeNs wall_offset_ = 0;  // modelled time t is due at wall time t + wall_offset_
    std::atomic<bool> released_{false};
    bool ended_ = false;
    TimeNs deadline_ = kNever;
    std::stop_source stop_{std::nostopstate};
    TimeNs next_sample_ = kNever;
    bool sample_held_ = false;
    bool dispatching_ = false;
    bool stop_due_ = false;     // the run's length was reached: the stop is being requested  // a thread hands the turn on (and may be pacing, the lock let go)
    std::map<Ticket, Participant> participants_;
    std::optional<Ticket> running_;
    Ticket next_ticket_ = 0;
};

// Makes `clock` the calling thread's clock for its lifetime (null: the steady clock).
class ClockScope {
public:
    explicit ClockScope(RunClock* clock);
    ~ClockScope();
    ClockScope(const ClockScope&) = delete;
    ClockScope& operator=(const ClockScope&) = delete;

private:
    RunClock* previous_;
};

// The calling thread takes part in the clock's modelled time for its lifetime (when the clock
// models time), with the ticket it was enrolled under, or enrolling itself.
class TakingPart {
public:
    explicit TakingPart(RunClock* clock, std::optional<RunClock::Ticket> ticket = std::nullopt);
    ~TakingPart();
    TakingPart(const TakingPart&) = delete;
    TakingPart& operator=(const TakingPart&) = delete;

private:
    ClockScope scope_;
    RunClock* clock_ = nullptr;
};

}  // namespace pinscope
