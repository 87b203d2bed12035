// SPDX-License-Identifier: GPL-3.0-or-later
#include <map>
#include <sstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "engine/export/ChromeTrace.h"
#include "tests/engine/ExportTestData.h"

namespace pinscope {
namespace {

using nlohmann::json;

std::string trace_text(const RunRecord& record) {
    std::ostringstream out;
    write_chrome_trace(out, record);
    return out.str();
}

json trace_json(const RunRecord& record) { return json::parse(trace_text(record)); }

std::vector<json> events_with(const json& trace, const std::string& ph, const std::string& name = {}) {
    std::vector<json> found;
    for (const json& event : trace.at("traceEvents"))
        if (event.at("ph") == ph && (name.empty() || event.at("name") == name)) found.push_back(event);
    return found;
}

TEST(ChromeTrace, IsATraceEventObjectWithTheSummary) {
    const json trace = trace_json(test::sample_record());
    EXPECT_TRUE(trace.at("traceEvents").is_array());
    EXPECT_EQ(trace.at("displayTimeUnit"), "ms");
    EXPECT_DOUBLE_EQ(trace.at("otherData").at("batches_per_s").get<double>(), 0.8);
    EXPECT_EQ(trace.at("otherData").at("device").at("name"), "NVIDIA H200 (modelled)");
    // Perfetto reads displayTimeUnit only at the start and stops at keys it does not know.
    const std::string text = trace_text(test::sample_record());
    EXPECT_EQ(text.rfind(R"({"displayTimeUnit":"ms")", 0), 0u);
    for (const auto& [key, value] : trace.items())
        EXPECT_TRUE(key == "traceEvents" || key == "displayTimeUnit" || key == "otherData") << key;
}

TEST(ChromeTrace, EveryEventHasTheFieldsItsPhaseRequires) {
    const json trace = trace_json(test::sample_record());
    for (const json& event : trace.at("traceEvents")) {
        ASSERT_TRUE(event.contains("ph") && event.at("ph").is_string()) << event;
        ASSERT_TRUE(event.contains("name") && event.at("name").is_string()) << event;
        EXPECT_EQ(event.at("pid"), kTracePid) << event;
        const std::string ph = event.at("ph");
        if (ph != "M") {
            EXPECT_TRUE(event.at("ts").is_number()) << event;
        }
        if (ph == "X") {
            EXPECT_TRUE(event.at("tid").is_number_integer()) << event;
            EXPECT_GE(event.at("ts").get<double>(), 0.0) << event;
            EXPECT_GE(event.at("dur").get<double>(), 0.0) << event;
        } else if (ph == "C") {
            ASSERT_TRUE(event.at("args").is_object()) << event;
            for (const auto& [key, value] : event.at("args").items()) EXPECT_TRUE(value.is_number()) << event;
        } else if (ph == "i") {
            EXPECT_EQ(event.at("s"), "g") << event;
        } else if (ph == "M" && event.at("name") != "process_name") {
            EXPECT_TRUE(event.at("tid").is_number_integer()) << event;
        }
    }
}

TEST(ChromeTrace, EachSpanIsACompleteEventOnItsLanesTrack) {
    const RunRecord record = test::sample_record();
    const auto complete = events_with(trace_json(record), "X");
    ASSERT_EQ(complete.size(), record.spans.size());
    for (const Span& span : record.spans) {
        const double ts = static_cast<double>(span.start - record.origin) / 1e3;
        const auto match = std::find_if(complete.begin(), complete.end(), [&](const json& event) {
            return event.at("tid") == trace_tid(span.lane) && event.at("name") == to_string(span.stage) &&
                   event.at("args").at("batch") == span.batch;
        });
        ASSERT_NE(match, complete.end()) << to_string(span.stage);
        const json& event = *match;
        EXPECT_EQ(event.at("cat"), to_string(span.stage));
        EXPECT_NEAR(event.at("ts").get<double>(), ts, 1e-9);
        EXPECT_NEAR(event.at("dur").get<double>(), static_cast<double>(span.duration()) / 1e3, 1e-9);
        EXPECT_EQ(event.at("args").at("bytes"), span.bytes);
        EXPECT_EQ(event.at("args").contains("cpu"), span.cpu >= 0);
        EXPECT_EQ(event.at("args").contains("numa_node"), span.numa_node >= 0);
        EXPECT_EQ(event.at("args").contains("gb_per_s"), span.bytes > 0 && span.duration() > 0);
    }
}

TEST(ChromeTrace, TrackIdsAreStable) {
    EXPECT_EQ(trace_tid({LaneKind::Consumer, 0}), 1);
    EXPECT_EQ(trace_tid({LaneKind::PinThread, 0}), 2);
    EXPECT_EQ(trace_tid({LaneKind::CopyStream, 0}), 3);
    EXPECT_EQ(trace_tid({LaneKind::ComputeStream, 0}), 4);
    EXPECT_EQ(trace_tid({LaneKind::Worker, 0}), 100);
    EXPECT_EQ(trace_tid({LaneKind::Worker, 7}), 107);
}

TEST(ChromeTrace, OneThreadNamePerLaneUsedInTheWantedOrder) {
    const json trace = trace_json(test::sample_record());
    std::map<int, std::string> names;
    for (const json& event : events_with(trace, "M", "thread_name")) {
        const int tid = event.at("tid");
        EXPECT_FALSE(names.count(tid)) << "two names for tid " << tid;
        names[tid] = event.at("args").at("name");
    }
    EXPECT_EQ(names, (std::map<int, std::string>{{1, "consumer"},
                                                 {2, "pin thread"},
                                                 {3, "copy stream"},
                                                 {4, "compute stream"},
                                                 {100, "worker 0"},
                                                 {101, "worker 1"}}));
    std::map<int, int> sort_index;
    for (const json& event : events_with(trace, "M", "thread_sort_index"))
        sort_index[event.at("tid")] = event.at("args").at("sort_index");
    ASSERT_EQ(sort_index.size(), names.size());
    // Workers, pin thread, consumer, copy stream, compute stream.
    for (const auto& [before, after] : std::vector<std::pair<int, int>>{{100, 101}, {101, 2}, {2, 1}, {1, 3}, {3, 4}})
        EXPECT_LT(sort_index.at(before), sort_index.at(after)) << before << " before " << after;

    const auto process = events_with(trace, "M", "process_name");
    ASSERT_EQ(process.size(), 1u);
    EXPECT_EQ(process[0].at("args").at("name"), "pinscope NVIDIA H200 (modelled)");
}

TEST(ChromeTrace, NoThreadNamesForLanesWithoutSpans) {
    RunRecord record = test::sample_record();
    record.spans = {test::make_span(0, Stage::Compute, {LaneKind::ComputeStream, 0}, 0, 10)};
    const auto names = events_with(trace_json(record), "M", "thread_name");
    ASSERT_EQ(names.size(), 1u);
    EXPECT_EQ(names[0].at("tid"), 4);
}

TEST(ChromeTrace, CountersAndMarkers) {
    const RunRecord record = test::sample_record();
    const json trace = trace_json(record);
    const auto counters = events_with(trace, "C");
    ASSERT_EQ(counters.size(), record.counters.size());
    const auto rate = events_with(trace, "C", "h2d_gb_per_s");
    ASSERT_EQ(rate.size(), 1u);
    EXPECT_DOUBLE_EQ(rate[0].at("args").at("value").get<double>(), 48.75);
    EXPECT_DOUBLE_EQ(rate[0].at("ts").get<double>(), 300.0);

    const auto markers = events_with(trace, "i");
    ASSERT_EQ(markers.size(), 1u);
    EXPECT_EQ(markers[0].at("name"), "reconfigured: pin_memory off -> on");
    EXPECT_DOUBLE_EQ(markers[0].at("ts").get<double>(), 1000.0);
    EXPECT_EQ(markers[0].at("args").at("kind"), "reconfigured");
}

TEST(ChromeTrace, MetadataFirstThenEventsSortedByTime) {
    const json trace = trace_json(test::sample_record());
    bool timed_seen = false;
    double last_ts = -1e300;
    for (const json& event : trace.at("traceEvents")) {
        if (event.at("ph") == "M") {
            EXPECT_FALSE(timed_seen) << "metadata after a timed event: " << event;
            continue;
        }
        timed_seen = true;
        const double ts = event.at("ts");
        EXPECT_LE(last_ts, ts) << event;
        last_ts = ts;
    }
}

TEST(ChromeTrace, MarkerTextWithControlCharactersStaysReadable) {
    RunRecord record = test::sample_record();
    record.markers = {{test::at_us(5), MarkerKind::Reconfigured, "pin_memory: off -> on\nnum_workers: 4 -> 8\x01"}};
    const std::string text = trace_text(record);
    EXPECT_EQ(text.find("\\u00"), std::string::npos);  // Perfetto rejects \u escapes
    const auto markers = events_with(json::parse(text), "i");
    ASSERT_EQ(markers.size(), 1u);
    EXPECT_EQ(markers[0].at("name"), "pin_memory: off -> on num_workers: 4 -> 8 ");
}

TEST(ChromeTrace, EmptyRecordIsStillAValidTrace) {
    RunRecord record;
    record.summary = test::sample_summary();
    const json trace = trace_json(record);
    ASSERT_EQ(trace.at("traceEvents").size(), 1u);  // the process name
    EXPECT_EQ(trace.at("traceEvents")[0].at("name"), "process_name");
}

}  // namespace
}  // namespace pinscope
