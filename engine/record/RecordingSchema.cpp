// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/record/RecordingSchema.h"

#include <fcntl.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>

#include "engine/BuildConfig.h"
#include "engine/files/InputFile.h"
#include "engine/metrics/MetricFields.h"
#include "engine/record/SqliteDatabase.h"
#include "engine/text/TextFormat.h"
#include "engine/text/UntrustedText.h"
#include "engine/trace/Counter.h"
#include "engine/trace/Trace.h"

namespace pinscope {
namespace {

// Version 2 (version 1 had no segments table). The figures' columns of runs and segments are
// the metric table's (engine/metrics/MetricFields.h), in its order. Times are nanoseconds from the run's start (runs.origin_ns on the recording
// machine's steady clock); codes of stages, lanes, counters and markers are named in the *_names
// tables of the same file, so that a reader goes by the names. Spans are kept in the order of
// their end within each run (one B-tree, no index to keep beside it: half the cost per span of
// a table and an index), and `seq` is their place in the order the run recorded them.
constexpr const char* kSchema = R"sql(
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE stage_names (code INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
CREATE TABLE lane_kind_names (code INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
CREATE TABLE counter_names (code INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
CREATE TABLE marker_kind_names (code INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
CREATE TABLE runs (
  id INTEGER PRIMARY KEY,
  started_utc TEXT NOT NULL,
  host_name TEXT NOT NULL,
  pinscope_version TEXT NOT NULL,
  origin_ns INTEGER NOT NULL,
  config_json TEXT NOT NULL,
  device_kind TEXT NOT NULL,
  device_name TEXT NOT NULL,
  device_profile TEXT NOT NULL,
  device_detail TEXT NOT NULL,
  device_pci_bus_id TEXT NOT NULL,
  host_mode TEXT NOT NULL,
  topology_source TEXT,
  topology_from_file INTEGER NOT NULL,
  topology_xml TEXT,
  memlock_limit_bytes INTEGER,
  memlock_exempt INTEGER NOT NULL,
  pinned_budget_bytes INTEGER NOT NULL,
  finished INTEGER NOT NULL DEFAULT 0,
  summary_json TEXT,
  metrics_begin_ns INTEGER,
  metrics_end_ns INTEGER,
  @METRICS@
  model_lag REAL,
  pinned_peak_bytes INTEGER,
  dropped_spans INTEGER
);
CREATE TABLE segments (
  run_id INTEGER NOT NULL,
  idx INTEGER NOT NULL,
  start_ns INTEGER NOT NULL,
  end_ns INTEGER,
  change TEXT,
  config_json TEXT NOT NULL,
  @METRICS@
  pinned_peak_bytes INTEGER,
  pinned_in_use_peak_bytes INTEGER,
  host_allocations INTEGER,
  cache_hits INTEGER,
  bottleneck_json TEXT,
  PRIMARY KEY (run_id, idx)
) WITHOUT ROWID;
CREATE TABLE spans (
  run_id INTEGER NOT NULL,
  end_ns INTEGER NOT NULL,
  seq INTEGER NOT NULL,
  start_ns INTEGER NOT NULL,
  lane_kind INTEGER NOT NULL,
  lane_index INTEGER NOT NULL,
  stage INTEGER NOT NULL,
  batch INTEGER NOT NULL,
  bytes INTEGER NOT NULL,
  cpu INTEGER,
  numa_node INTEGER,
  PRIMARY KEY (run_id, end_ns, seq)
) WITHOUT ROWID;
CREATE TABLE counters (run_id INTEGER NOT NULL, time_ns INTEGER NOT NULL, counter INTEGER NOT NULL, value REAL NOT NULL);
CREATE INDEX counters_by_time ON counters (run_id, time_ns);
CREATE TABLE markers (run_id INTEGER NOT NULL, time_ns INTEGER NOT NULL, kind INTEGER NOT NULL, text TEXT NOT NULL);
CREATE INDEX markers_by_time ON markers (run_id, time_ns);
CREATE TABLE numa_samples (
  id INTEGER PRIMARY KEY,
  run_id INTEGER NOT NULL,
  time_ns INTEGER NOT NULL,
  cross_node_h2d_bytes INTEGER NOT NULL,
  cross_node_host_copy_bytes INTEGER NOT NULL
);
CREATE INDEX numa_samples_by_time ON numa_samples (run_id, time_ns);
CREATE TABLE numa_pinned (
  sample_id INTEGER NOT NULL,
  node INTEGER NOT NULL,
  pinned_bytes INTEGER NOT NULL,
  PRIMARY KEY (sample_id, node)
) WITHOUT ROWID;
)sql";

// The schema with the metric table's columns in place of @METRICS@.
std::string schema_sql() {
    std::string columns;
    for (const MetricField& field : metric_fields())
        columns += std::string(field.key) + (field.kind == MetricKind::Count ? " INTEGER,\n  " : " REAL,\n  ");
    std::string sql = kSchema;
    for (std::size_t at = sql.find("@METRICS@\n  "); at != std::string::npos; at = sql.find("@METRICS@\n  "))
        sql.replace(at, std::string("@METRICS@\n  ").size(), columns);
    return sql;
}

template <typename Enum>
void name_codes(SqliteDatabase& db, const char* table, int count) {
    SqliteStatement insert = db.prepare(std::string("INSERT INTO ") + table + " (code, name) VALUES (?1, ?2)");
    for (int code = 0; code < count; ++code) {
        insert.bind(1, std::int64_t{code}).bind(2, std::string_view(to_string(static_cast<Enum>(code))));
        insert.run();
    }
}

std::string meta_value(SqliteDatabase& db, const char* key) {
    SqliteStatement select = db.prepare("SELECT value FROM meta WHERE key = ?1");
    select.bind(1, std::string_view(key));
    return select.step() ? select.text(0) : std::string();
}

std::uint32_t big_endian(const unsigned char* bytes) {
    return std::uint32_t{bytes[0]} << 24 | std::uint32_t{bytes[1]} << 16 | std::uint32_t{bytes[2]} << 8 | bytes[3];
}

}  // namespace

void check_recording_file(const std::string& path) {
    const std::string name = printable_path(path);
    std::uint64_t size = 0;
    try {
        size = check_input_file(path);
    } catch (const InputFileError& error) {
        throw RecordingError(name + ": " + error.what());
    }
    if (size == 0) throw RecordingError(name + ": the file is empty, not a pinscope recording");
    std::array<unsigned char, 100> header{};
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) throw RecordingError(name + ": cannot read it: " + std::strerror(errno));
    const ssize_t got = ::read(fd, header.data(), header.size());
    ::close(fd);
    constexpr char kMagic[] = "SQLite format 3";  // and its NUL: 16 bytes
    if (got < 16 || std::memcmp(header.data(), kMagic, sizeof kMagic) != 0)
        throw RecordingError(name + ": not an SQLite database, so not a pinscope recording");
    if (got < static_cast<ssize_t>(header.size()))
        throw RecordingError(name + ": truncated: the file ends inside the database header");
    // The page count in the header is valid when its change counter matches the one at offset 92;
    // beside a write-ahead log or a journal, pages may still be on their way into the file.
    if (::access((path + "-wal").c_str(), F_OK) == 0 || ::access((path + "-journal").c_str(), F_OK) == 0) return;
    std::uint64_t page_size = (std::uint64_t{header[16]} << 8) | header[17];
    if (page_size == 1) page_size = 65536;
    const std::uint32_t pages = big_endian(&header[28]);
    if (big_endian(&header[24]) == big_endian(&header[92]) && pages > 0 && page_size * pages > size)
        throw RecordingError(name + ": truncated: the database says " + format_size(page_size * pages) +
                             " and the file holds " + format_size(size));
}

void create_recording_schema(SqliteDatabase& db) {
    db.execute(schema_sql());
    SqliteStatement meta = db.prepare("INSERT INTO meta (key, value) VALUES (?1, ?2)");
    meta.bind(1, std::string_view("format")).bind(2, std::string_view(kRecordingFormat)).run();
    meta.bind(1, std::string_view("format_version")).bind(2, std::string_view(std::to_string(kRecordingFormatVersion))).run();
    meta.bind(1, std::string_view("created_by")).bind(2, std::string_view("pinscope " PINSCOPE_VERSION)).run();
    name_codes<Stage>(db, "stage_names", kStageCount);
    name_codes<LaneKind>(db, "lane_kind_names", kLaneKindCount);
    name_codes<Counter>(db, "counter_names", kCounterCount);
    name_codes<MarkerKind>(db, "marker_kind_names", kMarkerKindCount);
    db.execute("PRAGMA application_id = " + std::to_string(kRecordingApplicationId) +
               "; PRAGMA user_version = " + std::to_string(kRecordingFormatVersion));
}

void throw_unreadable(const std::string& path, const SqliteError& error) {
    const std::string name = printable_path(path);
    if (error.not_a_database()) throw RecordingError(name + ": not an SQLite database, so not a pinscope recording");
    // SQLite's message can quote the file (a malformed schema's SQL, lines and all): echoed as input.
    const std::string sqlite = printable(error.what(), 2 * kEchoChars);
    if (error.damaged()) throw RecordingError(name + ": damaged or truncated (SQLite: " + sqlite + ")");
    throw RecordingError(name + ": cannot read it (SQLite: " + sqlite + ")");
}

bool is_empty_database(SqliteDatabase& db) {
    return db.query_integer("SELECT count(*) FROM sqlite_schema") == 0;
}

std::int64_t check_recording_schema(SqliteDatabase& db, const std::string& path, SchemaUse use) {
    const std::string name = printable_path(path);
    const std::int64_t application = db.query_integer("PRAGMA application_id");
    const std::int64_t version = db.query_integer("PRAGMA user_version");
    if (application != kRecordingApplicationId) {
        throw RecordingError(name + (is_empty_database(db) ? ": an empty SQLite database, not a pinscope recording"
                                                           : ": an SQLite database, but not a pinscope recording"));
    }
    const std::string supported = "this pinscope reads versions " + std::to_string(kOldestReadableFormatVersion) +
                                  " to " + std::to_string(kRecordingFormatVersion);
    if (version > kRecordingFormatVersion)
        throw RecordingError(name + ": a pinscope recording of a newer format (version " + std::to_string(version) +
                             "; " + supported + "): open it with a newer pinscope");
    if (version < kOldestReadableFormatVersion)
        throw RecordingError(name + ": a pinscope recording of an older format (version " + std::to_string(version) +
                             "; " + supported + ")");
    if (use == SchemaUse::Append && version != kRecordingFormatVersion)
        throw RecordingError(name + ": a pinscope recording of format version " + std::to_string(version) +
                             "; this pinscope appends runs only to version " + std::to_string(kRecordingFormatVersion) +
                             " files (it reads this one): record into a new file");
    const bool has_meta = db.query_integer("SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = 'meta'") > 0;
    if (!has_meta || meta_value(db, "format") != kRecordingFormat ||
        meta_value(db, "format_version") != std::to_string(version))
        throw RecordingError(name + ": damaged: its header says pinscope recording version " + std::to_string(version) +
                             " but its meta table does not");
    return version;
}

}  // namespace pinscope
