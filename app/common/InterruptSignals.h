// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Ctrl-C (SIGINT) or SIGTERM as a request to stop early rather than a kill, for programs that can
// stop cleanly and still write what they did (pinscope-cli's run and sweep, pinscope's window and
// headless run). A second signal of the same kind kills as usual, for a stop that hangs.
namespace pinscope::app {

class InterruptSignals {
public:
    InterruptSignals();   // clears what came before and installs the handlers
    ~InterruptSignals();  // restores the handlers that were there before
    InterruptSignals(const InterruptSignals&) = delete;
    InterruptSignals& operator=(const InterruptSignals&) = delete;

    // Whether a signal came since the last InterruptSignals was made.
    static bool raised();
    // The exit status of a program that a signal stopped, as a shell reports a killed one:
    // 128 + the first signal's number (130 for SIGINT, 143 for SIGTERM); 0 when none came.
    static int exit_status();
};

}  // namespace pinscope::app
