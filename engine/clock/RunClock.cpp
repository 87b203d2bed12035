// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/clock/RunClock.h"

#include "engine/clock/SteadyClock.h"

#include <algorithm>
#include <chrono>
#include <thread>

namespace pinscope {
namespace {

// How far paced modelled time may fall behind the wall clock and still catch up: past that, the
// live view slows down rather than rushing through what it missed.
constexpr TimeNs kPaceSlack = 20'000'000;

thread_local RunClock* t_clock = nullptr;
thread_local std::optional<RunClock::Ticket> t_ticket;

}  // namespace

RunClock::RunClock(TimeNs start, Pace pace, bool modelled, TimeNs sample_period)
    : pace_(pace), sample_period_(sample_period), modelled_(modelled), now_(start) {
    if (modelled && sample_period_ > 0) next_sample_ = start + sample_period_;
    wall_offset_ = std::max<TimeNs>(0, steady_now() - start);
}

TimeNs RunClock::steady_now() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

TimeNs RunClock::now() const { return modelled_.load() ? now_.load() : steady_now(); }

RunClock* RunClock::of_this_thread() { return t_clock; }

RunClock* RunClock::taking_part() {
    RunClock* clock = t_clock;
    return clock != nullptr && t_ticket && clock->modelled() ? clock : nullptr;
}

void RunClock::set_modelled(bool on) {
    std::unique_lock lock(mutex_);
    if (on) {
        if (!modelled_) {
            now_ = steady_now();
            wall_offset_ = 0;
            next_sample_ = sample_period_ > 0 ? now_ + sample_period_ : kNever;
            modelled_ = true;
        }
        if (!t_ticket) {
            const Ticket ticket = next_ticket_++;
            participants_[ticket] = Participant{State::Running};
            running_ = ticket;
            t_ticket = ticket;
        }
        return;
    }
    if (!modelled_) return;
    if (t_ticket) participants_.erase(*t_ticket);
    t_ticket.reset();
    running_.reset();
    const TimeNs was = now_.load();
    modelled_ = false;
    turn_.notify_all();
    lock.unlock();
    // Unpaced time may have run ahead of the wall clock: the steady clock takes over once past it.
    if (steady_now() < was) std::this_thread::sleep_until(steady_time(was));
}

void RunClock::stop_at(TimeNs deadline, std::stop_source stop) {
    std::lock_guard lock(mutex_);
    deadline_ = deadline;
    stop_ = std::move(stop);
}

void RunClock::release() {
    std::lock_guard lock(mutex_);
    if (stop_due_) return;  // the clock requests the run's stop itself, and releases once it has
    released_ = true;
    turn_.notify_all();
}

void RunClock::end() {
    std::lock_guard lock(mutex_);
    ended_ = true;
    turn_.notify_all();
}

RunClock::Ticket RunClock::enroll() {
    std::lock_guard lock(mutex_);
    const Ticket ticket = next_ticket_++;
    participants_[ticket] = Participant{};
    return ticket;
}

void RunClock::attach(Ticket ticket) {
    t_ticket = ticket;
    std::unique_lock lock(mutex_);
    if (!running_ && !dispatching_ && !sample_held_ && !released_ && !stop_due_ && modelled_ && dispatch(lock)) {
        lock.unlock();
        request_stop_if(true);
        lock.lock();
    }
    turn_.wait(lock, [&] { return released_ || !modelled_ || running_ == ticket; });
}

void RunClock::withdraw(Ticket ticket) {
    std::lock_guard lock(mutex_);
    participants_.erase(ticket);
}

void RunClock::leave() {
    if (!t_ticket) return;
    const Ticket ticket = *t_ticket;
    t_ticket.reset();
    std::unique_lock lock(mutex_);
    participants_.erase(ticket);
    bool reached = false;
    if (!released_ && modelled_) {
        mark_changed(ticket);  // a thread may be waiting for this one to end
        if (running_ == ticket) reached = dispatch(lock);
    }
    turn_.notify_all();
    lock.unlock();
    request_stop_if(reached);
}

bool RunClock::takes_part(Ticket ticket) const {
    std::lock_guard lock(mutex_);
    return participants_.count(ticket) != 0;
}

bool RunClock::park(TimeNs wake, bool look_on_change, bool did_something) {
    if (!t_ticket) return false;
    const Ticket ticket = *t_ticket;
    std::unique_lock lock(mutex_);
    auto it = participants_.find(ticket);
    if (released_ || !modelled_ || it == participants_.end() || running_ != ticket) return false;
    if (did_something) mark_changed(ticket);
    it->second.state = State::Parked;
    it->second.wake = wake;
    it->second.look_on_change = look_on_change;
    it->second.look = false;
    if (dispatch(lock)) {
        lock.unlock();
        request_stop_if(true);
        lock.lock();
    }
    turn_.wait(lock, [&] { return released_ || !modelled_ || running_ == ticket; });
    return running_ == ticket && !released_;
}

void RunClock::mark_changed(Ticket except) {
    for (auto& [ticket, p] : participants_)
        if (ticket != except && p.state == State::Parked && p.look_on_change) p.look = true;
}

bool RunClock::dispatch(std::unique_lock<std::mutex>& lock) {
    running_.reset();
    dispatching_ = true;
    bool reached = false;
    while (!released_ && !stop_due_ && !participants_.empty()) {
        // Whoever may run now, in the order they joined.
        bool picked = false;
        for (auto& [ticket, p] : participants_) {
            if (p.state == State::Ready || (p.state == State::Parked && p.look)) {
                p.state = State::Running;
                p.look = false;
                running_ = ticket;
                picked = true;
                break;
            }
        }
        if (picked) break;
        // Everyone waits: time moves on to the earliest of their times, the next sample and the end.
        TimeNs next = kNever;
        for (const auto& [ticket, p] : participants_)
            if (p.state == State::Parked) next = std::min(next, p.wake);
        const bool sample = next_sample_ <= next;
        const TimeNs target = sample ? next_sample_ : next;
        if (deadline_ != kNever && target > deadline_) {
            if (!pace_to(lock, deadline_)) break;
            // Every thread stays where it is until the stop has been requested (release_at_stop).
            now_ = std::max(now_.load(), deadline_);
            stop_due_ = true;
            reached = true;
            break;
        }
        if (target == kNever) break;  // all wait for something from outside the model
        if (!pace_to(lock, target)) break;
        now_ = std::max(now_.load(), target);
        if (sample) {
            sample_held_ = true;
            break;
        }
        for (auto& [ticket, p] : participants_)
            if (p.state == State::Parked && p.wake <= now_.load()) p.look = true;
    }
    dispatching_ = false;
    turn_.notify_all();
    return reached;
}

bool RunClock::pace_to(std::unique_lock<std::mutex>& lock, TimeNs t) {
    if (pace_ == Pace::Unpaced) return !released_;
    const TimeNs behind = steady_now() - (t + wall_offset_);
    if (behind > kPaceSlack) wall_offset_ += behind - kPaceSlack;
    while (!released_ && steady_now() < t + wall_offset_) turn_.wait_until(lock, steady_time(t + wall_offset_));
    return !released_;
}

void RunClock::request_stop_if(bool reached) {
    if (!reached) return;
    std::stop_source stop;
    {
        std::lock_guard lock(mutex_);
        stop = stop_;
    }
    // While every thread still waits where the run's length found it, so that all of them see the
    // stop when they go on (what they do after it then depends on nothing but the model).
    stop.request_stop();
    std::lock_guard lock(mutex_);
    stop_due_ = false;
    released_ = true;
    turn_.notify_all();
}

RunClock::Moment RunClock::await_sample() {
    std::unique_lock lock(mutex_);
    if (modelled_ && sample_period_ > 0)
        turn_.wait(lock, [&] { return sample_held_ || released_ || ended_ || !modelled_; });
    if (sample_held_) return {now_.load(), true};
    lock.unlock();
    std::this_thread::sleep_for(std::chrono::nanoseconds(sample_period_ > 0 ? sample_period_ : 10'000'000));
    return {now(), false};
}

void RunClock::resume() {
    std::unique_lock lock(mutex_);
    if (!sample_held_) return;
    sample_held_ = false;
    next_sample_ += sample_period_;
    bool reached = false;
    if (!running_ && !dispatching_ && !stop_due_) reached = dispatch(lock);
    lock.unlock();
    request_stop_if(reached);
}

ClockScope::ClockScope(RunClock* clock) : previous_(t_clock) { t_clock = clock; }

ClockScope::~ClockScope() { t_clock = previous_; }

TakingPart::TakingPart(RunClock* clock, std::optional<RunClock::Ticket> ticket) : scope_(clock) {
    if (clock == nullptr) return;
    if (!clock->modelled()) {
        if (ticket) clock->withdraw(*ticket);
        return;
    }
    clock->attach(ticket ? *ticket : clock->enroll());
}

TakingPart::~TakingPart() {
    if (RunClock* clock = RunClock::of_this_thread()) clock->leave();
}

}  // namespace pinscope
