// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/common/InterruptSignals.h"

#include <atomic>
#include <csignal>

namespace pinscope::app {

namespace {

std::atomic<int> g_signal{0};  // the first signal that came, 0 for none
static_assert(std::atomic<int>::is_always_lock_free, "set from a signal handler");

struct sigaction g_old_int {};
struct sigaction g_old_term {};

extern "C" void on_interrupt(int signal) {
    int none = 0;
    g_signal.compare_exchange_strong(none, signal);
}

}  // namespace

InterruptSignals::InterruptSignals() {
    g_signal.store(0);
    struct sigaction action {};
    action.sa_handler = on_interrupt;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESETHAND;  // the second Ctrl-C gets the default action
    sigaction(SIGINT, &action, &g_old_int);
    sigaction(SIGTERM, &action, &g_old_term);
}

InterruptSignals::~InterruptSignals() {
    sigaction(SIGINT, &g_old_int, nullptr);
    sigaction(SIGTERM, &g_old_term, nullptr);
}

bool InterruptSignals::raised() { return g_signal.load() != 0; }

int InterruptSignals::exit_status() {
    const int signal = g_signal.load();
    return signal == 0 ? 0 : 128 + signal;
}

}  // namespace pinscope::app
