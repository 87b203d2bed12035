// SPDX-License-Identifier: GPL-3.0-or-later
// validate's cells: the same from a seed everywhere, spread over the whole space it promises, and
// drawn in pairs that differ in exactly one setting.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "engine/config/ConfigValidation.h"
#include "engine/validate/ValidationCells.h"

namespace pinscope {
namespace {

LoaderConfig base() {
    LoaderConfig config;
    config.device = "emulated";
    config.seconds = 3.0;
    return config;
}

std::string fingerprint(const std::vector<ValidationCell>& cells) {
    std::string text;
    for (const ValidationCell& cell : cells) text += describe_cell(cell.config) + "|" + std::to_string(cell.pair_of) + "\n";
    return text;
}

TEST(ValidationCells, TheSameSeedDrawsTheSameCellsAndAnotherSeedOthers) {
    const auto first = draw_cells(base(), 40, 17);
    EXPECT_EQ(first.size(), 40u);
    EXPECT_EQ(fingerprint(draw_cells(base(), 40, 17)), fingerprint(first));
    EXPECT_NE(fingerprint(draw_cells(base(), 40, 18)), fingerprint(first));
    // Fewer cells from the same seed are the first ones of the longer draw.
    const auto ten = draw_cells(base(), 10, 17);
    EXPECT_EQ(fingerprint(ten), fingerprint({first.begin(), first.begin() + 10}));
}

TEST(ValidationCells, CoverTheRangesTheCommandPromises) {
    const auto cells = draw_cells(base(), 400, 1);
    std::set<DType> dtypes;
    std::set<PinMode> pin_modes;
    std::set<std::uint32_t> workers;
    std::set<bool> pin_memory, non_blocking;
    std::uint64_t smallest = UINT64_MAX, largest = 0;
    std::uint32_t fewest_samples = UINT32_MAX, most_samples = 0;
    bool some_cpu = false, no_cpu = false, some_kernel = false, no_kernel = false;
    for (const ValidationCell& cell : cells) {
        const LoaderConfig& c = cell.config;
        smallest = std::min(smallest, c.batch_bytes());
        largest = std::max(largest, c.batch_bytes());
        fewest_samples = std::min(fewest_samples, c.batch_size);
        most_samples = std::max(most_samples, c.batch_size);
        dtypes.insert(c.dtype);
        if (c.pin_memory) pin_modes.insert(c.pin_mode);
        workers.insert(c.num_workers);
        pin_memory.insert(c.pin_memory);
        non_blocking.insert(c.non_blocking);
        (c.cpu_us_per_sample > 0 ? some_cpu : no_cpu) = true;
        (c.gpu_us_per_batch > 0 ? some_kernel : no_kernel) = true;
        EXPECT_GE(c.batch_bytes(), kCellMinBatchBytes) << describe_cell(c);
        EXPECT_LE(c.batch_bytes(), kCellMaxBatchBytes) << describe_cell(c);
        EXPECT_LE(c.cpu_us_per_sample * c.batch_size, kCellMaxCpuUsPerBatch) << describe_cell(c);
        EXPECT_LE(c.cpu_us_per_sample, kCellMaxCpuUsPerSample) << describe_cell(c);
        EXPECT_LE(c.gpu_us_per_batch, kCellMaxGpuUs) << describe_cell(c);
        EXPECT_EQ(c.device, "emulated");
        EXPECT_EQ(c.seconds, 3.0);
        LoaderConfig checked = c;
        checked.pinned_budget_bytes = 8ull << 30;
        EXPECT_TRUE(find_config_issues(checked).empty()) << describe_cell(c);
    }
    EXPECT_LT(smallest, 4'000'000u);
    EXPECT_GT(largest, 128'000'000u);
    EXPECT_EQ(fewest_samples, 1u);
    EXPECT_GT(most_samples, 512u);
    EXPECT_EQ(dtypes.size(), 7u);
    EXPECT_EQ(pin_modes.size(), 4u);
    EXPECT_TRUE(workers.count(0) && workers.count(kCellMaxWorkers));
    EXPECT_EQ(pin_memory.size(), 2u);
    EXPECT_EQ(non_blocking.size(), 2u);
    EXPECT_TRUE(some_cpu && no_cpu && some_kernel && no_kernel);
}

TEST(ValidationCells, EverySecondCellChangesExactlyOneSettingOfTheFirst) {
    const auto cells = draw_cells(base(), 401, 5);
    std::set<CellSetting> changed;
    for (std::size_t k = 0; k < cells.size(); ++k) {
        if (k % 2 == 0) {
            EXPECT_EQ(cells[k].pair_of, -1);
            continue;
        }
        ASSERT_EQ(cells[k].pair_of, static_cast<int>(k - 1));
        const auto differ = differing_settings(cells[k - 1].config, cells[k].config);
        ASSERT_EQ(differ.size(), 1u) << describe_cell(cells[k - 1].config) << " / " << describe_cell(cells[k].config);
        EXPECT_EQ(differ.front(), cells[k].changed);
        changed.insert(cells[k].changed);
    }
    EXPECT_EQ(changed.size(), static_cast<std::size_t>(kCellSettingCount)) << "every setting is changed somewhere";
    // The drawn pairs are among those found; others may turn up.
    const auto pairs = one_setting_pairs(cells);
    for (std::size_t k = 1; k < cells.size(); k += 2)
        EXPECT_TRUE(std::any_of(pairs.begin(), pairs.end(), [&](const CellPair& p) {
            return p.first == k - 1 && p.second == k && p.setting == cells[k].changed;
        }));
}

// A pair's runs alternate, so that the host drifting over its seconds does not pass for the setting.
TEST(ValidationCells, APairsRunsAlternateAndEveryCellRunsRepeatTimesInOrder) {
    const auto five = draw_cells(base(), 5, 3);  // two pairs and a cell alone
    using Groups = std::vector<RunGroup>;
    EXPECT_EQ(run_groups(five, 2), (Groups{{0, 2, {0, 1, 0, 1}}, {2, 2, {2, 3, 2, 3}}, {4, 1, {4, 4}}}));
    EXPECT_EQ(run_groups(five, 1), (Groups{{0, 2, {0, 1}}, {2, 2, {2, 3}}, {4, 1, {4}}}));
    auto unpaired = five;
    unpaired[3].pair_of = -1;  // as in a recording whose second cell was not drawn as a pair
    EXPECT_EQ(run_groups(unpaired, 3),
              (Groups{{0, 2, {0, 1, 0, 1, 0, 1}}, {2, 1, {2, 2, 2}}, {3, 1, {3, 3, 3}}, {4, 1, {4, 4, 4}}}));
    EXPECT_TRUE(run_groups({}, 2).empty());
}

TEST(ValidationCells, SettingsThatPyTorchIgnoresAreNoDifference) {
    LoaderConfig a = base();
    a.num_workers = 0;
    a.pin_memory = false;
    LoaderConfig b = a;
    b.prefetch_factor = 4;        // ignored without workers
    b.pin_mode = PinMode::Alloc;  // ignored with pin_memory off
    EXPECT_TRUE(differing_settings(a, b).empty());
    b.pin_memory = true;
    EXPECT_EQ(differing_settings(a, b), std::vector<CellSetting>{CellSetting::PinMemory});
}

}  // namespace
}  // namespace pinscope
