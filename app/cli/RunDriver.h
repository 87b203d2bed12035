// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// One engine run driven from the command line: the engine's messages go to stderr, and Ctrl-C
// (SIGINT or SIGTERM) stops the run cleanly instead of killing the process.
#include <atomic>
#include <memory>
#include <vector>

#include "app/common/InterruptSignals.h"
#include "engine/config/LoaderConfig.h"
#include "engine/runner/Runner.h"

namespace pinscope::cli {

// How a run is measured: the sliding window its steady-state metrics are taken over, and whether
// every span is traced (off only to measure what tracing costs).
struct Measurement {
    double window_s = 1.0;
    bool trace_all_spans = true;
    RunClock::Pace pace = RunClock::Pace::WallClock;  // Unpaced: modelled time as fast as it goes
};

// A reconfiguration at a time from the run's start (run --change).
struct TimedChange {
    double at_s = 0;
    LoaderConfig config;
};

class RunDriver {
public:
    // Installs the signal handlers for its lifetime; a second signal kills as usual, for a stop
    // that hangs.
    // `recorder` (may be null) is fed everything the runs record.
    explicit RunDriver(std::shared_ptr<RunRecorder> recorder, Measurement measurement = {});
    ~RunDriver();
    RunDriver(const RunDriver&) = delete;
    RunDriver& operator=(const RunDriver&) = delete;

    // Starts `config` (throws what Runner::start throws) and returns once every engine thread has
    // ended: by the run's length, an error or an interrupt. True when it was interrupted.
    // `changes`, by time, are applied as the run reaches them.
    bool run(const LoaderConfig& config, const std::vector<TimedChange>& changes = {});
    // Whether Ctrl-C was pressed since this driver was made.
    static bool interrupted();
    const Runner& runner() const { return runner_; }
    // Whether the engine has already printed an error, so that it need not be said twice.
    bool engine_reported_error() const { return reported_error_->load(); }

private:
    app::InterruptSignals signals_;
    std::shared_ptr<std::atomic<bool>> reported_error_;
    Runner runner_;
};

}  // namespace pinscope::cli
