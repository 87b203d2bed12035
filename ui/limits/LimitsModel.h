// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What the "What limits this run" panel shows, kept from the frames: the bottleneck (the sliding
// window's while the run goes, the whole run's once it ended), the machine's memory, which
// bottleneck predictions are for once it has settled, and a suggestion the user applied with the
// batches/s measured since it took effect.
#include <cstdint>
#include <optional>
#include <string>

#include "engine/analysis/Advice.h"
#include "engine/runner/RunFrame.h"

namespace pinscope::ui {

// A suggestion applied, and what its segment measured.
struct AppliedAdvice {
    Advice advice;
    bool started = false;    // its segment began (the engine reconfigured, or a new run started)
    bool finished = false;   // the measurement is final: kMeasured reached, another change, or the run's end
    TimeNs segment_start = 0;
    double segment_s = 0;    // how long the segment had run when last measured
    std::optional<double> measured_batches_per_s;  // once kMeasureFirst past the warm-up
};

class LimitsModel {
public:
    // As the prediction does (AdviceOptions: the last 1 s of a 2 s run), the first second of the
    // new segment is left out of the measurement; a figure is given after one more second, and
    // it is final 5 s after the change. Meanwhile nothing is predicted: the prediction runs would
    // take the CPU from the run being measured.
    static constexpr TimeNs kWarmUp = 1'000'000'000;
    static constexpr TimeNs kMeasureFirst = 1'000'000'000;
    static constexpr TimeNs kMeasured = 5'000'000'000;
    // The window's bottleneck counts once the window holds only the new configuration and the
    // resource has stayed the same this long.
    static constexpr TimeNs kSettled = 1'200'000'000;
    static constexpr TimeNs kStable = 1'000'000'000;

    // Takes the frame; returns true when what to predict changed (the configuration or the run):
    // the suggestions shown are then stale.
    bool take(const RunFrame& frame);

    const Bottleneck& bottleneck() const { return bottleneck_; }
    bool whole_run() const { return whole_run_; }
    bool recorded() const { return recorded_; }
    bool running() const { return running_; }   // a live run that has not ended
    bool has_run() const { return has_run_; }
    const MemoryPressure& memory() const { return memory_; }
    // The recorded run's own suggestions (a recording keeps what advise() said after the run).
    const std::vector<Advice>& recorded_advice() const { return recorded_advice_; }

    // The bottleneck predictions are for, once it has settled (the whole run's once the run
    // ended); nothing while a suggestion applied is being measured, or for a recorded run.
    std::optional<Resource> settled() const;
    // What to predict from: the run's summary with the bottleneck shown.
    RunSummary basis() const;

    // The user applied `advice`: its segment starts at the next reconfiguration marker, or with
    // the next live run when none is going.
    void applied(const Advice& advice);
    const std::optional<AppliedAdvice>& applied_advice() const { return applied_; }

private:
    void measure(const RunFrame& frame);

    Bottleneck bottleneck_;
    bool whole_run_ = false;
    bool recorded_ = false;
    bool running_ = false;
    bool has_run_ = false;
    MemoryPressure memory_;
    std::vector<Advice> recorded_advice_;
    RunSummary summary_;               // the last frame's
    TimeNs time_ = 0;
    std::string config_;               // the configuration in force, as JSON text
    TimeNs segment_start_ = 0;
    Resource stable_resource_ = Resource::None;
    TimeNs stable_since_ = 0;
    std::optional<AppliedAdvice> applied_;
    std::uint64_t measured_batches_ = 0;
};

}  // namespace pinscope::ui
