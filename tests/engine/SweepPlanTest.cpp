// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>

#include "engine/sweep/SweepPlan.h"

namespace pinscope {
namespace {

LoaderConfig base_config() {
    LoaderConfig base;
    base.num_workers = 4;
    base.prefetch_factor = std::nullopt;
    base.pin_memory = true;
    base.pin_mode = PinMode::Pool;
    return base;
}

TEST(SweepPlan, EmptyAxesKeepTheBase) {
    const LoaderConfig base = base_config();
    const auto configs = expand_sweep(base, {});
    ASSERT_EQ(configs.size(), 1u);
    EXPECT_EQ(configs[0], base);
}

TEST(SweepPlan, CartesianProductInAxisOrder) {
    SweepAxes axes;
    axes.workers = {2, 4};
    axes.prefetch = {1, 3};
    axes.pin_memory = {true};
    axes.pin_mode = {PinMode::Pool, PinMode::Worker};
    const auto configs = expand_sweep(base_config(), axes);
    ASSERT_EQ(configs.size(), 8u);
    // pin_mode varies fastest, workers slowest.
    EXPECT_EQ(configs[0].num_workers, 2u);
    EXPECT_EQ(configs[0].prefetch_factor, 1u);
    EXPECT_EQ(configs[0].pin_mode, PinMode::Pool);
    EXPECT_EQ(configs[1].pin_mode, PinMode::Worker);
    EXPECT_EQ(configs[2].prefetch_factor, 3u);
    EXPECT_EQ(configs[4].num_workers, 4u);
    EXPECT_EQ(configs[7].num_workers, 4u);
    EXPECT_EQ(configs[7].prefetch_factor, 3u);
    EXPECT_EQ(configs[7].pin_mode, PinMode::Worker);
}

TEST(SweepPlan, NoWorkersMeansNoPrefetchAndRunsOnce) {
    SweepAxes axes;
    axes.workers = {0, 2};
    axes.prefetch = {2, 4};
    const auto configs = expand_sweep(base_config(), axes);
    ASSERT_EQ(configs.size(), 3u);
    EXPECT_EQ(configs[0].num_workers, 0u);
    EXPECT_FALSE(configs[0].prefetch_factor.has_value());
    EXPECT_EQ(configs[1].prefetch_factor, 2u);
    EXPECT_EQ(configs[2].prefetch_factor, 4u);
}

TEST(SweepPlan, NoWorkersClearsAPrefetchFromTheBase) {
    LoaderConfig base = base_config();
    base.prefetch_factor = 3;
    SweepAxes axes;
    axes.workers = {0};
    const auto configs = expand_sweep(base, axes);
    ASSERT_EQ(configs.size(), 1u);
    EXPECT_FALSE(configs[0].prefetch_factor.has_value());
}

TEST(SweepPlan, PinMemoryOffRunsOnceWhateverThePinModes) {
    SweepAxes axes;
    axes.pin_memory = {false, true};
    axes.pin_mode = {PinMode::Alloc, PinMode::Register, PinMode::Worker};
    const LoaderConfig base = base_config();
    const auto configs = expand_sweep(base, axes);
    ASSERT_EQ(configs.size(), 4u);
    EXPECT_FALSE(configs[0].pin_memory);
    EXPECT_EQ(configs[0].pin_mode, base.pin_mode);
    EXPECT_TRUE(configs[1].pin_memory);
    EXPECT_EQ(configs[1].pin_mode, PinMode::Alloc);
    EXPECT_EQ(configs[3].pin_mode, PinMode::Worker);
}

TEST(SweepPlan, RepeatedValuesGiveNoDuplicates) {
    SweepAxes axes;
    axes.workers = {2, 2, 0, 0};
    axes.pin_memory = {true, true};
    const auto configs = expand_sweep(base_config(), axes);
    ASSERT_EQ(configs.size(), 2u);
    EXPECT_EQ(configs[0].num_workers, 2u);
    EXPECT_EQ(configs[1].num_workers, 0u);
}

TEST(SweepPlan, OtherFieldsComeFromTheBase) {
    LoaderConfig base = base_config();
    base.batch_size = 8;
    base.batches = 20;
    base.seconds.reset();
    SweepAxes axes;
    axes.workers = {0, 1};
    for (const LoaderConfig& config : expand_sweep(base, axes)) {
        EXPECT_EQ(config.batch_size, 8u);
        EXPECT_EQ(config.batches, 20u);
        EXPECT_FALSE(config.seconds.has_value());
    }
}

TEST(SweepPlan, DescribesAPointWithDashesWhereFieldsDoNotApply) {
    LoaderConfig config = base_config();
    config.num_workers = 4;
    config.prefetch_factor = 2;
    EXPECT_EQ(describe_sweep_point(config), "workers=4 prefetch=2 pin_memory=on pin_mode=pool");
    config.num_workers = 0;
    config.prefetch_factor.reset();
    config.pin_memory = false;
    EXPECT_EQ(describe_sweep_point(config), "workers=0 prefetch=- pin_memory=off pin_mode=-");
}

TEST(SweepPlan, BindAndMembindAxesVaryLastAndSetEveryThread) {
    SweepAxes axes;
    axes.bind = {CpuBinding{CpuBindPolicy::GpuLocal, {}}, CpuBinding{CpuBindPolicy::CpuList, {0, 1}}};
    axes.membind = {MemoryPlacement::GpuLocal, MemoryPlacement::Remote};
    const auto configs = expand_sweep(base_config(), axes);
    ASSERT_EQ(configs.size(), 4u);
    EXPECT_EQ(configs[0].membind, MemoryPlacement::GpuLocal);
    EXPECT_EQ(configs[1].membind, MemoryPlacement::Remote);
    EXPECT_EQ(configs[1].bind_consumer.policy, CpuBindPolicy::GpuLocal);
    EXPECT_EQ(configs[2].bind_workers, (CpuBinding{CpuBindPolicy::CpuList, {0, 1}}));
    EXPECT_EQ(configs[2].bind_pin_thread, configs[2].bind_workers);
    EXPECT_EQ(describe_sweep_point(configs[3]),
              "workers=4 prefetch=2 pin_memory=on pin_mode=pool bind=0-1 membind=remote");
}

TEST(SweepPlan, CopyStreamAxisSweepsWhereTheCopyIsQueued) {
    SweepAxes axes;
    axes.pin_memory = {false, true};
    axes.copy_stream = {CopyStream::Side, CopyStream::Compute};
    const auto configs = expand_sweep(base_config(), axes);
    ASSERT_EQ(configs.size(), 4u);
    EXPECT_EQ(configs[0].copy_stream, CopyStream::Side);
    EXPECT_EQ(configs[1].copy_stream, CopyStream::Compute);
    EXPECT_FALSE(configs[1].pin_memory);
    EXPECT_TRUE(configs[2].pin_memory);
    EXPECT_EQ(describe_sweep_point(configs[2]), "workers=4 prefetch=2 pin_memory=on pin_mode=pool");
    EXPECT_EQ(describe_sweep_point(configs[3]), "workers=4 prefetch=2 pin_memory=on pin_mode=pool copy_stream=compute");
}

TEST(SweepPlan, NoBindAxisKeepsEachThreadsOwnBinding) {
    LoaderConfig base = base_config();
    base.bind_pin_thread = CpuBinding{CpuBindPolicy::GpuLocal, {}};
    SweepAxes axes;
    axes.membind = {MemoryPlacement::FirstTouch, MemoryPlacement::GpuLocal};
    const auto configs = expand_sweep(base, axes);
    ASSERT_EQ(configs.size(), 2u);
    EXPECT_EQ(configs[1].bind_pin_thread.policy, CpuBindPolicy::GpuLocal);
    EXPECT_EQ(configs[1].bind_workers.policy, CpuBindPolicy::None);
    EXPECT_EQ(describe_bindings(configs[1]), "workers none, pin thread local, consumer none");
}

}  // namespace
}  // namespace pinscope
