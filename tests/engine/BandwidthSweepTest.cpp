// SPDX-License-Identifier: GPL-3.0-or-later
// The bandwidth sweep: sizes, repeats, warm-up, median, the plain loop, progress and cancelling,
// invalid options, and a whole sweep on the emulated device.
#include <map>
#include <tuple>

#include <gtest/gtest.h>

#include "engine/BuildConfig.h"
#include "engine/bandwidth/BandwidthSweep.h"
#include "engine/bandwidth/TimerSweep.h"
#include "engine/device/HardwareProfile.h"
#include "engine/device/factory/CopyTimerFactory.h"
#include "engine/device/factory/DeviceFactory.h"
#include "engine/text/Units.h"

namespace pinscope {
namespace {

// Answers each point's calls with rates from a script: the first call of a point (its warm-up)
// gets warm_up_rate, the later ones the script in turn. Records every call.
class ScriptedTimer final : public CopyTimer {
public:
    struct Call {
        CopyDirection direction;
        HostMemoryKind memory;
        std::size_t bytes;
        int repeats;
        bool traced;
    };

    std::vector<double> traced_rates{10, 30, 20, 90, 40};  // GB/s: median 30, mean 38
    std::vector<double> untraced_rates{11, 31, 21, 91, 41};
    double warm_up_rate = 0.5;
    std::vector<Call> calls;
    mutable std::size_t calls_before_link = 0;

    DeviceInfo info() const override { return {DeviceKind::Cuda, "Scripted GPU", "", "0000:19:00.0"}; }
    std::string link_name() const override {
        calls_before_link = calls.size();
        return "PCIe Gen5 x16";
    }
    double link_gb_per_s() const override { return 63.0; }

