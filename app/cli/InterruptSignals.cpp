#include "InterruptSignals.h"

#include <atomic>
#include <csignal>

namespace pinscope::cli {

namespace {

std::atomic<bool> g_interrupted{false};
static_assert(std::atomic<bool>::is_always_lock_free, "set from a signal handler");

struct sigaction g_old_int {};
struct sigaction g_old_term {};

extern "C" void on_interrupt(int) { g_interrupted.store(true); }

}  // namespace

InterruptSignals::InterruptSignals() {
    g_interrupted.store(false);
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

bool InterruptSignals::raised() { return g_interrupted.load(); }

}  // namespace pinscope::cli
