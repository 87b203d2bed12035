// SPDX-License-Identifier: GPL-3.0-or-later
// validate --earlier: how far the real device moved between two calls of the same cells, how near
// the model came to both, and a refusal of another call's cells.
#include <gtest/gtest.h>

#include <stdexcept>

#include "engine/validate/CallDrift.h"

namespace pinscope {
namespace {

// Cells 0/1 and 2/3 are drawn pairs (workers changed); the two pairs differ in two settings.
std::vector<ValidationCell> four_cells() {
    std::vector<ValidationCell> cells(4);
    for (std::size_t k : {2u, 3u}) {
        cells[k].config.batch_size = 11;
        cells[k].config.dtype = DType::F16;
    }
    for (std::size_t k : {1u, 3u}) {
        cells[k].config.num_workers = 8;
        cells[k].pair_of = static_cast<int>(k - 1);
        cells[k].changed = CellSetting::Workers;
    }
    return cells;
}

RecordedValidation earlier_call(const std::vector<double>& real) {
    RecordedValidation earlier{four_cells(), {}};
    for (const double rate : real) earlier.rates.push_back({rate, 0});
    return earlier;
}

TEST(CallDrift, CountsTheCellsThatMovedAndHowNearTheModelCameToBothCalls) {
    const RecordedValidation earlier = earlier_call({100, 200, 100, 120});
    const std::vector<CellRates> now{
        {105, 102},  // +5 %: within 10; the model within 10 % of both
        {140, 150},  // -30 %: no figure within 10 % of 200 and of 140; the model near 140 only
        {112, 101},  // +12 %: within 15 only; 101 is within 10 % of 100 and of 112
        {50, 50},    // -58 %: beyond any figure; the model near 50 only
    };
    const CallDrift drift = call_drift(earlier, four_cells(), now);
    EXPECT_EQ(drift.cells, 4u);
    EXPECT_EQ(drift.within_10, 1u);
    EXPECT_EQ(drift.within_15, 2u);
    EXPECT_EQ(drift.beyond_any_figure, 2u);
    EXPECT_NEAR(drift.median_drift, (0.12 + 0.30) / 2, 1e-12);  // of 0.05, 0.30, 0.12, 0.583
    EXPECT_EQ(drift.model_within_10_of_both, 2u);
    EXPECT_EQ(drift.model_within_10_of_either, 4u);
    // Cells 0/1: cell 1 faster in both calls. Cells 2/3: cell 3 faster then, cell 2 now.
    EXPECT_EQ(drift.pairs_counted, 2u);
    EXPECT_EQ(drift.pairs_agreeing, 1u);
}

// 0.9 x 122.3 > 1.1 x 100: no figure is within 10 % of both; at 122.2 one is (110.0).
TEST(CallDrift, ACellIsBeyondAnyFigureOnlyWhenItsCallsAreMoreThanElevenNinthsApart) {
    const RecordedValidation earlier = earlier_call({100, 100, 100, 100});
    const CallDrift drift = call_drift(earlier, four_cells(), {{122.3, 0}, {122.2, 0}, {81.8, 0}, {81.9, 0}});
    EXPECT_EQ(drift.beyond_any_figure, 2u);  // 122.3 and 81.8 (100 / 81.8 = 1.2225)
    EXPECT_EQ(drift.pairs_counted, 0u) << "the earlier call told no pair apart";
}

TEST(CallDrift, ACellTheRealDeviceDidNotRunInBothCallsIsLeftOut) {
    const RecordedValidation earlier = earlier_call({0, 100, 100, 100});
    const CallDrift drift = call_drift(earlier, four_cells(), {{100, 100}, {100, 100}, {0, 100}, {100, 100}});
    EXPECT_EQ(drift.cells, 2u);
    EXPECT_EQ(drift.within_10, 2u);
}

TEST(CallDrift, AnotherCallsCellsAreRefusedSayingWhichDiffers) {
    std::vector<ValidationCell> other = four_cells();
    other[2].config.num_workers = 3;
    const RecordedValidation earlier = earlier_call({100, 100, 100, 100});
    EXPECT_EQ(first_differing_cell(earlier, four_cells()), 4u);
    EXPECT_EQ(first_differing_cell(earlier, other), 2u);
    try {
        call_drift(earlier, other, std::vector<CellRates>(4));
        ADD_FAILURE() << "another call's cells were taken";
    } catch (const std::invalid_argument& error) {
        EXPECT_STREQ(error.what(), "cell 3 is not the earlier call's cell 3");
    }
    // The earlier call's first cells, when this call ran fewer (a stop): compared as far as it ran.
    std::vector<ValidationCell> first_two = four_cells();
    first_two.resize(2);
    EXPECT_EQ(call_drift(earlier, first_two, {{100, 0}, {100, 0}}).cells, 2u);
    RecordedValidation shorter = earlier;
    shorter.cells.resize(2);
    shorter.rates.resize(2);
    EXPECT_EQ(first_differing_cell(shorter, four_cells()), 2u);
    EXPECT_THROW(call_drift(shorter, four_cells(), std::vector<CellRates>(4)), std::invalid_argument);
    std::vector<ValidationCell> shape = four_cells();
    shape[0].config.sample_shape = {224, 672};  // 3x224x224's bytes drawn another way: another cell
    EXPECT_EQ(first_differing_cell(earlier, shape), 0u);
}

}  // namespace
}  // namespace pinscope
