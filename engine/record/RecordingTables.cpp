// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/record/RecordingTables.h"

#include <algorithm>
#include <limits>

#include <nlohmann/json.hpp>

#include "engine/analysis/SegmentTracker.h"
#include "engine/config/ConfigError.h"
#include "engine/config/ConfigJson.h"
#include "engine/metrics/MetricFields.h"
#include "engine/metrics/MetricsTracker.h"
#include "engine/record/RecordedSummary.h"
#include "engine/record/RecordingSchema.h"
#include "engine/text/TextFormat.h"
#include "engine/text/UntrustedText.h"

namespace pinscope {
namespace {

// Times in a sound file are nanoseconds of a steady clock and of a run: far inside these.
constexpr std::int64_t kMaxOrigin = std::int64_t{1} << 62;
constexpr std::int64_t kMaxTime = std::int64_t{1} << 60;

constexpr const char* kRunColumns =
    "id, started_utc, host_name, pinscope_version, origin_ns, config_json, device_kind, device_name, "
    "device_profile, device_detail, device_pci_bus_id, host_mode, topology_source, topology_from_file, topology_xml, "
    "memlock_limit_bytes, memlock_exempt, finished, summary_json, metrics_begin_ns, metrics_end_ns, model_lag, "
    "pinned_budget_bytes";
constexpr int kFirstMetricColumn = 23;  // the metric table's columns follow kRunColumns

// ", batches_per_s, samples_per_s, ...": the metric table's columns, in its order.
std::string metric_columns() {
    std::string columns;
    for (const MetricField& field : metric_fields()) columns += std::string(", ") + field.key;
    return columns;
}

// The metric table's figures from `first` on; NULL reads as 0.
Metrics metrics_of_row(const SqliteStatement& row, int first) {
    Metrics metrics;
    int column = first;
    for (const MetricField& field : metric_fields()) {
        const double value = field.kind == MetricKind::Count ? static_cast<double>(row.integer(column)) : row.real(column);
        field.set(metrics, value);
        ++column;
    }
    return metrics;
}

bool out_of_range(std::int64_t time) { return time < -kMaxTime || time > kMaxTime; }

std::string run_list(const std::vector<std::int64_t>& ids) {
    if (ids.empty()) return "it holds no run";
    if (ids.size() == 1) return "it holds run " + std::to_string(ids.front());
    const bool consecutive = ids.back() - ids.front() + 1 == static_cast<std::int64_t>(ids.size());
    if (consecutive) return "it holds runs " + std::to_string(ids.front()) + " to " + std::to_string(ids.back());
    std::string list;
    for (const std::int64_t id : ids) list += (list.empty() ? "" : ", ") + std::to_string(id);
    return "it holds runs " + list;
}

}  // namespace

RecordingTables::RecordingTables(std::shared_ptr<SqliteDatabase> db, std::string path)
    : db_(std::move(db)), path_(path), name_(printable_path(path)) {
    guarded([&] {
        version_ = db_->query_integer("PRAGMA user_version");
        stages_ = codes<Stage>("stage_names", kStageCount);
        lanes_ = codes<LaneKind>("lane_kind_names", kLaneKindCount);
        counters_ = codes<Counter>("counter_names", kCounterCount);
        marker_kinds_ = codes<MarkerKind>("marker_kind_names", kMarkerKindCount);
        return 0;
    });
}

// Version 2 keeps each segment's row; a version 1 run reads as one segment, the whole run with
// the configuration it ended with. Figures of a run that did not finish are left at 0 here
// (metrics_of_recorded works them out from the spans).
std::vector<RunSegment> RecordingTables::segments_of(const RunRow& row) {
    const TimeNs origin = row.info.origin;
    const auto whole_run = [&] {
        const RunSummary& summary = row.final_summary ? *row.final_summary : row.start_summary;
        RunSegment whole;
        whole.begin = origin;
        whole.end = origin + row.data_end;
        whole.config = summary.config;
        if (row.final_summary) {
            whole.metrics = summary.metrics;
            whole.pinned_peak_bytes = static_cast<std::uint64_t>(summary.pinned.reserved_bytes.peak);
            whole.pinned_in_use_peak_bytes = static_cast<std::uint64_t>(summary.pinned.allocated_bytes.peak);
            whole.host_allocations = summary.pinned.num_host_alloc;
            whole.cache_hits = summary.pinned.cache_hits;
            whole.bottleneck = summary.bottleneck;
        }
        return std::vector<RunSegment>{whole};
    };
    if (version_ < 2) return whole_run();
    const std::string what = "run " + std::to_string(row.info.id) + "'s segment ";
    SqliteStatement select = db_->prepare(
        "SELECT idx, start_ns, end_ns, change, config_json, pinned_peak_bytes, pinned_in_use_peak_bytes, "
        "host_allocations, cache_hits, bottleneck_json" + metric_columns() + " FROM segments WHERE run_id = ?1 ORDER BY idx");
    select.bind(1, row.info.id);
    std::vector<RunSegment> segments;
    while (select.step()) {
        RunSegment segment;
        const std::int64_t index = select.integer(0);
        if (index != static_cast<std::int64_t>(segments.size()) + 1) damaged(what + "numbers are not 1, 2, 3...");
        segment.index = static_cast<std::uint32_t>(index);
        const TimeNs begin = select.integer(1);
        const TimeNs end = select.is_null(2) ? row.data_end : select.integer(2);
        if (out_of_range(begin) || out_of_range(end) || end < begin ||
            (!segments.empty() && begin < segments.back().begin - origin))
            damaged(what + std::to_string(index) + ": its time range is out of range or out of order");
        segment.begin = origin + begin;
        segment.end = origin + end;
        if (!select.is_null(3)) segment.change = select.text(3);
        try {
            segment.config = config_from_json(nlohmann::json::parse(select.text(4)));
            if (!select.is_null(9)) segment.bottleneck = bottleneck_from_json(nlohmann::json::parse(select.text(9)));
        } catch (const std::exception& error) {
            damaged(what + std::to_string(index) + ": " + error.what());
        }
        segment.pinned_peak_bytes = static_cast<std::uint64_t>(select.integer(5));
        segment.pinned_in_use_peak_bytes = static_cast<std::uint64_t>(select.integer(6));
        segment.host_allocations = static_cast<std::uint64_t>(select.integer(7));
        segment.cache_hits = static_cast<std::uint64_t>(select.integer(8));
        segment.metrics = metrics_of_row(select, 10);
        segment.metrics.begin = segment.begin;
        segment.metrics.end = segment.end;
        segments.push_back(std::move(segment));
    }
    // A run copied from a version 1 file into this one has no segment rows: it reads as version 1's.
    if (segments.empty()) return whole_run();
    if (row.final_summary) segments.back().end = std::max(segments.back().end, row.final_summary->metrics.end);
    return segments;
}

void RecordingTables::throw_for(const SqliteError& error) const { throw_unreadable(path_, error); }

// `what` may quote the file (a JSON parser's message, a name it holds): echoed as input.
void RecordingTables::damaged(const std::string& what) const {
    throw RecordingError(name_ + ": damaged: " + printable(what, 4 * kEchoChars));
}

// The file's names for the codes it uses, matched to this pinscope's by name; a name it does not
// know stays out, and a row using its code is refused.
template <typename Enum>
std::map<std::int64_t, Enum> RecordingTables::codes(const char* table, int count) {
    std::map<std::int64_t, Enum> map;
    SqliteStatement select = db_->prepare(std::string("SELECT code, name FROM ") + table);
    while (select.step()) {
        const std::string name = select.text(1);
        for (int value = 0; value < count; ++value)
            if (name == to_string(static_cast<Enum>(value))) map[select.integer(0)] = static_cast<Enum>(value);
    }
    return map;
}

std::vector<std::int64_t> RecordingTables::run_ids() {
    return guarded([&] {
        std::vector<std::int64_t> ids;
        SqliteStatement select = db_->prepare("SELECT id FROM runs ORDER BY id");
        while (select.step()) ids.push_back(select.integer(0));
        return ids;
    });
}

RunRow RecordingTables::run(std::int64_t id) {
    return guarded([&] {
        SqliteStatement select =
            db_->prepare(std::string("SELECT ") + kRunColumns + metric_columns() + " FROM runs WHERE id = ?1");
        select.bind(1, id);
        if (!select.step()) throw RecordingError(name_ + ": there is no run " + std::to_string(id) + "; " + run_list(run_ids()));
        const std::string what = "run " + std::to_string(id);
        RunRow row;
        RecordedRunInfo& info = row.info;
        info.id = id;
        info.started_utc = select.text(1);
        info.host_name = select.text(2);
        info.pinscope_version = select.text(3);
        info.origin = select.integer(4);
        if (info.origin < 0 || info.origin >= kMaxOrigin) damaged(what + ": its origin is out of range");
        RunSummary& start = row.start_summary;
        try {
            info.config = config_from_json(nlohmann::json::parse(select.text(5)));
            start.device.kind = device_kind_from_text(select.text(6));
            start.host = host_mode_from_text(select.text(11));
        } catch (const std::exception& error) {  // JSON, configuration and text errors alike
            damaged(what + ": " + error.what());
        }
        start.config = info.config;
        start.device.name = select.text(7);
        start.device.profile = select.text(8);
        start.device.detail = select.text(9);
        start.device.pci_bus_id = select.text(10);
        start.numa.topology_source = select.text(12);
        start.numa.from_file = select.integer(13) != 0;
        if (!select.is_null(14)) row.topology_xml = select.text(14);
        start.memlock_limit_bytes =
            select.is_null(15) ? std::numeric_limits<std::uint64_t>::max() : static_cast<std::uint64_t>(select.integer(15));
        start.memlock_exempt = select.integer(16) != 0;
        start.pinned.budget_bytes = static_cast<std::uint64_t>(select.integer(22));
        info.device = start.device;
        info.host = start.host;
        info.finished = select.integer(17) != 0;
        TimeNs end = 0;
        if (info.finished) {
            RunSummary summary;
            try {
                summary = summary_from_json(nlohmann::json::parse(select.text(18)));
            } catch (const std::exception& error) {
                damaged(what + ": its summary: " + error.what());
            }
            // The exact figures: summary.json clamps fractions and leaves out the range.
            const TimeNs begin = select.integer(19);
            end = select.integer(20);
            if (out_of_range(begin) || out_of_range(end)) damaged(what + ": its time range is out of range");
            Metrics& m = summary.metrics;
            m = metrics_of_row(select, kFirstMetricColumn);
            m.begin = info.origin + begin;
            m.end = info.origin + end;
            summary.model_lag = select.real(21);
            summary.memlock_exempt = start.memlock_exempt;
            info.length_s = m.wall_s;
            info.batches_per_s = m.batches_per_s;
            row.final_summary = std::move(summary);
        }
        select.reset();
        SqliteStatement last = db_->prepare(
            "SELECT max(coalesce((SELECT max(end_ns) FROM spans WHERE run_id = ?1), 0), "
            "coalesce((SELECT max(time_ns) FROM counters WHERE run_id = ?1), 0), "
            "coalesce((SELECT max(time_ns) FROM markers WHERE run_id = ?1), 0), "
            "coalesce((SELECT max(time_ns) FROM numa_samples WHERE run_id = ?1), 0))");
        last.bind(1, id);
        last.step();
        const TimeNs recorded_end = last.integer(0);
        if (out_of_range(recorded_end)) damaged(what + ": a time is out of range");
        row.data_end = std::max(recorded_end, end);
        if (!info.finished) info.length_s = static_cast<double>(row.data_end) * 1e-9;
        row.segments = segments_of(row);
        if (row.final_summary) row.final_summary->segments = row.segments;
        return row;
    });
}

std::shared_ptr<const MachineTopology> RecordingTables::topology(const RunRow& row) {
    if (!row.topology_xml) return nullptr;
    try {
        MachineTopology topology =
            load_topology_xml_text(*row.topology_xml, name_ + " (run " + std::to_string(row.info.id) + "'s topology)");
        topology.source = row.start_summary.numa.topology_source;
        topology.from_file = row.start_summary.numa.from_file;
        return std::make_shared<const MachineTopology>(std::move(topology));
    } catch (const TopologyError& error) {
        throw RecordingError(std::string("damaged: ") + error.what());
    }
}

Span RecordingTables::span_of(const SqliteStatement& row, int c, TimeNs origin) const {
    Span span;
    const auto lane = lanes_.find(row.integer(c));
    const auto stage = stages_.find(row.integer(c + 2));
    if (lane == lanes_.end() || stage == stages_.end()) damaged("a span of a lane or stage this pinscope does not know");
    const std::int64_t index = row.integer(c + 1);
    const TimeNs start = row.integer(c + 4);
    const TimeNs end = row.integer(c + 5);
    if (index < 0 || index > std::numeric_limits<std::uint16_t>::max()) damaged("a span's lane index is out of range");
    if (out_of_range(start) || out_of_range(end)) damaged("a span's time is out of range");
    span.lane = {lane->second, static_cast<std::uint16_t>(index)};
    span.stage = stage->second;
    span.batch = static_cast<std::uint64_t>(row.integer(c + 3));
    span.start = origin + start;
    span.end = origin + end;
    span.bytes = static_cast<std::uint64_t>(row.integer(c + 6));
    const auto small = [&](int column) {
        if (row.is_null(column)) return std::int16_t{-1};
        const std::int64_t value = row.integer(column);
        if (value < 0 || value > std::numeric_limits<std::int16_t>::max()) damaged("a span's CPU or node is out of range");
        return static_cast<std::int16_t>(value);
    };
    span.cpu = small(c + 7);
    span.numa_node = small(c + 8);
    return span;
}

std::vector<Span> RecordingTables::spans_in_recorded_order(std::int64_t id, TimeNs origin) {
    return guarded([&] {
        // Read in the table's order (by end), then put back in the order recorded.
        SqliteStatement select = db_->prepare(
            "SELECT seq, lane_kind, lane_index, stage, batch, start_ns, end_ns, bytes, cpu, numa_node FROM spans "
            "WHERE run_id = ?1");
        select.bind(1, id);
        std::vector<std::pair<std::int64_t, Span>> numbered;
        while (select.step()) numbered.emplace_back(select.integer(0), span_of(select, 1, origin));
        std::stable_sort(numbered.begin(), numbered.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
        std::vector<Span> spans;
        spans.reserve(numbered.size());
        for (const auto& entry : numbered) spans.push_back(entry.second);
        return spans;
    });
}

void RecordingTables::add_span_durations(std::int64_t id, StageDurationSamples& samples) {
    guarded([&] {
        SqliteStatement select = db_->prepare("SELECT stage, start_ns, end_ns FROM spans WHERE run_id = ?1");
        select.bind(1, id);
        while (select.step()) {
            const auto stage = stages_.find(select.integer(0));
            if (stage == stages_.end()) damaged("a span of a lane or stage this pinscope does not know");
            const TimeNs start = select.integer(1);
            const TimeNs end = select.integer(2);
            if (out_of_range(start) || out_of_range(end)) damaged("a span's time is out of range");
            samples.add(stage->second, end - start);
        }
    });
}

std::vector<Span> RecordingTables::spans_by_end(std::int64_t id, TimeNs origin, SpanCursor& after, TimeNs until,
                                                std::size_t limit) {
    return guarded([&] {
        SqliteStatement select = db_->prepare(
            "SELECT seq, lane_kind, lane_index, stage, batch, start_ns, end_ns, bytes, cpu, numa_node FROM spans "
            "WHERE run_id = ?1 AND end_ns >= ?2 AND (end_ns > ?2 OR seq > ?3) AND end_ns <= ?4 "
            "ORDER BY end_ns, seq LIMIT ?5");
        select.bind(1, id).bind(2, std::int64_t{after.end}).bind(3, after.row).bind(4, std::int64_t{until});
        select.bind(5, static_cast<std::int64_t>(limit));
        std::vector<Span> spans;
        while (select.step()) {
            spans.push_back(span_of(select, 1, origin));
            after = {spans.back().end - origin, select.integer(0)};
        }
        return spans;
    });
}

std::vector<CounterSample> RecordingTables::counters(std::int64_t id, TimeNs origin, TimeNs from, TimeNs to) {
    return guarded([&] {
        SqliteStatement select = db_->prepare(
            "SELECT time_ns, counter, value FROM counters WHERE run_id = ?1 AND time_ns > ?2 AND time_ns <= ?3 "
            "ORDER BY time_ns, rowid");
        select.bind(1, id).bind(2, std::int64_t{from}).bind(3, std::int64_t{to});
        std::vector<CounterSample> samples;
        while (select.step()) {
            const auto counter = counters_.find(select.integer(1));
            if (counter == counters_.end()) damaged("a sample of a counter this pinscope does not know");
            samples.push_back({origin + select.integer(0), select.real(2), counter->second});
        }
        return samples;
    });
}

std::vector<Marker> RecordingTables::markers(std::int64_t id, TimeNs origin, TimeNs from, TimeNs to) {
    return guarded([&] {
        // In the order recorded, as the trace's marker log has them.
        SqliteStatement select = db_->prepare(
            "SELECT time_ns, kind, text FROM markers WHERE run_id = ?1 AND time_ns > ?2 AND time_ns <= ?3 ORDER BY rowid");
        select.bind(1, id).bind(2, std::int64_t{from}).bind(3, std::int64_t{to});
        std::vector<Marker> markers;
        while (select.step()) {
            const auto kind = marker_kinds_.find(select.integer(1));
            if (kind == marker_kinds_.end()) damaged("a marker of a kind this pinscope does not know");
            markers.push_back({origin + select.integer(0), kind->second, select.text(2)});
        }
        return markers;
    });
}

std::vector<NumaSample> RecordingTables::numa_samples(std::int64_t id, TimeNs origin, TimeNs from, TimeNs to) {
    return guarded([&] {
        SqliteStatement select = db_->prepare(
            "SELECT s.id, s.time_ns, s.cross_node_h2d_bytes, s.cross_node_host_copy_bytes, p.node, p.pinned_bytes "
            "FROM numa_samples s LEFT JOIN numa_pinned p ON p.sample_id = s.id "
            "WHERE s.run_id = ?1 AND s.time_ns > ?2 AND s.time_ns <= ?3 ORDER BY s.time_ns, s.id, p.node");
        select.bind(1, id).bind(2, std::int64_t{from}).bind(3, std::int64_t{to});
        std::vector<NumaSample> samples;
        std::int64_t last_id = -1;
        while (select.step()) {
            if (samples.empty() || select.integer(0) != last_id) {
                last_id = select.integer(0);
                samples.push_back({origin + select.integer(1), {}, static_cast<std::uint64_t>(select.integer(2)),
                                   static_cast<std::uint64_t>(select.integer(3))});
            }
            if (!select.is_null(4))
                samples.back().pinned.push_back(
                    {static_cast<int>(select.integer(4)), static_cast<std::uint64_t>(select.integer(5))});
        }
        return samples;
    });
}

std::optional<NumaSample> RecordingTables::numa_sample_at(std::int64_t id, TimeNs origin, TimeNs at) {
    const TimeNs time = guarded([&] {
        SqliteStatement select = db_->prepare("SELECT max(time_ns) FROM numa_samples WHERE run_id = ?1 AND time_ns <= ?2");
        select.bind(1, id).bind(2, std::int64_t{at});
        return select.step() && !select.is_null(0) ? select.integer(0) : TimeNs{-1};
    });
    if (time < 0) return std::nullopt;
    std::vector<NumaSample> samples = numa_samples(id, origin, time - 1, time);
    if (samples.empty()) return std::nullopt;
    return samples.back();
}

std::string unfinished_warning(const RunRow& row) {
    return "unfinished: the recording stops at " + format_fixed(static_cast<double>(row.data_end) * 1e-9, 3) +
           " s, before the run ended (the process recording it was stopped); the figures cover what was recorded";
}

Metrics metrics_of_recorded(const std::vector<Span>& spans, TimeNs origin, TimeNs data_end, std::uint32_t batch_size) {
    MetricsTracker tracker(origin, 1.0);
    tracker.set_batch_size(batch_size);
    tracker.add(spans);
    return tracker.whole_run(origin + data_end);
}

}  // namespace pinscope

namespace pinscope {

std::vector<RunSegment> segments_of_recorded(const RunRow& row, const std::vector<Span>& spans,
                                             const std::vector<CounterSample>& counters) {
    if (row.segments.empty()) return {};
    SegmentTracker tracker(row.info.origin, row.segments.front().config);
    for (std::size_t i = 1; i < row.segments.size(); ++i)
        tracker.begin_segment(row.segments[i].begin, row.segments[i].config, {}, {});
    tracker.add(spans, counters);
    return tracker.segments(row.info.origin + row.data_end, {});
}

}  // namespace pinscope