    double time_copies(CopyDirection direction, HostMemoryKind memory, std::size_t bytes, int repeats,
                       bool traced) override {
        calls.push_back({direction, memory, bytes, repeats, traced});
        int& count = counts_[{direction, memory, bytes, traced}];
        const std::vector<double>& script = traced ? traced_rates : untraced_rates;
        const double rate = count == 0 ? warm_up_rate : script[static_cast<std::size_t>(count - 1) % script.size()];
        ++count;
        return static_cast<double>(bytes) * repeats / (rate * 1e9);
    }

private:
    std::map<std::tuple<CopyDirection, HostMemoryKind, std::size_t, bool>, int> counts_;
};

BandwidthOptions options_for(std::vector<CopyDirection> directions, std::vector<HostMemoryKind> memories) {
    BandwidthOptions options;
    options.directions = std::move(directions);
    options.memories = std::move(memories);
    return options;
}

const BandwidthProgress kNoProgress;

TEST(BandwidthSizes, DoubleFromMinToMax) {
    const std::vector<std::size_t> sizes = bandwidth_sizes(4 * kKiB, kGiB);
    ASSERT_EQ(sizes.size(), 19u);
    EXPECT_EQ(sizes.front(), 4 * kKiB);
    EXPECT_EQ(sizes.back(), kGiB);
    for (std::size_t i = 1; i < sizes.size(); ++i) EXPECT_EQ(sizes[i], 2 * sizes[i - 1]);

    EXPECT_EQ(bandwidth_sizes(kMiB, kMiB), std::vector<std::size_t>{kMiB});
    EXPECT_EQ(bandwidth_sizes(3 * kKiB, 10 * kKiB), (std::vector<std::size_t>{3 * kKiB, 6 * kKiB, 10 * kKiB}));
    EXPECT_EQ(bandwidth_sizes(1, 4), (std::vector<std::size_t>{1, 2, 4}));
    EXPECT_TRUE(bandwidth_sizes(8, 4).empty());
    EXPECT_TRUE(bandwidth_sizes(0, 4).empty());
    const std::size_t huge = std::numeric_limits<std::size_t>::max();
    EXPECT_EQ(bandwidth_sizes(huge / 2 + 1, huge).size(), 2u);  // no overflow at the top
}

TEST(BandwidthSizes, RepeatsMoveAbout64MiBWithinBounds) {
    EXPECT_EQ(bandwidth_repeats(4 * kKiB), 100);    // capped
    EXPECT_EQ(bandwidth_repeats(kMiB), 64);
    EXPECT_EQ(bandwidth_repeats(3 * kMiB), 22);     // rounded up: at least 64 MiB
    EXPECT_EQ(bandwidth_repeats(16 * kMiB), 4);
    EXPECT_EQ(bandwidth_repeats(kGiB), 4);          // a few copies even when one is plenty
}

TEST(BandwidthSweep, MedianOfSamplesAfterADiscardedWarmUp) {
    ScriptedTimer timer;
    const BandwidthOptions options = options_for({CopyDirection::D2H}, {HostMemoryKind::Pageable});
    const BandwidthResult result = sweep_copy_timer(timer, options, {kMiB}, kNoProgress);
    ASSERT_EQ(result.points.size(), 1u);
    const BandwidthPoint& point = result.points[0];
    EXPECT_EQ(point.direction, CopyDirection::D2H);
    EXPECT_EQ(point.memory, HostMemoryKind::Pageable);
    EXPECT_EQ(point.bytes, kMiB);
    EXPECT_NEAR(point.gb_per_s, 30, 1e-9);  // median of 10, 30, 20, 90, 40; not the 0.5 warm-up
    EXPECT_NEAR(point.min_gb_per_s, 10, 1e-9);
    EXPECT_NEAR(point.max_gb_per_s, 90, 1e-9);
    EXPECT_EQ(point.samples, 5);
    EXPECT_EQ(point.plain_loop_gb_per_s, 0);

    ASSERT_EQ(timer.calls.size(), 6u);  // warm-up + 5
    for (const auto& call : timer.calls) {
        EXPECT_TRUE(call.traced);
        EXPECT_EQ(call.repeats, 64);
    }
    EXPECT_EQ(result.device.name, "Scripted GPU");
    EXPECT_EQ(result.link_name, "PCIe Gen5 x16");
    EXPECT_DOUBLE_EQ(result.link_gb_per_s, 63.0);
    EXPECT_EQ(timer.calls_before_link, 6u);  // asked after the copies, while the link is trained up
}

TEST(BandwidthSweep, EvenSampleCountAveragesTheMiddleTwo) {
    ScriptedTimer timer;
    BandwidthOptions options = options_for({CopyDirection::H2D}, {HostMemoryKind::Pageable});
    options.samples = 4;  // 10, 30, 20, 90 -> (20 + 30) / 2
    const BandwidthResult result = sweep_copy_timer(timer, options, {kMiB}, kNoProgress);
    ASSERT_EQ(result.points.size(), 1u);
    EXPECT_NEAR(result.points[0].gb_per_s, 25, 1e-9);
}

TEST(BandwidthSweep, PlainLoopOnlyForHostToDevicePinned) {
    ScriptedTimer timer;
    const BandwidthOptions options = options_for({CopyDirection::H2D, CopyDirection::D2H},
                                                 {HostMemoryKind::Pinned, HostMemoryKind::WriteCombined});
    const BandwidthResult result = sweep_copy_timer(timer, options, {64 * kKiB, 16 * kMiB}, kNoProgress);
    ASSERT_EQ(result.points.size(), 8u);
    std::size_t untraced_calls = 0;
    for (const auto& call : timer.calls) {
        if (call.traced) continue;
        ++untraced_calls;
        EXPECT_EQ(call.direction, CopyDirection::H2D);
        EXPECT_EQ(call.memory, HostMemoryKind::Pinned);
    }
    EXPECT_EQ(untraced_calls, 2u * 6u);  // two sizes, warm-up + 5 each
    for (const BandwidthPoint& point : result.points) {
        const bool plain = point.direction == CopyDirection::H2D && point.memory == HostMemoryKind::Pinned;
        EXPECT_NEAR(point.gb_per_s, 30, 1e-9);
        EXPECT_NEAR(point.plain_loop_gb_per_s, plain ? 31 : 0, 1e-9);
    }
}

TEST(BandwidthSweep, SeriesInOrderSizesAscending) {
    ScriptedTimer timer;
    const BandwidthOptions options =
        options_for({CopyDirection::D2H, CopyDirection::H2D}, {HostMemoryKind::Pageable, HostMemoryKind::Pinned});
    const std::vector<std::size_t> sizes = bandwidth_sizes(4 * kKiB, 64 * kKiB);
    const BandwidthResult result = sweep_copy_timer(timer, options, sizes, kNoProgress);
    ASSERT_EQ(result.points.size(), 4u * sizes.size());
    std::size_t i = 0;
    for (const CopyDirection direction : options.directions)
        for (const HostMemoryKind memory : options.memories)
            for (const std::size_t bytes : sizes) {
                EXPECT_EQ(result.points[i].direction, direction);
                EXPECT_EQ(result.points[i].memory, memory);
                EXPECT_EQ(result.points[i].bytes, bytes);
                ++i;
            }
}

TEST(BandwidthSweep, ProgressRisesToOne) {
    ScriptedTimer timer;
    const BandwidthOptions options;  // both directions, three memories
    std::vector<double> fractions;
    const BandwidthResult result = sweep_copy_timer(timer, options, bandwidth_sizes(kKiB, 64 * kMiB),
                                                    [&](double fraction, const BandwidthPoint&) {
                                                        fractions.push_back(fraction);
                                                        return true;
                                                    });
    ASSERT_EQ(fractions.size(), result.points.size());
    EXPECT_EQ(result.points.size(), 6u * 17u);
    EXPECT_TRUE(std::is_sorted(fractions.begin(), fractions.end()));
    EXPECT_GT(fractions.front(), 0);
    EXPECT_DOUBLE_EQ(fractions.back(), 1.0);
}

TEST(BandwidthSweep, ProgressReturningFalseCancels) {
    ScriptedTimer timer;
    const BandwidthOptions options;
    int calls = 0;
    std::vector<std::size_t> seen;
    const BandwidthResult result =
        sweep_copy_timer(timer, options, bandwidth_sizes(4 * kKiB, kMiB), [&](double, const BandwidthPoint& point) {
            seen.push_back(point.bytes);
            return ++calls < 3;
        });
    ASSERT_EQ(result.points.size(), 3u);  // the point that cancelled is kept
    EXPECT_EQ(result.link_name, "PCIe Gen5 x16");
    EXPECT_EQ(seen, (std::vector<std::size_t>{4 * kKiB, 8 * kKiB, 16 * kKiB}));
    for (std::size_t i = 0; i < 3; ++i) EXPECT_EQ(result.points[i].bytes, seen[i]);
    EXPECT_EQ(calls, 3);
}

TEST(BandwidthSweep, TimerReportingNoTimeIsADeviceError) {
    class BrokenTimer final : public CopyTimer {
        DeviceInfo info() const override { return {DeviceKind::Cuda, "Broken GPU", "", ""}; }
        std::string link_name() const override { return ""; }
        double link_gb_per_s() const override { return 0; }
        double time_copies(CopyDirection, HostMemoryKind, std::size_t, int, bool) override { return 0; }
    } timer;
    try {
        sweep_copy_timer(timer, BandwidthOptions{}, {kMiB}, kNoProgress);
        ADD_FAILURE() << "no error";
    } catch (const DeviceError& error) {
        EXPECT_NE(std::string(error.what()).find("64 h2d copies of 1 MiB from pinned memory on Broken GPU"),
                  std::string::npos)
            << error.what();
    }
}

std::string first_issue_field(const BandwidthOptions& options) {
    const auto issues = find_bandwidth_issues(options);
    return issues.empty() ? "" : issues.front().field;
}

TEST(BandwidthOptions, InvalidOptionsNameTheField) {
    EXPECT_EQ(first_issue_field(BandwidthOptions{}), "");
    BandwidthOptions options;
    options.min_bytes = 0;
    EXPECT_EQ(first_issue_field(options), "min_bytes");
    options = {};
    options.min_bytes = kMaxBandwidthBytes + 1;
    options.max_bytes = kMaxBandwidthBytes + 1;
    EXPECT_EQ(first_issue_field(options), "min_bytes");
    options = {};
    options.min_bytes = kMiB;
    options.max_bytes = kKiB;
    EXPECT_EQ(first_issue_field(options), "max_bytes");
    EXPECT_NE(find_bandwidth_issues(options).front().allowed.find("from min_bytes (1048576)"), std::string::npos);
    options = {};
    options.directions.clear();
    EXPECT_EQ(first_issue_field(options), "directions");
    options = {};
    options.memories = {HostMemoryKind::Pinned, HostMemoryKind::Pinned};
    EXPECT_EQ(first_issue_field(options), "memories");
    options = {};
    options.samples = 0;
    EXPECT_EQ(first_issue_field(options), "samples");

    options = {};
    options.device = "emulated";
    options.samples = 0;
    try {
        run_bandwidth_sweep(options, nullptr);
        ADD_FAILURE() << "no error";
    } catch (const ConfigError& error) {
        EXPECT_EQ(error.issue().field, "samples");
    }
    options.samples = 1;
    options.device = "gpu";
    EXPECT_THROW(run_bandwidth_sweep(options, nullptr), ConfigError);
}

TEST(BandwidthSweep, EmulatedSweepShowsTheProfileCurves) {
    BandwidthOptions options;
    options.device = "emulated";
    const HardwareProfile profile = load_profile(kDefaultProfile);
    const BandwidthResult result = run_bandwidth_sweep(options, nullptr);
    EXPECT_EQ(result.device.kind, DeviceKind::Emulated);
    EXPECT_EQ(result.device.profile, kDefaultProfile);
    EXPECT_EQ(result.link_name, profile.link_name);
    EXPECT_DOUBLE_EQ(result.link_gb_per_s, profile.link_gb_per_s);
    EXPECT_EQ(result.note, "");
    ASSERT_EQ(result.points.size(), 2u * 3u * 19u);
    for (const BandwidthPoint& point : result.points) {
        const double bytes = static_cast<double>(point.bytes);
        const bool h2d = point.direction == CopyDirection::H2D;
        const SizeCurve& curve = point.memory == HostMemoryKind::Pageable
                                     ? (h2d ? profile.h2d_pageable_gb_per_s : profile.d2h_pageable_gb_per_s)
                                     : (h2d ? profile.h2d_pinned_gb_per_s : profile.d2h_pinned_gb_per_s);
        EXPECT_NEAR(point.gb_per_s, curve.at(bytes), 1e-9 * curve.at(bytes));
        EXPECT_NEAR(point.min_gb_per_s, point.gb_per_s, 1e-9 * point.gb_per_s);
        EXPECT_NEAR(point.max_gb_per_s, point.gb_per_s, 1e-9 * point.gb_per_s);
        if (h2d && point.memory == HostMemoryKind::Pinned)
            EXPECT_NEAR(point.plain_loop_gb_per_s, point.gb_per_s, 1e-9 * point.gb_per_s);
        else
            EXPECT_EQ(point.plain_loop_gb_per_s, 0);
    }
}

TEST(BandwidthSweep, AutoFallsBackToEmulatedSayingWhy) {
    if (!list_cuda_devices().devices.empty()) GTEST_SKIP() << "a CUDA GPU is present: auto picks it";
    BandwidthOptions options;
    options.min_bytes = options.max_bytes = kMiB;
    const BandwidthResult result = run_bandwidth_sweep(options, nullptr);
    EXPECT_EQ(result.device.kind, DeviceKind::Emulated);
    EXPECT_NE(result.note.find("using the emulated device"), std::string::npos) << result.note;
    EXPECT_EQ(result.points.size(), 6u);
}

TEST(OpenCopyTimer, CudaWithoutCudaSaysWhy) {
    if (PINSCOPE_HAVE_CUDA) GTEST_SKIP() << "this build has CUDA";
    try {
        open_copy_timer("cuda:1");
        ADD_FAILURE() << "no error";
    } catch (const DeviceError& error) {
        EXPECT_NE(std::string(error.what()).find("cuda:1: this build of pinscope has no CUDA support"),
                  std::string::npos)
            << error.what();
    }
}

TEST(OpenCopyTimer, BadNamesAndProfilesAreConfigErrors) {
    for (const char* device : {"gpu", "cuda:x", "emulated:no-such-profile", ""}) {
        try {
            open_copy_timer(device);
            ADD_FAILURE() << device << ": no error";
        } catch (const ConfigError& error) {
            EXPECT_EQ(error.issue().field, "device") << device;
        }
    }
}

}  // namespace
}  // namespace pinscope
