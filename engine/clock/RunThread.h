// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A thread of a run: it keeps the clock of the thread that started it (engine/clock/RunClock.h)
// and, while that clock models time, takes part in it from its first instruction to its last.
// Joining it waits, in modelled time, for it to end.
#include <functional>
#include <optional>
#include <thread>

#include "engine/clock/RunClock.h"

namespace pinscope {

class RunThread {
public:
    RunThread() = default;
    explicit RunThread(std::function<void()> body);
    RunThread(RunThread&&) noexcept = default;
    RunThread& operator=(RunThread&&) noexcept = default;
    ~RunThread() = default;  // as std::thread: join it first

    bool joinable() const { return thread_.joinable(); }
    void join();

private:
    std::thread thread_;
    RunClock* clock_ = nullptr;
    std::optional<RunClock::Ticket> ticket_;
};

}  // namespace pinscope
