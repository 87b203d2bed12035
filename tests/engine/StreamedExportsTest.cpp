// SPDX-License-Identifier: GPL-3.0-or-later
// The exports a run streams to disk as it goes are the files the whole record gives at once.
#include <algorithm>
#include <cstdint>
#include <map>

#include <gtest/gtest.h>

#include "engine/export/RunExports.h"
#include "engine/export/SpansCsv.h"
#include "engine/export/TimeOrderBuffer.h"
#include "tests/engine/ExportTestData.h"

namespace pinscope {
namespace {

using test::TempDir;

constexpr TimeNs kMs = 1'000'000;

// A deterministic stand-in for a run of 6 s: eight lanes doing back-to-back spans of 0.1 to 1 ms,
// now and then a 300 ms one; the device lanes' spans reach the observer up to 50 ms late.
struct SyntheticRun {
    RunRecord record;                               // everything, in the order drained
    std::vector<std::pair<TimeNs, TraceDelta>> drains;  // what each 10 ms poll took
    std::vector<NumaSample> numa;
};

SyntheticRun synthetic_run() {
    SyntheticRun run;
    run.record.origin = test::kOrigin;
    run.record.summary = test::sample_summary();
    std::uint64_t seed = 12345;
    const auto next = [&] {
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        return seed >> 33;
    };
    const std::vector<Lane> lanes{{LaneKind::Worker, 0}, {LaneKind::Worker, 1}, {LaneKind::Worker, 2},
                                  {LaneKind::PinThread, 0}, {LaneKind::Consumer, 0}, {LaneKind::CopyStream, 0},
                                  {LaneKind::ComputeStream, 0}};
    const TimeNs end = test::kOrigin + 6000 * kMs;
    std::multimap<TimeNs, Span> by_arrival;
    for (const Lane lane : lanes) {
        TimeNs t = test::kOrigin + static_cast<TimeNs>(next() % 1000) * 1000;
        std::uint64_t batch = 0;
        while (t < end) {
            Span span;
            span.lane = lane;
            span.batch = batch++;
            span.stage = is_device_lane(lane.kind) ? Stage::Compute : Stage::Load;
            span.start = t;
            span.end = t + (next() % 997 == 0 ? 300 * kMs : 100'000 + static_cast<TimeNs>(next() % 900'000));
            span.bytes = next() % 3 == 0 ? 0 : 1 << 20;
            const TimeNs late = is_device_lane(lane.kind) ? static_cast<TimeNs>(next() % 50) * kMs : 0;
            by_arrival.emplace(span.end + late, span);
            t = span.end + static_cast<TimeNs>(next() % 20) * 1000;  // two spans may start at once
        }
    }
    auto arriving = by_arrival.begin();
    for (TimeNs poll = test::kOrigin; arriving != by_arrival.end() || poll < end; poll += 10 * kMs) {
        TraceDelta delta;
        for (; arriving != by_arrival.end() && arriving->first <= poll; ++arriving) delta.spans.push_back(arriving->second);
        for (int c = 0; c < kCounterCount; ++c)
            delta.counters.push_back({poll, static_cast<double>(next() % 1000) / 8, static_cast<Counter>(c)});
        if ((poll - test::kOrigin) % (1000 * kMs) == 0) delta.markers.push_back({poll, MarkerKind::Reconfigured, "reconfigured: tick"});
        const int node_count = poll < test::kOrigin + 3000 * kMs ? 1 : 2;  // a node appears halfway
        NumaSample sample{poll, {}, next() % 100, next() % 100};
        for (int node = 0; node < node_count; ++node) sample.pinned.push_back({node, next() % 4096});
        run.record.spans.insert(run.record.spans.end(), delta.spans.begin(), delta.spans.end());
        run.record.counters.insert(run.record.counters.end(), delta.counters.begin(), delta.counters.end());
        run.record.markers.insert(run.record.markers.end(), delta.markers.begin(), delta.markers.end());
        run.record.numa_samples.push_back(sample);
        run.numa.push_back(sample);
        run.drains.emplace_back(poll, std::move(delta));
    }
    return run;
}

TEST(StreamedExports, FilesStreamedDuringARunEqualThoseOfTheWholeRecord) {
    const SyntheticRun run = synthetic_run();
    ASSERT_GT(run.record.spans.size(), 40'000u);
    TempDir tmp;
    const std::string streamed = tmp.file("streamed");
    const std::string whole = tmp.file("whole");
    {
        RunFileExports exports({streamed, tmp.file("streamed.json"), tmp.file("streamed-summary.json")});
        exports.begin({run.record.origin});
        for (std::size_t i = 0; i < run.drains.size(); ++i) {
            exports.record(run.drains[i].second);
            exports.record(run.numa[i]);
        }
        exports.finish(run.record.summary);
    }
    export_csv_dir(whole, run.record);
    export_chrome_trace(tmp.file("whole.json"), run.record);
    for (const char* name : {"spans.csv", "counters.csv", "numa.csv", "segments.csv", "summary.json"}) {
        const std::string a = test::read_text(streamed + "/" + name);
        EXPECT_FALSE(a.empty()) << name;
        EXPECT_TRUE(a == test::read_text(whole + "/" + name)) << name << " differs";
    }
    EXPECT_TRUE(test::read_text(tmp.file("streamed.json")) == test::read_text(tmp.file("whole.json")));
    EXPECT_EQ(test::read_text(tmp.file("streamed-summary.json")), test::read_text(whole + "/summary.json"));
    EXPECT_EQ(test::parse_csv(test::read_text(streamed + "/spans.csv")).size(), run.record.spans.size() + 1);
}

TEST(StreamedExports, SpansComeOutInStartOrderThoughTheyArriveByTheirEnd) {
    const SyntheticRun run = synthetic_run();
    std::ostringstream out;
    SpansCsvWriter writer(out, run.record.origin);
    for (const auto& [poll, delta] : run.drains) writer.add(delta.spans);
    writer.finish();
    const auto rows = test::parse_csv(out.str());
    ASSERT_EQ(rows.size(), run.record.spans.size() + 1);
    for (std::size_t i = 2; i < rows.size(); ++i)
        ASSERT_LE(std::stod(rows[i - 1][4]), std::stod(rows[i][4])) << "row " << i;
}

TEST(StreamedExports, ReorderBufferStaysBoundedHoweverLongTheHold) {
    struct StartOf {
        TimeNs operator()(const Span& span) const { return span.start; }
    };
    struct Less {
        bool operator()(const Span& a, const Span& b) const { return a.start < b.start; }
    };
    TimeOrderBuffer<Span, Less, StartOf> buffer;
    buffer.widen_hold(3600 * 1000 * kMs);  // a span of an hour: everything would wait
    std::size_t released = 0;
    TimeNs last = 0;
    std::vector<Span> chunk(1000);
    for (int i = 0; i < 1000; ++i) {
        for (std::size_t k = 0; k < chunk.size(); ++k) chunk[k].start = chunk[k].end = (i * 1000 + static_cast<TimeNs>(k)) * 1000;
        buffer.add(chunk);
        buffer.release_ready([&](const Span& span) {
            EXPECT_GE(span.start, last);
            last = span.start;
            ++released;
        });
        ASSERT_LE(buffer.held(), decltype(buffer)::kMaxHeld);
    }
    EXPECT_EQ(released + buffer.held(), 1'000'000u);
}

}  // namespace
}  // namespace pinscope
