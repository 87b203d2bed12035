// SPDX-License-Identifier: GPL-3.0-or-later
// Modelled durations become integer nanoseconds without overflow, whatever a profile holds.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "engine/clock/SteadyClock.h"

namespace pinscope {
namespace {

TEST(SteadyClock, DurationsAreWholeNanosecondsHeldWithinBounds) {
    EXPECT_EQ(duration_ns(1500.7), 1500);
    EXPECT_EQ(duration_ns(0), 0);
    EXPECT_EQ(duration_ns(-5), 0);
    EXPECT_EQ(duration_ns(std::nan("")), 0);
    // 1e300 us once overflowed the conversion (undefined behaviour) and cost nothing.
    const TimeNs huge = duration_ns(1e300 * 1e3);
    EXPECT_GT(huge, TimeNs{100} * 24 * 3600 * 1'000'000'000);
    EXPECT_EQ(duration_ns(std::numeric_limits<double>::infinity()), huge);
    EXPECT_GT(now_ns() + huge, now_ns());  // a deadline from it does not wrap
}

}  // namespace
}  // namespace pinscope
