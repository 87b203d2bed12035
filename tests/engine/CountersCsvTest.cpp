// SPDX-License-Identifier: GPL-3.0-or-later
#include <locale>
#include <sstream>

#include <gtest/gtest.h>

#include "engine/export/CountersCsv.h"
#include "tests/engine/ExportTestData.h"

namespace pinscope {
namespace {

using Rows = std::vector<std::vector<std::string>>;

Rows counters_csv(const std::vector<CounterSample>& samples) {
    std::ostringstream out;
    write_counters_csv(out, samples, test::kOrigin);
    return test::parse_csv(out.str());
}

TEST(CountersCsv, HeaderIsTimeThenEveryCounterInEnumOrder) {
    const Rows rows = counters_csv(test::sample_counters());
    ASSERT_FALSE(rows.empty());
    EXPECT_EQ(rows[0], (std::vector<std::string>{"time_s", "pinned_in_use_bytes", "pinned_reserved_bytes",
                                                 "in_flight_batches", "ready_queue_depth", "h2d_gb_per_s",
                                                 "mem_available_bytes", "swap_used_bytes"}));
    for (const auto& row : rows) EXPECT_EQ(row.size(), 1u + kCounterCount);
    EXPECT_EQ(counters_csv({}).size(), 1u);
}

TEST(CountersCsv, OneSortedRowPerDistinctSampleTime) {
    const Rows rows = counters_csv(test::sample_counters());
    // Samples at 0, 150, 250 and 300 us.
    ASSERT_EQ(rows.size(), 5u);
    EXPECT_EQ(rows[1][0], "0.000000");
    EXPECT_EQ(rows[2][0], "0.000150");
    EXPECT_EQ(rows[3][0], "0.000250");
    EXPECT_EQ(rows[4][0], "0.000300");
}

TEST(CountersCsv, CountersKeepTheirLastValueAndAreEmptyBeforeTheirFirstSample) {
    const Rows rows = counters_csv(test::sample_counters());
    ASSERT_EQ(rows.size(), 5u);
    // The machine's memory columns (never sampled here) stay empty.
    EXPECT_EQ(rows[1], (std::vector<std::string>{"0.000000", "", "", "2", "", "", "", ""}));
    EXPECT_EQ(rows[2], (std::vector<std::string>{"0.000150", "1048576", "1048576", "3", "", "", "", ""}));
    EXPECT_EQ(rows[3], (std::vector<std::string>{"0.000250", "2097152", "1048576", "3", "1", "", "", ""}));
    EXPECT_EQ(rows[4], (std::vector<std::string>{"0.000300", "2097152", "1048576", "3", "1", "48.75", "", ""}));
}

TEST(CountersCsv, LastSampleOfACounterAtTheSameTimeWins) {
    const Rows rows = counters_csv({{test::at_us(10), 1, Counter::ReadyQueueDepth},
                                    {test::at_us(10), 4, Counter::ReadyQueueDepth}});
    ASSERT_EQ(rows.size(), 2u);
    EXPECT_EQ(rows[1][1 + static_cast<int>(Counter::ReadyQueueDepth)], "4");
}

TEST(CountersCsv, ValuesRoundTripExactly) {
    const double rate = 54.123456789012;
    const Rows rows = counters_csv({{test::at_us(2'500'000), rate, Counter::H2DGbPerS}});
    ASSERT_EQ(rows.size(), 2u);
    EXPECT_EQ(rows[1][0], "2.500000");
    EXPECT_EQ(std::stod(rows[1][1 + static_cast<int>(Counter::H2DGbPerS)]), rate);
}

TEST(CountersCsv, StreamLocaleDoesNotChangeTheNumbers) {
    struct GroupingPunct : std::numpunct<char> {
        char do_thousands_sep() const override { return ','; }
        std::string do_grouping() const override { return "\3"; }
    };
    std::ostringstream out;
    out.imbue(std::locale(std::locale::classic(), new GroupingPunct));
    write_counters_csv(out, test::sample_counters(), test::kOrigin);
    const Rows rows = test::parse_csv(out.str());
    for (const auto& row : rows) ASSERT_EQ(row.size(), 1u + kCounterCount);
    EXPECT_EQ(rows.back()[1], "2097152");
}

}  // namespace
}  // namespace pinscope
