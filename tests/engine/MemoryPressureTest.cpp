// SPDX-License-Identifier: GPL-3.0-or-later
// When pinning hurts: the swap rule on injected /proc/meminfo figures (never by exhausting the
// machine), and a run that reads a fake meminfo warning and sampling it into its counters.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "engine/analysis/MemoryPressure.h"
#include "engine/config/LoaderConfig.h"
#include "engine/config/PinnedBudget.h"
#include "engine/files/MachineFiles.h"
#include "engine/runner/Runner.h"
#include "engine/text/Units.h"
#include "tests/engine/RecordedRun.h"
#include "tests/support/TempDir.h"

namespace pinscope {
namespace {

// A root folder whose proc/meminfo says what the test wants.
class FakeMeminfo {
public:
    FakeMeminfo(std::uint64_t total_kb, std::uint64_t available_kb, std::uint64_t swap_total_kb, std::uint64_t swap_free_kb) {
        std::filesystem::create_directories(dir_.path() / "proc");
        std::ofstream(dir_.path() / "proc/meminfo") << "MemTotal:       " << total_kb << " kB\nMemFree:  1000 kB\n"
                                                    << "MemAvailable:   " << available_kb << " kB\nSwapCached: 0 kB\n"
                                                    << "SwapTotal:      " << swap_total_kb << " kB\nSwapFree:       "
                                                    << swap_free_kb << " kB\nHugePages_Total: 0\n";
    }
    std::string root() const { return dir_.path().string(); }
    MemoryState state() const { return memory_state(MachineFiles(root()).meminfo()); }

private:
    test::TempDir dir_;
};

constexpr std::uint64_t kGiBkB = 1024 * 1024;

MemoryState state(std::uint64_t available, std::uint64_t swap_total = 4 * kGiB, std::uint64_t swap_used = 0) {
    MemoryState s;
    s.known = true;
    s.total_bytes = 64 * kGiB;
    s.available_bytes = available;
    s.swap_total_bytes = swap_total;
    s.swap_free_bytes = swap_total - swap_used;
    return s;
}

// 64 MiB batches, 4 workers x 2: up to 11 pinned blocks of 64 MiB (704 MiB), 9 pageable batches.
LoaderConfig big_batches() {
    LoaderConfig config;
    config.batch_size = 64;
    config.sample_shape = {4, 256, 256};  // float32: 1 MiB per sample
    config.num_workers = 4;
    config.prefetch_factor = 2;
    config.pin_memory = true;
    return config;
}

TEST(MemoryPressure, MeminfoFiguresAreReadInBytes) {
    const FakeMeminfo fake(64 * kGiBkB, 10 * kGiBkB, 4 * kGiBkB, 3 * kGiBkB);
    const MemoryState s = fake.state();
    ASSERT_TRUE(s.known);
    EXPECT_EQ(s.total_bytes, 64 * kGiB);
    EXPECT_EQ(s.available_bytes, 10 * kGiB);
    EXPECT_EQ(s.swap_total_bytes, 4 * kGiB);
    EXPECT_EQ(s.swap_used_bytes(), 1 * kGiB);
}

TEST(MemoryPressure, WhatTheRunMayTakeIsLockedPlusPageableInFlight) {
    const LoaderConfig config = big_batches();
    ASSERT_EQ(config.batch_bytes(), 64 * kMiB);
    const RunMemory run = run_memory(config, 16 * kGiB, 128 * kMiB, 3);
    EXPECT_EQ(run.locked_most, worst_case_pinned(config).bytes());
    EXPECT_EQ(run.locked_most, 11 * 64 * kMiB);
    EXPECT_EQ(run.pageable_most, 9 * 64 * kMiB);  // 8 outstanding and the consumer's
    EXPECT_EQ(run.pageable_now, 3 * 64 * kMiB);
    EXPECT_EQ(run.still_to_take(), (11 - 2) * 64 * kMiB + (9 - 3) * 64 * kMiB);
}

TEST(MemoryPressure, BudgetCapsLockingAndWorkerPinningHasNoPageableBatches) {
    LoaderConfig config = big_batches();
    EXPECT_EQ(run_memory(config, 256 * kMiB, 0, 0).locked_most, 256 * kMiB);
    config.pin_mode = PinMode::Worker;
    EXPECT_EQ(run_memory(config, 16 * kGiB, 0, 5).pageable_most, 0u);
    config.pin_memory = false;
    const RunMemory unpinned = run_memory(config, 16 * kGiB, 0, 0);
    EXPECT_EQ(unpinned.locked_most, 0u);
    EXPECT_EQ(unpinned.pageable_most, 9 * 64 * kMiB);
}

TEST(MemoryPressure, WarnsWhenWhatTheRunMayStillTakeExceedsMemAvailable) {
    const RunMemory run = run_memory(big_batches(), 16 * kGiB, 0, 0);  // 1280 MiB still to take
    ASSERT_EQ(run.still_to_take(), 1280 * kMiB);
    const MemoryPressure short_of = memory_pressure(state(1 * kGiB), state(1 * kGiB), run);
    EXPECT_TRUE(short_of.would_swap);
    EXPECT_TRUE(short_of.warn());
    EXPECT_NE(short_of.warning.find("swap"), std::string::npos) << short_of.warning;
    EXPECT_NE(short_of.warning.find("1.2 GiB"), std::string::npos) << short_of.warning;  // still to take
    EXPECT_NE(short_of.warning.find("1 GiB is available"), std::string::npos) << short_of.warning;

    const MemoryPressure exactly = memory_pressure(state(1280 * kMiB), state(1280 * kMiB), run);
    EXPECT_FALSE(exactly.warn()) << "what fits exactly needs no swap";
    EXPECT_TRUE(exactly.warning.empty());
    const MemoryPressure plenty = memory_pressure(state(20 * kGiB), state(20 * kGiB), run);
    EXPECT_FALSE(plenty.warn());
    EXPECT_NE(plenty.figures.find("20 GiB available"), std::string::npos) << plenty.figures;
}

TEST(MemoryPressure, WhatTheRunAlreadyHoldsIsNotCountedAgain) {
    // Half-way: 640 MiB locked and 4 batches out; MemAvailable has already gone down by as much.
    const RunMemory run = run_memory(big_batches(), 16 * kGiB, 640 * kMiB, 4);
    ASSERT_EQ(run.still_to_take(), 64 * kMiB + 5 * 64 * kMiB);
    EXPECT_FALSE(memory_pressure(state(512 * kMiB), state(2 * kGiB), run).warn());
    EXPECT_TRUE(memory_pressure(state(256 * kMiB), state(2 * kGiB), run).would_swap);
}

TEST(MemoryPressure, WithoutSwapTheShortfallIsRunningOutOfMemory) {
    const RunMemory run = run_memory(big_batches(), 16 * kGiB, 0, 0);
    const MemoryPressure p = memory_pressure(state(512 * kMiB, 0), state(512 * kMiB, 0), run);
    EXPECT_TRUE(p.would_swap);
    EXPECT_NE(p.warning.find("no swap"), std::string::npos) << p.warning;
    EXPECT_NE(p.figures.find("no swap"), std::string::npos) << p.figures;
}

TEST(MemoryPressure, SwapThatGrewDuringARunHoldingLockedMemoryIsReported) {
    const RunMemory holding = run_memory(big_batches(), 16 * kGiB, 704 * kMiB, 8);
    const MemoryState before = state(8 * kGiB, 4 * kGiB, 100 * kMiB);
    const MemoryPressure grew = memory_pressure(state(8 * kGiB, 4 * kGiB, 100 * kMiB + kSwapGrowthNoted), before, holding);
    EXPECT_TRUE(grew.swapped);
    EXPECT_FALSE(grew.would_swap);
    EXPECT_EQ(grew.swapped_bytes, kSwapGrowthNoted);
    EXPECT_NE(grew.warning.find("swapped 64 MiB out"), std::string::npos) << grew.warning;

    const MemoryPressure noise = memory_pressure(state(8 * kGiB, 4 * kGiB, 100 * kMiB + kSwapGrowthNoted - 1), before, holding);
    EXPECT_FALSE(noise.warn());
    const MemoryPressure was_there = memory_pressure(state(8 * kGiB, 4 * kGiB, 100 * kMiB), before, holding);
    EXPECT_FALSE(was_there.warn()) << "swap in use before the run is not the run's doing";
    const RunMemory nothing_locked = run_memory(big_batches(), 16 * kGiB, 0, 0);
    EXPECT_FALSE(memory_pressure(state(8 * kGiB, 4 * kGiB, 2 * kGiB), before, nothing_locked).swapped);
}

TEST(MemoryPressure, UnknownMemoryNeverWarns) {
    const MemoryPressure p = memory_pressure(MemoryState{}, MemoryState{}, run_memory(big_batches(), 16 * kGiB, 0, 0));
    EXPECT_FALSE(p.warn());
    EXPECT_TRUE(p.figures.empty());
}

TEST(MemoryPressure, RunOnAShortMachineWarnsOnceAndSamplesItsMemory) {
    // 24 MiB available; 4 MiB batches: up to 7 pinned blocks (28 MiB) and 5 pageable batches (20 MiB).
    const FakeMeminfo fake(64 * kGiBkB, 24 * 1024, 2 * kGiBkB, 2 * kGiBkB);
    RunnerOptions options;
    options.machine_root = fake.root();
    std::shared_ptr<test::MemoryRecorder> recorder;
    Runner runner(test::recording_into(recorder, options));
    LoaderConfig config = test::small_config(2, true, 40);
    config.sample_shape = {4, 256, 256};  // 1 MiB a sample, 4 MiB a batch
    runner.start(config);
    runner.wait();
    const RunSummary summary = runner.summary();
    std::size_t said = 0;
    for (const std::string& w : summary.warnings) said += w.find("pinning may push this machine into swap") != std::string::npos;
    EXPECT_EQ(said, 1u) << "said once for the configuration, not every 100 ms";
    EXPECT_TRUE(summary.memory.memory.known);
    EXPECT_EQ(summary.memory.memory.available_bytes, 24 * kMiB);

    const RunRecord record = recorder->taken(runner);
    std::size_t available = 0, swap = 0;
    for (const CounterSample& s : record.counters) {
        if (s.counter == Counter::MemAvailableBytes && s.value == static_cast<double>(24 * kMiB)) ++available;
        if (s.counter == Counter::SwapUsedBytes && s.value == 0) ++swap;
    }
    EXPECT_GE(available, 1u);
    EXPECT_EQ(available, swap);
}

TEST(MemoryPressure, RunWithRoomToSpareSaysNothing) {
    const FakeMeminfo fake(64 * kGiBkB, 32 * kGiBkB, 0, 0);
    RunnerOptions options;
    options.machine_root = fake.root();
    Runner runner(options);
    runner.start(test::small_config(2, true, 40));
    runner.wait();
    const RunSummary summary = runner.summary();
    for (const std::string& w : summary.warnings) EXPECT_EQ(w.find("swap"), std::string::npos) << w;
    EXPECT_FALSE(summary.memory.warn());
    EXPECT_EQ(summary.memory.memory.available_bytes, 32 * kGiB);
}

}  // namespace
}  // namespace pinscope
