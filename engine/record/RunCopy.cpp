// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/record/RunCopy.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <stdexcept>
#include <vector>

#include "engine/record/RecordingReader.h"
#include "engine/record/RecordingSchema.h"
#include "engine/record/SqliteDatabase.h"
#include "engine/text/UntrustedText.h"

namespace pinscope {
namespace {

std::vector<std::string> columns_of(SqliteDatabase& db, const std::string& table) {
    std::vector<std::string> columns;
    SqliteStatement info = db.prepare("SELECT name FROM pragma_table_info(?1)");
    info.bind(1, std::string_view(table));
    while (info.step()) columns.push_back(info.text(0));
    return columns;
}

// Rows of `table` whose `key` is `value` copied from `from` into `to`, the columns both have,
// `key` set to `new_value` and `skip` left for `to` to number. Returns how many.
std::size_t copy_rows(SqliteDatabase& from, SqliteDatabase& to, const std::string& table, const std::string& key,
                      std::int64_t value, std::int64_t new_value, const std::string& skip = "") {
    const std::vector<std::string> theirs = columns_of(from, table);
    const std::vector<std::string> ours = columns_of(to, table);
    std::vector<std::string> columns;
    for (const std::string& column : theirs)
        if (column != skip && std::find(ours.begin(), ours.end(), column) != ours.end()) columns.push_back(column);
    std::string list, marks;
    for (std::size_t i = 0; i < columns.size(); ++i) {
        list += (i ? ", " : "") + columns[i];
        marks += (i ? ", ?" : "?") + std::to_string(i + 1);
    }
    SqliteStatement select = from.prepare("SELECT " + list + " FROM " + table + " WHERE " + key + " = ?1");
    select.bind(1, value);
    SqliteStatement insert = to.prepare("INSERT INTO " + table + " (" + list + ") VALUES (" + marks + ")");
    std::size_t rows = 0;
    while (select.step()) {
        for (std::size_t i = 0; i < columns.size(); ++i) {
            const int index = static_cast<int>(i) + 1;
            if (columns[i] == key)
                insert.bind(index, new_value);
            else
                select.copy_value(static_cast<int>(i), insert, index);
        }
        insert.run();
        ++rows;
    }
    return rows;
}

bool has_table(SqliteDatabase& db, const char* table) {
    SqliteStatement select = db.prepare("SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = ?1");
    select.bind(1, std::string_view(table));
    return select.step() && select.integer(0) > 0;
}

// NUMA samples are numbered across runs: each gets a new number in `to`, its per-node rows with it.
void copy_numa(SqliteDatabase& from, SqliteDatabase& to, std::int64_t run, std::int64_t new_run) {
    SqliteStatement samples = from.prepare(
        "SELECT id, time_ns, cross_node_h2d_bytes, cross_node_host_copy_bytes FROM numa_samples WHERE run_id = ?1 ORDER BY id");
    samples.bind(1, run);
    SqliteStatement insert = to.prepare(
        "INSERT INTO numa_samples (run_id, time_ns, cross_node_h2d_bytes, cross_node_host_copy_bytes) VALUES (?1, ?2, ?3, ?4)");
    while (samples.step()) {
        insert.bind(1, new_run);
        for (int i = 1; i <= 3; ++i) samples.copy_value(i, insert, i + 1);
        insert.run();
        copy_rows(from, to, "numa_pinned", "sample_id", samples.integer(0), to.last_insert_id());
    }
}

std::int64_t copy_into(SqliteDatabase& from, SqliteDatabase& to, std::int64_t run) {
    to.execute("BEGIN IMMEDIATE");
    try {
        copy_rows(from, to, "runs", "id", run, 0, "id");  // `to` numbers it
        const std::int64_t id = to.last_insert_id();
        for (const char* table : {"spans", "counters", "markers"}) copy_rows(from, to, table, "run_id", run, id);
        copy_numa(from, to, run, id);
        if (has_table(from, "segments")) copy_rows(from, to, "segments", "run_id", run, id);
        to.execute("COMMIT");
        return id;
    } catch (...) {
        to.execute("ROLLBACK");
        throw;
    }
}

bool same_file(const std::string& a, const std::string& b) {
    struct stat x {}, y {};
    return ::stat(a.c_str(), &x) == 0 && ::stat(b.c_str(), &y) == 0 && x.st_dev == y.st_dev && x.st_ino == y.st_ino;
}

}  // namespace

std::int64_t copy_recorded_run(const std::string& from, std::int64_t run, const std::string& to) {
    if (same_file(from, to))
        throw RecordingError(printable_path(to) + ": the run is in this file already; choose another file");
    const RecordingReader reader(from);
    const std::int64_t id = reader.run(run).id;  // throws, naming the runs it has, when there is no such run
    SqliteDatabase source(from, SqliteDatabase::Mode::ReadOnly);
    const bool existed = std::filesystem::exists(to);
    try {
        if (existed) {
            check_recording_file(to);
            {
                SqliteDatabase probe(to, SqliteDatabase::Mode::ReadOnly);  // never written unless it is one
                check_recording_schema(probe, to, SchemaUse::Append);
            }
            SqliteDatabase target(to, SqliteDatabase::Mode::ReadWriteCreate);
            return copy_into(source, target, id);
        }
        // A new file: written whole beside the target, then renamed into place.
        const std::filesystem::path path(to);
        const std::string temporary =
            (path.parent_path() / ("." + path.filename().string() + ".pinscope-" + std::to_string(::getpid()) + "-save")).string();
        std::filesystem::remove(temporary);
        std::int64_t copied = 0;
        try {
            {
                SqliteDatabase target(temporary, SqliteDatabase::Mode::ReadWriteCreate);
                target.execute("BEGIN");
                create_recording_schema(target);
                target.execute("COMMIT");
                copied = copy_into(source, target, id);
            }
            if (::rename(temporary.c_str(), to.c_str()) != 0) throw std::runtime_error("cannot rename the written file into place");
        } catch (...) {
            std::filesystem::remove(temporary);
            throw;
        }
        return copied;
    } catch (const SqliteError& error) {
        if (error.not_a_database() || error.damaged()) throw_unreadable(to, error);
        throw std::runtime_error("cannot write recording " + printable_path(to) + ": " + error.what());
    } catch (const std::filesystem::filesystem_error& error) {
        throw std::runtime_error("cannot write recording " + printable_path(to) + ": " + error.what());
    }
}

}  // namespace pinscope
