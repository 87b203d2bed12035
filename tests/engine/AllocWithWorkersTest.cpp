// SPDX-License-Identifier: GPL-3.0-or-later
// A run tells the device how many loader workers it has, so that the emulated device charges a
// batch's cudaHostAlloc as calibrate timed it with workers running where the run has them.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "engine/device/HardwareProfile.h"
#include "engine/text/TextFormat.h"
#include "engine/text/Units.h"
#include "tests/engine/RecordedRun.h"
#include "tests/support/TempDir.h"

namespace pinscope {
namespace {

// The median span of the run's cudaHostAllocs, in us.
double median_alloc_us(const RunRecord& record) {
    std::vector<double> us;
    for (const Span& span : record.spans)
        if (span.stage == Stage::Alloc) us.push_back(static_cast<double>(span.duration()) / 1e3);
    EXPECT_FALSE(us.empty());
    std::sort(us.begin(), us.end());
    return us.empty() ? 0 : us[us.size() / 2];
}

struct MedianAllocs {
    double with_workers_us = 0;
    double without_us = 0;
};

// The median cudaHostAlloc of a modelled pin_mode alloc run on `profile` with two workers, and of
// the same run with none, batches of four f32 samples of `sample_shape`.
MedianAllocs median_allocs(const HardwareProfile& profile, std::vector<std::uint32_t> sample_shape) {
    const test::TempDir scratch;
    const std::string path = (scratch.path() / "alloc.json").string();
    std::ofstream(path) << json_text(to_json(profile), 2);
    LoaderConfig config = test::small_config(2, true, 12);
    config.device = "emulated:" + path;
    config.host = HostMode::Modeled;
    config.pin_mode = PinMode::Alloc;
    config.sample_shape = std::move(sample_shape);
    MedianAllocs medians;
    const RunRecord with_workers = test::run_to_end(config);
    EXPECT_EQ(with_workers.summary.error, "");
    medians.with_workers_us = median_alloc_us(with_workers);
    config.num_workers = 0;
    config.prefetch_factor.reset();
    const RunRecord without = test::run_to_end(config);
    EXPECT_EQ(without.summary.error, "");
    medians.without_us = median_alloc_us(without);
    return medians;
}

TEST(AllocWithWorkers, ARunWithWorkersChargesCalibratesFigureWithWorkersAndOneWithoutDoesNot) {
    HardwareProfile profile = load_profile("h100-pcie5");
    profile.pipeline_host_alloc_us = SizeCurve{{2 * kMiB}, {500.0}};
    profile.pipeline_host_alloc_workers_us = SizeCurve{{2 * kMiB}, {20'000.0}};
    const MedianAllocs medians = median_allocs(profile, {256, 1024});  // 4 MiB batches
    EXPECT_GE(medians.with_workers_us, 40'000.0) << "the with-workers curve, scaled to 4 MiB";
    EXPECT_LT(medians.without_us, 20'000.0) << "the no-worker figure";
}

// Without workers the driver hands a small batch the block just freed, which calibrate's no-worker
// runs time at 1 and 1.5 MiB; with workers it did not, and below the with-workers curve's smallest
// batch the model charges the probe's cost, not the no-worker run's.
TEST(AllocWithWorkers, ASmallBatchWithWorkersIsChargedTheProbesCostNotTheLoneBatchsCachedOne) {
    HardwareProfile profile = load_profile("h100-pcie5");
    profile.host_alloc_us = SizeCurve{{kMiB, 2 * kMiB}, {20'000.0, 40'000.0}};
    profile.pipeline_host_alloc_us = SizeCurve{{kMiB, 2 * kMiB}, {10.0, 500.0}};
    profile.pipeline_host_alloc_workers_us = SizeCurve{{2 * kMiB}, {1'000.0}};
    const MedianAllocs medians = median_allocs(profile, {64, 1024});  // 1 MiB batches
    EXPECT_GE(medians.with_workers_us, 20'000.0) << "the probe's cost at 1 MiB";
    EXPECT_LT(medians.without_us, 1'000.0) << "the no-worker run's 10 us";
}

}  // namespace
}  // namespace pinscope
