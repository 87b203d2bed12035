// SPDX-License-Identifier: GPL-3.0-or-later
// validate's arithmetic: each cell's error, the shares within 10 % and 15 %, and which pairs
// agree on the faster cell; and its CSV.
#include <gtest/gtest.h>

#include <sstream>
#include <tuple>
#include <utility>

#include "engine/validate/ValidationCsv.h"
#include "engine/validate/ValidationReport.h"

namespace pinscope {
namespace {

TEST(ValidationReport, ErrorIsEmulatedAgainstReal) {
    EXPECT_DOUBLE_EQ(*cell_error({100, 110}), 0.10);
    EXPECT_DOUBLE_EQ(*cell_error({100, 80}), -0.20);
    EXPECT_FALSE(cell_error({0, 80}).has_value());
}

TEST(ValidationReport, FasterIsATieWithinThreePercent) {
    EXPECT_EQ(faster_of(100, 50), -1);
    EXPECT_EQ(faster_of(50, 100), 1);
    EXPECT_EQ(faster_of(100, 97.5), 0);
    EXPECT_EQ(faster_of(100, 96.9), -1);
    EXPECT_EQ(faster_of(0, 0), 0);
}

// Cells 0/1 and 2/3 are drawn pairs (workers changed); the two pairs differ in two settings, and
// 4 from every other cell in two.
std::vector<ValidationCell> five_cells() {
    std::vector<ValidationCell> cells(5);
    for (std::size_t k = 0; k < cells.size(); ++k) cells[k].config.batch_size = 10;
    for (std::size_t k : {2u, 3u}) {
        cells[k].config.batch_size = 11;
        cells[k].config.dtype = DType::F16;
    }
    cells[4].config.batch_size = 99;
    cells[4].config.dtype = DType::U8;
    for (std::size_t k : {1u, 3u}) {
        cells[k].config.num_workers = 8;
        cells[k].pair_of = static_cast<int>(k - 1);
        cells[k].changed = CellSetting::Workers;
    }
    return cells;
}

TEST(ValidationReport, CountsCellsWithinTheLinesAndPairsThatAgree) {
    const std::vector<CellRates> rates{
        {100, 110},  // +10 %: within 10
        {200, 170},  // -15 %: within 15 only; real: cell 1 faster, emulated too: agree
        {100, 120},  // +20 %
        {101, 90},   // -10.9 %: within 15 only; a real tie with cell 2 (within 3 %): left out
        {50, 50},
    };
    const ValidationSummary s = summarize_validation(five_cells(), rates);
    EXPECT_EQ(s.cells, 5u);
    EXPECT_EQ(s.within_10, 2u);  // cells 0 and 4
    EXPECT_EQ(s.within_15, 4u);
    ASSERT_EQ(s.pairs.size(), 2u);
    EXPECT_EQ(s.pairs_counted, 1u);
    EXPECT_EQ(s.pairs_agreeing, 1u);
    EXPECT_EQ(s.real_ties, 1u);

    std::vector<CellRates> disagree = rates;
    disagree[1].emulated = 90;  // emulated says cell 0 is faster
    const ValidationSummary d = summarize_validation(five_cells(), disagree);
    EXPECT_EQ(d.pairs_counted, 1u);
    EXPECT_EQ(d.pairs_agreeing, 0u);
    EXPECT_FALSE(d.pairs.front().agree());
}

TEST(ValidationReport, RepeatedRealRunsGiveTheirMedianAndSpread) {
    const CellRates rates = real_runs({100, 80, 90}, 99);
    EXPECT_DOUBLE_EQ(rates.real, 90);
    EXPECT_EQ(rates.real_count, 3u);
    EXPECT_DOUBLE_EQ(rates.real_spread, 20.0 / 90);
    EXPECT_NEAR(*cell_error(rates), 0.10, 1e-12);
    EXPECT_DOUBLE_EQ(real_runs({50}, 50).real_spread, 0.0);

    // Cells whose own runs spread by 10 % or less repeat within the tolerance; the median spread.
    std::vector<CellRates> cells{real_runs({100, 105}, 100), real_runs({100, 130}, 100), real_runs({200, 190}, 200),
                                 real_runs({10, 10}, 10), real_runs({1, 2}, 1)};
    const ValidationSummary s = summarize_validation(five_cells(), cells);
    EXPECT_TRUE(s.repeated);
    EXPECT_EQ(s.real_within_10, 3u);
    EXPECT_NEAR(s.median_real_spread, 0.10 / 1.95, 1e-12);  // spreads 4.9, 26.1, 5.1, 0 and 66.7 %
    EXPECT_FALSE(summarize_validation(five_cells(), {{100, 110}, {200, 170}, {0, 5}, {1, 1}, {2, 2}}).repeated);

    std::ostringstream out;
    write_validation_csv(out, five_cells(), cells);
    std::istringstream lines(out.str());
    std::string line;
    std::getline(lines, line);
    std::getline(lines, line);
    EXPECT_EQ(line.substr(line.size() - 34), "-2.44,2,4.88,100.000,105.000,,,,,,") << "error, runs, spread, slowest, fastest: " << line;
}

TEST(ValidationReport, APairWhoseRealRunsOverlapIsLeftOutAsTheRealDeviceDidNotTellThemApart) {
    // Medians 100 and 115 (15 % apart), but cell 0 once ran at 118: the runs overlap.
    std::vector<CellRates> rates{real_runs({82, 100, 118}, 100), real_runs({110, 115, 120}, 100),
                                 real_runs({100, 101, 102}, 100), real_runs({115, 116, 117}, 100), real_runs({50, 50}, 50)};
    ValidationSummary s = summarize_validation(five_cells(), rates);
    ASSERT_EQ(s.pairs.size(), 2u);
    EXPECT_TRUE(s.pairs[0].real_overlap);
    EXPECT_EQ(s.pairs[0].real, 0);
    EXPECT_FALSE(s.pairs[0].counted());
    // Runs apart (100 to 102 against 115 to 117): decided, and the emulated tie disagrees.
    EXPECT_FALSE(s.pairs[1].real_overlap);
    EXPECT_EQ(s.pairs[1].real, 1);
    EXPECT_FALSE(s.pairs[1].agree());
    EXPECT_EQ(s.real_ties, 1u);
    EXPECT_EQ(s.real_overlaps, 1u);
    EXPECT_EQ(s.pairs_counted, 1u);

    // With one run per cell there is no spread to overlap: the medians decide.
    rates[0] = {100, 100};
    rates[1] = {115, 100};
    s = summarize_validation(five_cells(), rates);
    EXPECT_EQ(s.pairs[0].real, 1);
    EXPECT_EQ(s.real_overlaps, 0u);
}

TEST(ValidationReport, CsvHasAHeaderAndARowPerCell) {
    std::ostringstream out;
    write_validation_csv(out, five_cells(), {{100, 110}, {200, 170}, {0, 5}, {1, 1}, {2, 2}});
    std::istringstream lines(out.str());
    std::string line;
    std::getline(lines, line);
    EXPECT_EQ(line, kValidationCsvHeader);
    std::getline(lines, line);
    EXPECT_EQ(line, "1,,,10,3x224x224,f32,6021120,0.0,4,2,on,pool,on,2000.0,100.000,110.000,10.00,1,,,,,,,,,")
        << "no runs' spread with one run, no host columns without a reading or the host's work";
    std::getline(lines, line);
    EXPECT_EQ(line.substr(0, 18), "2,1,num_workers,10") << line;
    std::getline(lines, line);
    EXPECT_EQ(line.substr(line.size() - 24), ",0.000,5.000,,1,,,,,,,,,") << "no error without a real rate: " << line;
}

TEST(ValidationReport, TheStageCsvHasARowPerCellDeviceStageAndLane) {
    std::vector<CellRates> rates{{100, 110}, {200, 170}};
    rates[0].real_stages = {{Stage::Staging, LaneKind::Consumer, 228.4}, {Stage::Free, LaneKind::PinThread, 151}};
    rates[0].emulated_stages = {{Stage::Staging, LaneKind::Consumer, 167.04}};
    rates[1].emulated_stages = {{Stage::Load, LaneKind::Worker, 12}};  // recorded: no real stages
    rates[0].real_consumer_untraced_us = 267.04;
    rates[0].emulated_consumer_untraced_us = 78;
    std::ostringstream out;
    write_stage_csv(out, rates);
    EXPECT_EQ(out.str(), std::string(kStageCsvHeader) +
                             "\n1,real,staging,consumer,228.4\n1,real,free,pin thread,151.0\n"
                             "1,emulated,staging,consumer,167.0\n1,real,untraced,consumer,267.0\n"
                             "1,emulated,untraced,consumer,78.0\n2,emulated,load,worker,12.0\n");
}

// The host's work per batch during each cell says whether a cell missed with the host: positive
// where the emulated host worked faster, as the error is positive where the emulated device ran
// faster; cells without both figures are left out of its counts.
TEST(ValidationReport, HostStagesSayWhetherACellThatMissedHadTheHostOffTheSameWay) {
    std::vector<CellRates> rates{{100, 130}, {100, 80}, {100, 125}, {100, 100}, {100, 70}};
    const std::vector<std::pair<double, double>> host_us{{1300, 1000}, {1000, 1250}, {1000, 1020}, {1000, 1000}, {0, 900}};
    for (std::size_t k = 0; k < rates.size(); ++k) std::tie(rates[k].real_host_us, rates[k].emulated_host_us) = host_us[k];
    EXPECT_NEAR(*host_stage_error(rates[0]), 0.3, 1e-12);   // the emulated host 1.3x as fast
    EXPECT_NEAR(*host_stage_error(rates[1]), -0.2, 1e-12);
    EXPECT_FALSE(host_stage_error(rates[4]).has_value());  // no real figure (an older file)
    const ValidationSummary s = summarize_validation(five_cells(), rates);
    EXPECT_EQ(s.host_cells, 4u);
    EXPECT_EQ(s.host_within_10, 2u);  // cells 3 and 4
    EXPECT_EQ(s.off_cells, 3u);       // cells 1, 2 and 3 missed by more than 10 %
    EXPECT_EQ(s.off_with_host_off_the_same_way, 2u);  // not cell 3: its host was within 2 %
    std::ostringstream out;
    write_validation_csv(out, five_cells(), rates);
    EXPECT_NE(out.str().find(",1300.0,1000.0,\n"), std::string::npos) << out.str();
    EXPECT_NE(out.str().find(",,900.0,\n"), std::string::npos) << out.str();
    rates[0].host = HostReading{5.0, 1.5, 900, 6.25};
    out.str("");
    write_validation_csv(out, five_cells(), rates);
    EXPECT_NE(out.str().find(",5.000,1.500,900.0,1300.0,1000.0,6.250\n"), std::string::npos)
        << "the pin copy read, added later, last: " << out.str();
}

}  // namespace
}  // namespace pinscope
