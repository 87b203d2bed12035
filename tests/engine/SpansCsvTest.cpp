// SPDX-License-Identifier: GPL-3.0-or-later
#include <algorithm>
#include <cmath>
#include <locale>
#include <map>
#include <sstream>
#include <tuple>

#include <gtest/gtest.h>

#include "engine/export/SpansCsv.h"
#include "tests/engine/ExportTestData.h"

namespace pinscope {
namespace {

using Rows = std::vector<std::vector<std::string>>;

const std::vector<std::string> kHeader{"batch", "stage",       "lane",  "lane_index", "start_us", "end_us",
                                       "duration_us", "bytes", "gb_per_s", "cpu", "numa_node"};

Rows spans_csv(const std::vector<Span>& spans) {
    std::ostringstream out;
    write_spans_csv(out, spans, test::kOrigin);
    return test::parse_csv(out.str());
}

std::size_t column(const std::string& name) {
    return static_cast<std::size_t>(std::find(kHeader.begin(), kHeader.end(), name) - kHeader.begin());
}

const std::string& field(const std::vector<std::string>& row, const std::string& name) { return row.at(column(name)); }
double number(const std::vector<std::string>& row, const std::string& name) { return std::stod(field(row, name)); }

// The expected lane column: the kind's name with spaces as underscores.
std::string expected_lane(LaneKind kind) {
    std::string name(to_string(kind));
    std::replace(name.begin(), name.end(), ' ', '_');
    return name;
}

// The row of a span, found by what identifies it.
const std::vector<std::string>& row_of(const Rows& rows, const Span& span) {
    const std::string lane = expected_lane(span.lane.kind);
    for (std::size_t i = 1; i < rows.size(); ++i) {
        const auto& row = rows[i];
        if (field(row, "batch") == std::to_string(span.batch) && field(row, "stage") == to_string(span.stage) &&
            field(row, "lane") == lane && field(row, "lane_index") == std::to_string(span.lane.index))
            return row;
    }
    throw std::runtime_error("no row for a span");
}

TEST(SpansCsv, HeaderNamesCarryUnitsAndEveryRowHasEveryColumn) {
    const Rows rows = spans_csv(test::sample_spans());
    ASSERT_FALSE(rows.empty());
    EXPECT_EQ(rows[0], kHeader);
    for (const auto& row : rows) EXPECT_EQ(row.size(), kHeader.size());
}

TEST(SpansCsv, OneRowPerSpan) {
    const auto spans = test::sample_spans();
    EXPECT_EQ(spans_csv(spans).size(), spans.size() + 1);
    EXPECT_EQ(spans_csv({}).size(), 1u);
}

TEST(SpansCsv, RowsAreSortedByStartThenLane) {
    const Rows rows = spans_csv(test::sample_spans());
    const std::map<std::string, int> lane_rank{
        {"worker", 0}, {"pin_thread", 1}, {"consumer", 2}, {"copy_stream", 3}, {"compute_stream", 4}};
    for (std::size_t i = 2; i < rows.size(); ++i) {
        const auto key = [&](const std::vector<std::string>& row) {
            return std::tuple(number(row, "start_us"), lane_rank.at(field(row, "lane")), number(row, "lane_index"));
        };
        EXPECT_LE(key(rows[i - 1]), key(rows[i])) << "row " << i;
    }
    // Worker 0 and the consumer both start at 0: the worker lane comes first.
    EXPECT_EQ(field(rows[1], "lane"), "worker");
    EXPECT_EQ(field(rows[2], "lane"), "consumer");
}

TEST(SpansCsv, LanesAreNamedByKindWithUnderscores) {
    const Rows rows = spans_csv(test::sample_spans());
    std::set<std::string> lanes;
    for (std::size_t i = 1; i < rows.size(); ++i) lanes.insert(field(rows[i], "lane"));
    EXPECT_EQ(lanes, (std::set<std::string>{"worker", "pin_thread", "consumer", "copy_stream", "compute_stream"}));
}

TEST(SpansCsv, ValuesRoundTripWithinThePrintedPrecision) {
    const auto spans = test::sample_spans();
    const Rows rows = spans_csv(spans);
    for (const Span& span : spans) {
        const auto& row = row_of(rows, span);
        EXPECT_NEAR(number(row, "start_us"), static_cast<double>(span.start - test::kOrigin) / 1e3, 0.0005);
        EXPECT_NEAR(number(row, "end_us"), static_cast<double>(span.end - test::kOrigin) / 1e3, 0.0005);
        EXPECT_NEAR(number(row, "duration_us"), static_cast<double>(span.duration()) / 1e3, 0.0005);
        EXPECT_EQ(field(row, "bytes"), std::to_string(span.bytes));
        EXPECT_EQ(field(row, "cpu"), span.cpu < 0 ? "" : std::to_string(span.cpu));
        EXPECT_EQ(field(row, "numa_node"), span.numa_node < 0 ? "" : std::to_string(span.numa_node));
    }
}

TEST(SpansCsv, TimesHaveThreeDecimals) {
    const Rows rows = spans_csv(test::sample_spans());
    for (std::size_t i = 1; i < rows.size(); ++i) {
        for (const char* name : {"start_us", "end_us", "duration_us"}) {
            const std::string& text = field(rows[i], name);
            ASSERT_NE(text.find('.'), std::string::npos) << text;
            EXPECT_EQ(text.size() - text.find('.') - 1, 3u) << text;
        }
    }
    // 120.001 us is kept exactly, not rounded through a float.
    const Span worker1_load = test::sample_spans()[4];
    const auto& row = row_of(rows, worker1_load);
    EXPECT_EQ(field(row, "end_us"), "120.001");
    EXPECT_EQ(field(row, "duration_us"), "110.001");
}

TEST(SpansCsv, RateOnlyForSpansWithBytesAndDuration) {
    const auto spans = test::sample_spans();
    const Rows rows = spans_csv(spans);
    for (const Span& span : spans) {
        const auto& row = row_of(rows, span);
        if (span.bytes == 0 || span.duration() <= 0) {
            EXPECT_EQ(field(row, "gb_per_s"), "") << to_string(span.stage);
        } else {
            EXPECT_NEAR(number(row, "gb_per_s"), static_cast<double>(span.bytes) / static_cast<double>(span.duration()),
                        0.0005);
        }
    }
    // 1 MB in 20.25 us.
    EXPECT_EQ(field(row_of(rows, spans[1]), "gb_per_s"), "49.383");
}

// A locale that writes 1000000 as "1,000,000".
struct GroupingPunct : std::numpunct<char> {
    char do_thousands_sep() const override { return ','; }
    std::string do_grouping() const override { return "\3"; }
};

TEST(SpansCsv, StreamLocaleDoesNotChangeTheNumbers) {
    std::ostringstream out;
    out.imbue(std::locale(std::locale::classic(), new GroupingPunct));
    write_spans_csv(out, test::sample_spans(), test::kOrigin);
    const Rows rows = test::parse_csv(out.str());
    for (const auto& row : rows) ASSERT_EQ(row.size(), kHeader.size());
    EXPECT_EQ(field(row_of(rows, test::sample_spans()[1]), "bytes"), "1000000");
}

}  // namespace
}  // namespace pinscope
