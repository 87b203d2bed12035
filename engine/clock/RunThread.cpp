// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/clock/RunThread.h"

namespace pinscope {

RunThread::RunThread(std::function<void()> body) : clock_(RunClock::of_this_thread()) {
    // Enrolled here, while the starting thread holds the turn, so that time cannot move on before
    // the new thread has had its first turn.
    if (RunClock::taking_part() != nullptr) ticket_ = clock_->enroll();
    try {
        thread_ = std::thread([clock = clock_, ticket = ticket_, body = std::move(body)] {
            const TakingPart part(clock, ticket);
            body();
        });
    } catch (...) {
        if (ticket_) clock_->withdraw(*ticket_);
        throw;
    }
}

void RunThread::join() {
    if (ticket_ && RunClock::taking_part() == clock_) {
        bool did_something = true;
        while (clock_->takes_part(*ticket_) && clock_->park(RunClock::kNever, true, did_something)) did_something = false;
    }
    thread_.join();
}

}  // namespace pinscope
