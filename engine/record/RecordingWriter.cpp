// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/record/RecordingWriter.h"

#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <ctime>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "engine/BuildConfig.h"
#include "engine/config/ConfigJson.h"
#include "engine/export/SummaryJson.h"
#include "engine/metrics/MetricFields.h"
#include "engine/record/RecordingSchema.h"
#include "engine/record/SqliteDatabase.h"
#include "engine/text/TextFormat.h"
#include "engine/text/UntrustedText.h"

namespace pinscope {
namespace {

constexpr std::uint64_t kUnlimited = ~std::uint64_t{0};

std::int64_t as_integer(std::uint64_t value) { return static_cast<std::int64_t>(value); }

// "2026-11-25T10:15:30.123Z"
std::string utc_now_text() {
    const auto now = std::chrono::system_clock::now();
    const std::time_t seconds = std::chrono::system_clock::to_time_t(now);
    const auto millis = std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count() % 1000;
    std::tm utc{};
    gmtime_r(&seconds, &utc);
    std::array<char, 32> text{};
    std::strftime(text.data(), text.size(), "%Y-%m-%dT%H:%M:%S", &utc);
    std::array<char, 8> fraction{};
    std::snprintf(fraction.data(), fraction.size(), ".%03dZ", static_cast<int>(millis));
    return std::string(text.data()) + fraction.data();
}

std::string host_name() {
    std::array<char, 256> name{};
    if (::gethostname(name.data(), name.size() - 1) != 0) return "";
    return name.data();
}

void bind_optional_small(SqliteStatement& statement, int index, int value) {
    if (value < 0)
        statement.bind_null(index);
    else
        statement.bind(index, std::int64_t{value});
}

bool file_exists(const std::string& path) {
    struct stat info {};
    return ::stat(path.c_str(), &info) == 0;
}

constexpr int kSpanColumns = 11;
constexpr std::size_t kSpansPerInsert = 64;  // one statement per 64 spans: a quarter less time per span

std::string span_insert(std::size_t rows) {
    std::string sql = "INSERT INTO spans (run_id, lane_kind, lane_index, stage, batch, start_ns, end_ns, bytes, cpu, "
                      "numa_node, seq) VALUES ";
    for (std::size_t row = 0; row < rows; ++row)
        sql += std::string(row > 0 ? "," : "") + "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
    return sql;
}

// The segment's row: its start and configuration, and with `figures` its end and figures too.
std::string segment_upsert() {
    std::string sql = "INSERT OR REPLACE INTO segments (run_id, idx, start_ns, end_ns, change, config_json, "
                      "pinned_peak_bytes, pinned_in_use_peak_bytes, host_allocations, cache_hits, bottleneck_json";
    std::string values = "?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?";
    for (const MetricField& field : metric_fields()) {
        sql += std::string(", ") + field.key;
        values += ", ?";
    }
    return sql + ") VALUES (" + values + ")";
}

}  // namespace

struct RecordingWriter::Statements {
    explicit Statements(SqliteDatabase& db)
        : span(db.prepare(span_insert(1))),
          spans(db.prepare(span_insert(kSpansPerInsert))),
          counter(db.prepare("INSERT INTO counters (run_id, time_ns, counter, value) VALUES (?1, ?2, ?3, ?4)")),
          marker(db.prepare("INSERT INTO markers (run_id, time_ns, kind, text) VALUES (?1, ?2, ?3, ?4)")),
          numa_sample(db.prepare("INSERT INTO numa_samples (run_id, time_ns, cross_node_h2d_bytes, "
                                 "cross_node_host_copy_bytes) VALUES (?1, ?2, ?3, ?4)")),
          numa_pinned(db.prepare("INSERT OR REPLACE INTO numa_pinned (sample_id, node, pinned_bytes) VALUES (?1, ?2, ?3)")),
          segment(db.prepare(segment_upsert())),
          begin(db.prepare("BEGIN")),
          commit(db.prepare("COMMIT")) {}
    SqliteStatement span, spans, counter, marker, numa_sample, numa_pinned, segment, begin, commit;
};

RecordingWriter::RecordingWriter(const std::string& path) : path_(path) {
    const std::string name = printable_path(path);
    const bool existed = file_exists(path);
    try {
        if (existed) {
            check_recording_file(path);
            // Looked at read-only first, so that a database of something else is never written to.
            SqliteDatabase probe(path, SqliteDatabase::Mode::ReadOnly);
            check_recording_schema(probe, path, SchemaUse::Append);
        }
        db_ = std::make_unique<SqliteDatabase>(path, SqliteDatabase::Mode::ReadWriteCreate);
        // WAL: readers (pinscope-cli show, the window) read beside the writer, neither waiting on
        // the other, and a commit costs no fsync (synchronous NORMAL), yet survives the process
        // being killed; only a power loss can take the last commits.
        db_->execute("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL");
        db_->execute("BEGIN IMMEDIATE");
        try {
            if (is_empty_database(*db_) && !existed)
                create_recording_schema(*db_);
            else
                check_recording_schema(*db_, path, SchemaUse::Append);
            db_->execute("COMMIT");
        } catch (...) {
            db_->execute("ROLLBACK");
            throw;
        }
        statements_ = std::make_unique<Statements>(*db_);
    } catch (const SqliteError& error) {
        if (error.not_a_database() || error.damaged()) throw_unreadable(path, error);
        throw std::runtime_error("cannot write recording " + name + ": " + error.what());
    }
}

RecordingWriter::~RecordingWriter() {
    std::lock_guard lock(mutex_);
    try {
        if (in_transaction_) commit();
        statements_.reset();
        // Back to a rollback journal, so that the finished file is one file that opens anywhere
        // (read-only media included). Not while another connection reads it: then it stays WAL.
        db_->set_busy_timeout(0);
        db_->execute("PRAGMA wal_checkpoint(PASSIVE)");  // what a reader's snapshot allows, if one is open
        db_->execute("PRAGMA journal_mode = DELETE");
    } catch (const std::exception&) {  // what was committed stays; nothing more can be done here
    }
}

std::int64_t RecordingWriter::run_id() const {
    std::lock_guard lock(mutex_);
    return run_id_;
}

void RecordingWriter::fail(const std::exception& error) {
    if (!failure_) failure_ = error.what();
    recording_ = false;
}

void RecordingWriter::commit() {
    statements_->commit.run();
    in_transaction_ = false;
    last_commit_ = std::chrono::steady_clock::now();
}

void RecordingWriter::commit_if_due() {
    if (std::chrono::steady_clock::now() - last_commit_ < kCommitPeriod) return;
    commit();
    statements_->begin.run();
    in_transaction_ = true;
}

void RecordingWriter::begin(const RunStart& start) {
    std::lock_guard lock(mutex_);
    failure_.reset();
    recording_ = false;
    try {
        if (in_transaction_) commit();
        const RunSummary& s = start.summary;
        SqliteStatement insert = db_->prepare(
            "INSERT INTO runs (started_utc, host_name, pinscope_version, origin_ns, config_json, device_kind, "
            "device_name, device_profile, device_detail, device_pci_bus_id, host_mode, topology_source, "
            "topology_from_file, topology_xml, memlock_limit_bytes, memlock_exempt, pinned_budget_bytes) "
            "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17)");
        insert.bind(1, std::string_view(utc_now_text()))
            .bind(2, std::string_view(host_name()))
            .bind(3, std::string_view(PINSCOPE_VERSION))
            .bind(4, std::int64_t{start.origin})
            .bind(5, std::string_view(json_text(to_json(s.config))))
            .bind(6, std::string_view(to_string(s.device.kind)))
            .bind(7, std::string_view(s.device.name))
            .bind(8, std::string_view(s.device.profile))
            .bind(9, std::string_view(s.device.detail))
            .bind(10, std::string_view(s.device.pci_bus_id))
            .bind(11, std::string_view(to_string(s.host)))
            .bind(13, std::int64_t{start.topology && start.topology->from_file});
        if (start.topology) {
            insert.bind(12, std::string_view(start.topology->source));
            if (start.topology->xml.empty())
                insert.bind_null(14);
            else
                insert.bind(14, std::string_view(start.topology->xml));
        } else {
            insert.bind_null(12).bind_null(14);
        }
        if (s.memlock_limit_bytes == kUnlimited)
            insert.bind_null(15);
        else
            insert.bind(15, as_integer(s.memlock_limit_bytes));
        insert.bind(16, std::int64_t{s.memlock_exempt}).bind(17, as_integer(s.pinned.budget_bytes));
        insert.run();  // in autocommit: the run is in the file at once
        run_id_ = db_->last_insert_id();
        next_seq_ = 0;
        origin_ = start.origin;
        RunSegment first;
        first.begin = start.origin;
        first.config = s.config;
        write_segment(s.segments.empty() ? first : s.segments.front(), false);
        statements_->begin.run();
        in_transaction_ = true;
        last_commit_ = std::chrono::steady_clock::now();
        recording_ = true;
    } catch (const std::exception& error) {
        fail(error);
    }
}

// The span's columns as parameters `first` on of `statement`.
void RecordingWriter::bind_span(SqliteStatement& statement, int first, const Span& s) {
    statement.bind(first, run_id_)
        .bind(first + 1, std::int64_t{static_cast<int>(s.lane.kind)})
        .bind(first + 2, std::int64_t{s.lane.index})
        .bind(first + 3, std::int64_t{static_cast<int>(s.stage)})
        .bind(first + 4, as_integer(s.batch))
        .bind(first + 5, std::int64_t{s.start - origin_})
        .bind(first + 6, std::int64_t{s.end - origin_})
        .bind(first + 7, as_integer(s.bytes));
    bind_optional_small(statement, first + 8, s.cpu);
    bind_optional_small(statement, first + 9, s.numa_node);
    statement.bind(first + 10, next_seq_++);
}

void RecordingWriter::insert(const TraceDelta& delta) {
    std::size_t i = 0;
    for (; i + kSpansPerInsert <= delta.spans.size(); i += kSpansPerInsert) {
        for (std::size_t k = 0; k < kSpansPerInsert; ++k)
            bind_span(statements_->spans, static_cast<int>(k) * kSpanColumns + 1, delta.spans[i + k]);
        statements_->spans.run();
    }
    for (; i < delta.spans.size(); ++i) {
        bind_span(statements_->span, 1, delta.spans[i]);
        statements_->span.run();
    }
    SqliteStatement& counter = statements_->counter;
    for (const CounterSample& c : delta.counters) {
        counter.bind(1, run_id_)
            .bind(2, std::int64_t{c.time - origin_})
            .bind(3, std::int64_t{static_cast<int>(c.counter)})
            .bind(4, c.value)
            .run();
    }
    SqliteStatement& marker = statements_->marker;
    for (const Marker& m : delta.markers) {
        marker.bind(1, run_id_)
            .bind(2, std::int64_t{m.time - origin_})
            .bind(3, std::int64_t{static_cast<int>(m.kind)})
            .bind(4, std::string_view(m.text))
            .run();
    }
}

void RecordingWriter::record(const TraceDelta& delta) {
    std::lock_guard lock(mutex_);
    if (!recording_) return;
    try {
        insert(delta);
        commit_if_due();
    } catch (const std::exception& error) {
        fail(error);
    }
}

void RecordingWriter::write_segment(const RunSegment& segment, bool figures) {
    SqliteStatement& row = statements_->segment;
    row.bind(1, run_id_).bind(2, std::int64_t{segment.index}).bind(3, std::int64_t{segment.begin - origin_});
    if (segment.change.empty())
        row.bind_null(5);
    else
        row.bind(5, std::string_view(segment.change));
    row.bind(6, std::string_view(json_text(to_json(segment.config))));
    int column = 12;
    if (!figures) {
        for (int i = 4; i <= 11; ++i)
            if (i != 5 && i != 6) row.bind_null(i);
        for (std::size_t i = 0; i < metric_fields().size(); ++i) row.bind_null(column++);
        row.run();
        return;
    }
    row.bind(4, std::int64_t{segment.end - origin_})
        .bind(7, as_integer(segment.pinned_peak_bytes))
        .bind(8, as_integer(segment.pinned_in_use_peak_bytes))
        .bind(9, as_integer(segment.host_allocations))
        .bind(10, as_integer(segment.cache_hits))
        .bind(11, std::string_view(json_text(bottleneck_to_json(segment.bottleneck))));
    for (const MetricField& field : metric_fields()) {
        const double value = field.get(segment.metrics);
        if (field.kind == MetricKind::Count)
            row.bind(column++, static_cast<std::int64_t>(value));
        else
            row.bind(column++, value);
    }
    row.run();
}

void RecordingWriter::begin_segment(const RunSegment& segment) {
    std::lock_guard lock(mutex_);
    if (!recording_) return;
    try {
        write_segment(segment, false);
        commit_if_due();
    } catch (const std::exception& error) {
        fail(error);
    }
}

void RecordingWriter::record(const NumaSample& sample) {
    std::lock_guard lock(mutex_);
    if (!recording_) return;
    try {
        statements_->numa_sample.bind(1, run_id_)
            .bind(2, std::int64_t{sample.time - origin_})
            .bind(3, as_integer(sample.cross_node_h2d_bytes))
            .bind(4, as_integer(sample.cross_node_host_copy_bytes))
            .run();
        const std::int64_t id = db_->last_insert_id();
        for (const NodeUsage& node : sample.pinned)
            statements_->numa_pinned.bind(1, id).bind(2, std::int64_t{node.node}).bind(3, as_integer(node.pinned_bytes)).run();
        commit_if_due();
    } catch (const std::exception& error) {
        fail(error);
    }
}

void RecordingWriter::finish(const RunSummary& summary) {
    std::lock_guard lock(mutex_);
    if (recording_) {
        recording_ = false;
        try {
            const Metrics& m = summary.metrics;
            std::string sql = "UPDATE runs SET finished = 1, summary_json = ?2, metrics_begin_ns = ?3, "
                              "metrics_end_ns = ?4, model_lag = ?5, pinned_peak_bytes = ?6, dropped_spans = ?7";
            int column = 8;
            for (const MetricField& field : metric_fields())
                sql += std::string(", ") + field.key + " = ?" + std::to_string(column++);
            SqliteStatement update = db_->prepare(sql + " WHERE id = ?1");
            update.bind(1, run_id_)
                .bind(2, std::string_view(json_text(summary_to_json(summary), 2) + "\n"))
                .bind(3, std::int64_t{m.begin - origin_})
                .bind(4, std::int64_t{m.end - origin_})
                .bind(5, summary.model_lag)
                .bind(6, std::int64_t{summary.pinned.reserved_bytes.peak})
                .bind(7, as_integer(summary.dropped_spans));
            column = 8;
            for (const MetricField& field : metric_fields()) {
                const double value = field.get(m);
                if (field.kind == MetricKind::Count)
                    update.bind(column++, static_cast<std::int64_t>(value));
                else
                    update.bind(column++, value);
            }
            update.run();
            for (const RunSegment& segment : summary.segments) write_segment(segment, true);
            commit();
        } catch (const std::exception& error) {
            fail(error);
        }
        // A finished run is in the file itself, not only in its -wal beside it: the window keeps
        // its recording open between runs, and a file copied then must hold them. Tidying only:
        // the run is committed whether or not it can be done now.
        if (!failure_) {
            try {
                db_->execute("PRAGMA wal_checkpoint(PASSIVE)");
            } catch (const std::exception&) {
            }
        }
    }
    if (failure_) throw std::runtime_error("cannot write recording " + printable_path(path_) + ": " + *failure_);
}

}  // namespace pinscope
