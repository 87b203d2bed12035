// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What one lesson step's run left: the whole-run summary and the last second's figures and
// bottleneck (the steady state, once the pinned pool has warmed up), or why it did not run.
#include <cstdint>
#include <string>

#include "engine/analysis/Bottleneck.h"
#include "engine/metrics/Metrics.h"
#include "engine/runner/RunRecord.h"

namespace pinscope {

struct StepResult {
    bool ran = false;
    std::string refused;            // the configuration's refusal, when it did not run
    RunSummary summary;             // whole run
    Metrics window;                 // the last kLessonWindowS of it
    Bottleneck window_bottleneck;   // what bounded that window
    std::int64_t recorded_run = 0;  // its run number in the session's recording; 0: not recorded
};

// The window lesson figures are taken over: the last second, as the window's numbers show them.
inline constexpr double kLessonWindowS = 1.0;

}  // namespace pinscope
