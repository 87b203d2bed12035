#pragma once
// Ctrl-C (SIGINT or SIGTERM) as a request to stop early rather than a kill, for commands that can
// stop cleanly and still report what they did. A second signal kills as usual, for a stop that hangs.
namespace pinscope::cli {

class InterruptSignals {
public:
    InterruptSignals();   // clears the flag and installs the handlers
    ~InterruptSignals();  // restores the handlers that were there before
    InterruptSignals(const InterruptSignals&) = delete;
    InterruptSignals& operator=(const InterruptSignals&) = delete;

    // Whether a signal came since the last InterruptSignals was made.
    static bool raised();
};

}  // namespace pinscope::cli
