// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The recording format (docs/recording-format.md): one SQLite database holding any number of
// runs. Its version is PRAGMA user_version and the meta table's format_version; a reader reads
// its own version and the older ones it knows (a version 1 run reads as one segment), a writer
// appends only to its own, and each says which version a file has.
#include <cstdint>
#include <stdexcept>
#include <string>

namespace pinscope {

class SqliteDatabase;
class SqliteError;

inline constexpr const char* kRecordingFormat = "pinscope-recording";
inline constexpr std::int64_t kRecordingFormatVersion = 2;
inline constexpr std::int64_t kOldestReadableFormatVersion = 1;  // version 1: no segments table
inline constexpr std::int64_t kRecordingApplicationId = 0x50696e73;  // "Pins" in the header (PRAGMA application_id)

// A file that is not a recording this pinscope reads, or a run it does not hold: bad input. The
// message names the file and what is wrong, on one line.
class RecordingError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// What can be told from the file itself before SQLite opens it: that it is a regular file, not
// empty, an SQLite database, and not shorter than its header says. Throws RecordingError.
void check_recording_file(const std::string& path);

// Creates the tables of an empty database (call inside a transaction).
void create_recording_schema(SqliteDatabase& db);

// What the file is opened for: reading takes every version from kOldestReadableFormatVersion on,
// appending only this pinscope's own.
enum class SchemaUse { Read, Append };

// Throws RecordingError naming `path` when the database is not a pinscope recording of a format
// version this pinscope reads (or, to append, writes). An empty database (no tables,
// user_version 0) is not one either. Returns the file's version.
std::int64_t check_recording_schema(SqliteDatabase& db, const std::string& path, SchemaUse use = SchemaUse::Read);

// SQLite's failure reading `path`, as a RecordingError naming the file.
[[noreturn]] void throw_unreadable(const std::string& path, const SqliteError& error);

// Whether the database has no tables at all (a file SQLite has just created).
bool is_empty_database(SqliteDatabase& db);

}  // namespace pinscope
