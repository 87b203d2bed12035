// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What the "What limits this run" panel shows, kept from the frames: the bottleneck (the sliding
// window's while the run goes, the whole run's once it ended), the machine's memory, when new
// predictions are due (the bottleneck settled on a configuration not predicted for yet), and a
// suggestion the user applied with the batches/s measured since it took effect.
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
    bool finished = false;   // another change or the run's end closed the segment
    TimeNs segment_start = 0;
    double segment_s = 0;    // how long the segment has run
    std::optional<double> measured_batches_per_s;  // once kMeasureS past the warm-up
};

class LimitsModel {
public:
    // As the prediction does (AdviceOptions: the last 1 s of a 2 s run), the first second of the
    // new segment is left out of the measurement, and a figure is given after one more second.
    static constexpr TimeNs kWarmUp = 1'000'000'000;
    static constexpr TimeNs kMeasureS = 1'000'000'000;
    // The window's bottleneck counts once the window holds only the new configuration and the
    // resource has stayed the same this long; to predict again for the same configuration (the
    // resource moved), longer.
    static constexpr TimeNs kSettled = 1'200'000'000;
    static constexpr TimeNs kStableFirst = 1'000'000'000;
    static constexpr TimeNs kStableAgain = 3'000'000'000;

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

    // A basis for predictions when they are due (the run's summary with the bottleneck shown);
    // handing it out marks it requested.
    std::optional<RunSummary> take_prediction_due();

    // The user applied `advice`: its segment starts at the next reconfiguration marker, or with
    // the next live run when none is going.
    void applied(const Advice& advice);
    const std::optional<AppliedAdvice>& applied_advice() const { return applied_; }

private:
    void measure(const RunFrame& frame);
    bool due() const;

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
    std::string requested_;            // configuration and resource predicted for last
    std::string requested_config_;
    std::optional<AppliedAdvice> applied_;
    std::uint64_t measured_batches_ = 0;
};

}  // namespace pinscope::ui
