// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/calibrate/CalibrationSteps.h"

#include <sstream>

#include <gtest/gtest.h>

namespace pinscope {
namespace {

TEST(CalibrationSteps, EachStepIsOneLineWithTheSecondsSinceCalibratingBegan) {
    std::ostringstream out;
    double now = 0;
    const CalibrationProgress progress = print_calibration_steps(out, [&] { return now; });
    progress("copy bandwidth, h2d pinned", 0.0);
    now = 12.4;
    progress("copy bandwidth, h2d pinned", 0.1);  // the same step advancing: no new line
    now = 212.6;
    progress("host rates alone and under load", 0.95);
    now = 331;
    progress("done", 1.0);
    EXPECT_EQ(out.str(),
              "[0%] copy bandwidth, h2d pinned (0 s in)\n"
              "[95%] host rates alone and under load (213 s in)\n"
              "[100%] done (331 s in)\n");
}

TEST(CalibrationSteps, WithoutAClockItCountsFromItsMaking) {
    std::ostringstream out;
    const CalibrationProgress progress = print_calibration_steps(out);
    progress("host cores", 0.9);
    EXPECT_EQ(out.str(), "[90%] host cores (0 s in)\n");
}

}  // namespace
}  // namespace pinscope
