// SPDX-License-Identifier: GPL-3.0-or-later
// The model lag says when this machine could not keep up with the modelled host: work that a
// thread begins on time adds nothing, work it begins late adds how late it was.
#include <gtest/gtest.h>

#include "engine/clock/ModelLag.h"
#include "engine/device/HardwareProfile.h"
#include "engine/host/HostWork.h"

namespace pinscope {
namespace {

TEST(ModelLag, IsTheLateTimeOverTheRunsWallTime) {
    ModelLag lag;
    EXPECT_EQ(lag.share_of(1'000'000), 0.0);
    lag.add(-2'000);  // early: nothing late
    EXPECT_EQ(lag.share_of(1'000'000), 0.0);
    lag.add(20'000);
    lag.add(30'000);
    EXPECT_DOUBLE_EQ(lag.share_of(1'000'000), 0.05);
    EXPECT_EQ(lag.share_of(0), 0.0);
}

TEST(ModelLag, ModelledHostWorkBegunOnTimeIsNotLateAndWorkBegunLateIs) {
    const HardwareProfile profile = load_profile(kDefaultProfile);
    auto lag = std::make_shared<ModelLag>();
    auto host = make_host_work(HostMode::Modeled, profile, nullptr, {}, lag);
    // 100 us of CPU work whose input was ready just now: on time.
    host->load_samples(nullptr, 0, 1, 100, 0, now_ns());
    EXPECT_EQ(lag->share_of(1'000'000'000), 0.0);
    // The same work whose input was ready 50 ms ago: this thread came 49 ms past the model's 1 ms slack.
    host->load_samples(nullptr, 0, 1, 100, 0, now_ns() - 50'000'000);
    EXPECT_GE(lag->share_of(1'000'000'000), 0.049);
}

}  // namespace
}  // namespace pinscope
