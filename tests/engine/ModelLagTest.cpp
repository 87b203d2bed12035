// The model lag says when this machine could not keep up with the modelled host: work that a
// thread begins on time costs nothing, work it begins late counts as late.
#include <gtest/gtest.h>

#include "clock/ModelLag.h"
#include "device/HardwareProfile.h"
#include "host/HostWork.h"

namespace pinscope {
namespace {

TEST(ModelLag, IsTheLateShareOfModelledAndLateTime) {
    ModelLag lag;
    EXPECT_EQ(lag.share(), 0.0);
    lag.add(3'000, 0);
    lag.add(5'000, -2'000);  // early: nothing late
    EXPECT_EQ(lag.share(), 0.0);
    lag.add(0, 2'000);
    EXPECT_DOUBLE_EQ(lag.share(), 0.2);
}

TEST(ModelLag, ModelledHostWorkBegunOnTimeIsNotLateAndWorkBegunLateIs) {
    const HardwareProfile profile = load_profile(kDefaultProfile);
    auto lag = std::make_shared<ModelLag>();
    auto host = make_host_work(HostMode::Modeled, profile, nullptr, {}, lag);
    // 100 us of CPU work whose input was ready just now: on time.
    host->load_samples(nullptr, 0, 1, 100, 0, now_ns());
    EXPECT_EQ(lag->share(), 0.0);
    // The same work whose input was ready 50 ms ago: this thread came 49 ms past the model's slack.
    host->load_samples(nullptr, 0, 1, 100, 0, now_ns() - 50'000'000);
    EXPECT_GT(lag->share(), 0.99);
}

}  // namespace
}  // namespace pinscope
