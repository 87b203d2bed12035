// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A made-up run for the recording tests: every kind of lane, stage, counter and marker, spans
// without a CPU or node, figures no live run would give (a share above 1, an unlimited memlock),
// and a loaded topology; and the checks that what comes back is the same.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <limits>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/export/SummaryJson.h"
#include "engine/record/RecordingWriter.h"
#include "engine/runner/RunRecorder.h"
#include "engine/text/TextFormat.h"
#include "tests/engine/ExportTestData.h"

namespace pinscope::test {

struct SyntheticRun {
    RunStart start;
    std::vector<TraceDelta> deltas;  // as the observer would drain them
    std::vector<NumaSample> numa;    // one per delta
    std::vector<RunSegment> later_segments;  // each as it begins: begin_segment's
    RunSummary summary;
    RunRecord expected() const {
        RunRecord record;
        record.origin = start.origin;
        for (const TraceDelta& delta : deltas) {
            record.spans.insert(record.spans.end(), delta.spans.begin(), delta.spans.end());
            record.counters.insert(record.counters.end(), delta.counters.begin(), delta.counters.end());
            record.markers.insert(record.markers.end(), delta.markers.begin(), delta.markers.end());
        }
        record.numa_samples = numa;
        record.summary = summary;
        return record;
    }
};

inline Lane lane_number(std::size_t i) {
    switch (i % 6) {
        case 0: return {LaneKind::Worker, 0};
        case 1: return {LaneKind::Worker, 3};
        case 2: return {LaneKind::PinThread, 0};
        case 3: return {LaneKind::Consumer, 0};
        case 4: return {LaneKind::CopyStream, 0};
        default: return {LaneKind::ComputeStream, 0};
    }
}

// `span_count` spans from `origin`, ending about 1 us apart (not quite in order, as a drain gives
// them), in deltas of 500.
inline SyntheticRun synthetic_run(TimeNs origin, std::size_t span_count, std::uint32_t workers = 2) {
    SyntheticRun run;
    run.start.origin = origin;
    RunSummary& s = run.summary;
    s.config.num_workers = workers;
    s.config.pin_memory = true;
    s.config.seconds = 1.5;
    s.config.device = "emulated";
    s.device = {DeviceKind::Emulated, "NVIDIA H200, PCIe Gen5 x16", "h200-pcie5", "modelled on PCIe Gen5 x16", "0000:c1:00.0"};
    s.host = HostMode::Modeled;
    s.memlock_limit_bytes = std::numeric_limits<std::uint64_t>::max();
    s.memlock_exempt = true;
    s.pinned.budget_bytes = 6ull << 30;
    s.numa.topology_source = "2-socket-2-gpu (shipped sample)";
    s.numa.from_file = true;
    RunSegment first;
    first.begin = first.end = origin;
    first.config = s.config;
    s.segments = {first};
    run.start.summary = s;  // what the run begins with: no figures yet
    run.start.topology = std::make_shared<const MachineTopology>(load_topology("2-socket-2-gpu"));

    const std::size_t per_delta = 500;
    for (std::size_t i = 0; i < span_count; ++i) {
        if (i % per_delta == 0) run.deltas.emplace_back();
        TraceDelta& delta = run.deltas.back();
        Span span;
        span.lane = lane_number(i);
        span.stage = static_cast<Stage>(i % kStageCount);
        span.batch = i / 6;
        span.start = origin + static_cast<TimeNs>(i) * 1000 - static_cast<TimeNs>(i % 5) * 300;
        span.end = span.start + 400 + static_cast<TimeNs>(i % 5) * 300 + (i % 11 == 0 ? 2500 : 0);
        span.bytes = i % 3 == 0 ? 0 : 38'535'168 + i;
        span.cpu = is_device_lane(span.lane.kind) ? -1 : static_cast<std::int16_t>(i % 16);
        span.numa_node = is_device_lane(span.lane.kind) || i % 7 == 0 ? -1 : static_cast<std::int16_t>(i % 2);
        delta.spans.push_back(span);
    }
    if (run.deltas.empty()) run.deltas.emplace_back();
    for (std::size_t d = 0; d < run.deltas.size(); ++d) {
        const TimeNs now = origin + static_cast<TimeNs>((d + 1) * per_delta) * 1000;
        for (int c = 0; c < kCounterCount; ++c)
            run.deltas[d].counters.push_back({now, 1.5 * static_cast<double>(d) + c + 0.1, static_cast<Counter>(c)});
        run.numa.push_back({now, {{0, 1000 * d}, {1, 3}}, 7 * d, 11 * d});
    }
    run.deltas.front().markers.push_back({origin + 10, MarkerKind::Warning, "pinned memory: budget reached"});
    run.deltas.back().markers.push_back({origin + 20, MarkerKind::Reconfigured, "reconfigured: pin_memory on -> off"});
    run.deltas.back().markers.push_back({origin + 15, MarkerKind::Error, "run failed:\n\"quoted\" é"});

    const TimeNs end = origin + static_cast<TimeNs>(run.deltas.size() * per_delta) * 1000;
    Metrics& m = s.metrics;
    m = {origin, end, 1.25, 1000, 64000, 800.5, 51232.25, 3.8e10, 30.4, 1.0000000002, 0.3333333333333333,
         0.125, 0.1, 0.025, 0.975, 0.004};
    s.pinned.reserved_bytes = {256 << 20, 320 << 20, 400 << 20, 144 << 20};
    s.pinned.allocated_bytes = {128 << 20, 256 << 20, 9000, 8000};
    s.pinned.allocation = {2, 8, 1000, 998};
    s.pinned.segment = {4, 5, 6, 2};
    s.pinned.num_host_alloc = 6;
    s.pinned.num_host_free = 2;
    s.pinned.host_alloc_time = {1234.5, 400.25, 6};
    s.pinned.host_free_time = {10.5, 6.25, 2};
    s.pinned.cache_hits = 994;
    s.pinned.budget_waits = 3;
    s.pinned.locked = false;
    s.dropped_spans = 3;
    s.model_lag = 0.0712;
    s.reconfigurations = 1;
    s.warnings = {"pinned memory: budget reached", "two\nlines"};
    s.config.pin_memory = false;  // the configuration in force at the end
    // Reconfigured at origin + 20: two segments, each with figures of its own.
    RunSegment before = first;
    before.end = origin + 20;
    before.metrics = {origin, origin + 20, 2e-8, 3, 192, 1.5e8, 9.6e9, 1e8, 5e3, 0.5, 0.25, 0.125, 0.1, 0.025, 0.5, 0.0625};
    before.pinned_peak_bytes = 64 << 20;
    before.pinned_in_use_peak_bytes = 32 << 20;
    before.host_allocations = 6;
    before.cache_hits = 4;
    before.bottleneck.resource = Resource::PinThread;
    before.bottleneck.evidence = "Bound by the pin thread";
    RunSegment after;
    after.index = 2;
    after.begin = origin + 20;
    after.end = end;
    after.config = s.config;
    after.change = "pin_memory: on -> off";
    run.later_segments = {after};
    after.metrics = {origin + 20, end, 1.25, 997, 63808, 797.6, 51046.4, 3.79e10, 30.3, 1.0000000002, 0.0, 0.125,
                     0.1, 0.025, 0.975, 0.004};
    after.cache_hits = 990;
    s.segments = {before, after};
    s.numa.gpu_name = "NVIDIA H200";
    s.numa.usage = {"0000:c1:00.0", 1, true, {{0, 100}, {1, 200}}, 5000, 1200, 7000, 300};
    s.numa.pinned_peak = {{0, 4096}, {1, 8192}};
    return run;
}

// Feeds `run` to `recorder` as a run would.
inline void record_run(RunRecorder& recorder, const SyntheticRun& run) {
    recorder.begin(run.start);
    for (std::size_t d = 0; d < run.deltas.size(); ++d) {
        recorder.record(run.deltas[d]);
        recorder.record(run.numa[d]);
    }
    for (const RunSegment& segment : run.later_segments) recorder.begin_segment(segment);
    recorder.finish(run.summary);
}

inline void expect_same_metrics(const Metrics& a, const Metrics& b) {
    EXPECT_EQ(a.begin, b.begin);
    EXPECT_EQ(a.end, b.end);
    EXPECT_EQ(a.wall_s, b.wall_s);
    EXPECT_EQ(a.batches, b.batches);
    EXPECT_EQ(a.samples, b.samples);
    EXPECT_EQ(a.batches_per_s, b.batches_per_s);
    EXPECT_EQ(a.samples_per_s, b.samples_per_s);
    EXPECT_EQ(a.h2d_bytes, b.h2d_bytes);
    EXPECT_EQ(a.h2d_gb_per_s, b.h2d_gb_per_s);
    EXPECT_EQ(a.gpu_busy, b.gpu_busy);
    EXPECT_EQ(a.copy_hidden, b.copy_hidden);
    EXPECT_EQ(a.gpu_starved, b.gpu_starved);
    EXPECT_EQ(a.gpu_starved_copy, b.gpu_starved_copy);
    EXPECT_EQ(a.gpu_starved_host, b.gpu_starved_host);
    EXPECT_EQ(a.consumer_wait, b.consumer_wait);
    EXPECT_EQ(a.host_held, b.host_held);
}

// Every field: the JSON covers all but the exact figures, the memlock exemption and the lag.
inline void expect_same_summary(const RunSummary& a, const RunSummary& b) {
    EXPECT_EQ(json_text(summary_to_json(a), 2), json_text(summary_to_json(b), 2));
    expect_same_metrics(a.metrics, b.metrics);
    EXPECT_EQ(a.memlock_exempt, b.memlock_exempt);
    EXPECT_EQ(a.model_lag, b.model_lag);
    EXPECT_EQ(a.config, b.config);
    EXPECT_EQ(format_summary(a), format_summary(b));
}

inline void expect_same_record(const RunRecord& read, const RunRecord& expected) {
    EXPECT_EQ(read.origin, expected.origin);
    EXPECT_EQ(read.spans, expected.spans);  // every field, in the order recorded
    ASSERT_EQ(read.counters.size(), expected.counters.size());
    for (std::size_t i = 0; i < read.counters.size(); ++i) {
        EXPECT_EQ(read.counters[i].time, expected.counters[i].time);
        EXPECT_EQ(read.counters[i].value, expected.counters[i].value);
        EXPECT_EQ(read.counters[i].counter, expected.counters[i].counter);
    }
    ASSERT_EQ(read.markers.size(), expected.markers.size());
    for (std::size_t i = 0; i < read.markers.size(); ++i) {
        EXPECT_EQ(read.markers[i].time, expected.markers[i].time);
        EXPECT_EQ(read.markers[i].kind, expected.markers[i].kind);
        EXPECT_EQ(read.markers[i].text, expected.markers[i].text);
    }
    ASSERT_EQ(read.numa_samples.size(), expected.numa_samples.size());
    for (std::size_t i = 0; i < read.numa_samples.size(); ++i) {
        const NumaSample& r = read.numa_samples[i];
        const NumaSample& e = expected.numa_samples[i];
        EXPECT_EQ(r.time, e.time);
        EXPECT_EQ(r.cross_node_h2d_bytes, e.cross_node_h2d_bytes);
        EXPECT_EQ(r.cross_node_host_copy_bytes, e.cross_node_host_copy_bytes);
        ASSERT_EQ(r.pinned.size(), e.pinned.size());
        for (std::size_t n = 0; n < r.pinned.size(); ++n) {
            EXPECT_EQ(r.pinned[n].node, e.pinned[n].node);
            EXPECT_EQ(r.pinned[n].pinned_bytes, e.pinned[n].pinned_bytes);
        }
    }
    expect_same_summary(read.summary, expected.summary);
}

// A file's bytes and modification time, to show that reading it changed neither.
struct FileState {
    std::string bytes;
    std::int64_t mtime_ns = 0;
    friend bool operator==(const FileState&, const FileState&) = default;
};
inline FileState file_state(const std::string& path) {
    struct stat info {};
    ::stat(path.c_str(), &info);
    std::ifstream in(path, std::ios::binary);
    std::ostringstream bytes;
    bytes << in.rdbuf();
    return {bytes.str(), std::int64_t{info.st_mtim.tv_sec} * 1'000'000'000 + info.st_mtim.tv_nsec};
}

}  // namespace pinscope::test
