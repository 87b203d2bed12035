// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/record/RecordingReader.h"

#include <algorithm>

#include "engine/record/RecordedRunSource.h"
#include "engine/record/RecordingSchema.h"
#include "engine/record/RecordingTables.h"

namespace pinscope {
namespace {

// Everything of the run up to the end of what was recorded.
constexpr TimeNs kBeforeStart = -1;

// What a run that did not finish began with, its figures over what was recorded: the metrics
// from the spans, the pinned footprint from the counters and NUMA samples.
RunSummary unfinished_summary(const RunRow& row, const RunRecord& record) {
    RunSummary summary = row.start_summary;
    summary.metrics = metrics_of_recorded(record.spans, row.info.origin, row.data_end, row.info.config.batch_size);
    PoolStats& pinned = summary.pinned;
    for (const CounterSample& sample : record.counters) {
        PoolStat* stat = sample.counter == Counter::PinnedInUseBytes     ? &pinned.allocated_bytes
                         : sample.counter == Counter::PinnedReservedBytes ? &pinned.reserved_bytes
                                                                          : nullptr;
        if (stat == nullptr) continue;
        stat->current = static_cast<std::int64_t>(sample.value);
        stat->peak = std::max(stat->peak, stat->current);
    }
    for (const NumaSample& sample : record.numa_samples) {
        summary.numa.usage.nodes = sample.pinned;
        summary.numa.usage.cross_node_h2d_bytes = sample.cross_node_h2d_bytes;
        summary.numa.usage.cross_node_host_copy_bytes = sample.cross_node_host_copy_bytes;
        for (const NodeUsage& node : sample.pinned) {
            auto peak = std::find_if(summary.numa.pinned_peak.begin(), summary.numa.pinned_peak.end(),
                                     [&](const NodeUsage& p) { return p.node == node.node; });
            if (peak == summary.numa.pinned_peak.end()) peak = summary.numa.pinned_peak.insert(peak, {node.node, 0});
            peak->pinned_bytes = std::max(peak->pinned_bytes, node.pinned_bytes);
        }
    }
    summary.segments = segments_of_recorded(row, record.spans, record.counters);
    summary.warnings.push_back(unfinished_warning(row));
    return summary;
}

}  // namespace

RecordingReader::RecordingReader(const std::string& path) : path_(path) {
    check_recording_file(path);
    try {
        db_ = std::make_shared<SqliteDatabase>(path, SqliteDatabase::Mode::ReadOnly);
        check_recording_schema(*db_, path);
    } catch (const SqliteError& error) {
        throw_unreadable(path, error);
    }
}

RecordingReader::~RecordingReader() = default;

std::vector<RecordedRunInfo> RecordingReader::runs() const {
    RecordingTables tables(db_, path_);
    std::vector<RecordedRunInfo> runs;
    for (const std::int64_t id : tables.run_ids()) runs.push_back(tables.run(id).info);
    return runs;
}

RecordedRunInfo RecordingReader::run(std::int64_t id) const { return RecordingTables(db_, path_).run(id).info; }

RecordedRun RecordingReader::load(std::int64_t id) const {
    RecordingTables tables(db_, path_);
    const RunRow row = tables.run(id);
    const TimeNs origin = row.info.origin;
    RecordedRun run;
    run.info = row.info;
    RunRecord& record = run.record;
    record.origin = origin;
    record.spans = tables.spans_in_recorded_order(id, origin);
    record.counters = tables.counters(id, origin, kBeforeStart, row.data_end);
    record.markers = tables.markers(id, origin, kBeforeStart, row.data_end);
    record.numa_samples = tables.numa_samples(id, origin, kBeforeStart, row.data_end);
    record.summary = row.final_summary ? *row.final_summary : unfinished_summary(row, record);
    return run;
}

RunSummary RecordingReader::summary(std::int64_t id) const {
    if (const RunRow row = RecordingTables(db_, path_).run(id); row.final_summary) return *row.final_summary;
    return load(id).record.summary;
}

std::vector<StageDurations> RecordingReader::stage_durations(std::int64_t id) const {
    RecordingTables tables(db_, path_);
    tables.run(id);  // throws, naming the runs the file has, when it has no such run
    StageDurationSamples samples;
    tables.add_span_durations(id, samples);
    return samples.durations();
}

std::shared_ptr<RunSource> RecordingReader::source(std::int64_t id) const {
    auto tables = std::make_shared<RecordingTables>(db_, path_);
    RunRow row = tables->run(id);
    return std::make_shared<RecordedRunSource>(std::move(tables), std::move(row));
}

}  // namespace pinscope
