// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/calibrate/CalibrationSteps.h"

#include <memory>
#include <utility>

#include "engine/clock/SteadyClock.h"
#include "engine/text/TextFormat.h"

namespace pinscope {
namespace {

std::string calibration_step_line(const std::string& step, double fraction, double seconds_in) {
    return "[" + format_fixed(100 * fraction, 0) + "%] " + step + " (" + format_fixed(seconds_in, 0) + " s in)";
}

}  // namespace

CalibrationProgress print_calibration_steps(std::ostream& out, std::function<double()> seconds_since_start) {
    if (!seconds_since_start) {
        const TimeNs start = now_ns();
        seconds_since_start = [start] { return static_cast<double>(now_ns() - start) / 1e9; };
    }
    auto last_step = std::make_shared<std::string>();
    return [&out, clock = std::move(seconds_since_start), last_step](const std::string& step, double fraction) {
        if (step == *last_step) return;  // one line a step
        *last_step = step;
        out << calibration_step_line(step, fraction, clock()) << '\n';
    };
}

}  // namespace pinscope
