// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Waiting for something to happen, without guessing how long it takes on this machine: polls
// `ready` every 5 ms and gives up (false) after `timeout`. Never use a sleep to show that
// something did *not* happen; check the state once what should have changed it has happened.
#include <chrono>
#include <functional>
#include <thread>

namespace pinscope::test {

inline bool eventually(const std::function<bool()>& ready,
                       std::chrono::milliseconds timeout = std::chrono::seconds(20)) {
    const auto until = std::chrono::steady_clock::now() + timeout;
    while (!ready()) {
        if (std::chrono::steady_clock::now() > until) return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    return true;
}

}  // namespace pinscope::test
