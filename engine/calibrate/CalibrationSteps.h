// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// calibrate's progress as a person watching it reads it: one line a step, with the seconds since
// calibrating began. A step's share of the percentage is a guess (the host's and the pipeline's
// steps near the end take most of the time); the seconds are what each step really took.
#include <functional>
#include <ostream>
#include <string>

#include "engine/calibrate/Calibration.h"

namespace pinscope {

// How long a whole calibration takes where it was timed: 268 to 369 s on the 16-core H100 and
// H200 VMs (2026-11-28 to 2026-12-04, docs/benchmarks.md), the pipeline's short runs included.
inline constexpr const char* kCalibrationTakes = "about five to six minutes on a 16-core GPU server";

// A progress callback for calibrate_profile that writes a line to `out` when the step changes,
// "[95%] host rates alone and under load (212 s in)";
// `seconds_since_start` is the clock (the steady clock from the callback's making, by default).
CalibrationProgress print_calibration_steps(std::ostream& out, std::function<double()> seconds_since_start = {});

}  // namespace pinscope
