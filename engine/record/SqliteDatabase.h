// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// One SQLite connection and its prepared statements, the only users of SQLite's C API: a failed
// call throws SqliteError with SQLite's own words.
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

struct sqlite3;
struct sqlite3_stmt;

namespace pinscope {

class SqliteError : public std::runtime_error {
public:
    SqliteError(int code, const std::string& what) : std::runtime_error(what), code_(code) {}
    int code() const { return code_; }  // SQLite's primary result code (SQLITE_CORRUPT, ...)
    bool not_a_database() const;
    bool damaged() const;               // malformed or truncated
    bool busy() const;                  // locked by another connection past the busy timeout

private:
    int code_;
};

class SqliteStatement {
public:
    SqliteStatement(sqlite3* db, std::string_view sql);
    ~SqliteStatement();
    SqliteStatement(SqliteStatement&& other) noexcept;
    SqliteStatement& operator=(SqliteStatement&&) = delete;
    SqliteStatement(const SqliteStatement&) = delete;
    SqliteStatement& operator=(const SqliteStatement&) = delete;

    // Parameters count from 1, as in SQL's ?1.
    SqliteStatement& bind(int index, std::int64_t value);
    SqliteStatement& bind(int index, double value);
    SqliteStatement& bind(int index, std::string_view text);
    SqliteStatement& bind_null(int index);
    // True with a row to read; false once done. Throws on failure.
    bool step();
    // Steps to the end and resets, for statements that return no rows.
    void run();
    // Ready to run again; bindings stay until rebound.
    void reset();

    // Columns count from 0.
    bool is_null(int column) const;
    std::int64_t integer(int column) const;
    double real(int column) const;
    std::string text(int column) const;
    // Binds this row's `column`, whatever its type (NULL, integer, real, text), to `to`'s `index`.
    void copy_value(int column, SqliteStatement& to, int index) const;

private:
    sqlite3* db_;
    sqlite3_stmt* statement_ = nullptr;
};

class SqliteDatabase {
public:
    enum class Mode { ReadOnly, ReadWriteCreate };
    // Throws SqliteError when SQLite cannot open it.
    SqliteDatabase(const std::string& path, Mode mode);
    ~SqliteDatabase();
    SqliteDatabase(const SqliteDatabase&) = delete;
    SqliteDatabase& operator=(const SqliteDatabase&) = delete;

    // Statements without results, separated by ';'.
    void execute(const std::string& sql);
    SqliteStatement prepare(std::string_view sql);
    // The first column of the first row of `sql` as an integer; `fallback` when there is no row.
    std::int64_t query_integer(std::string_view sql, std::int64_t fallback = 0);
    std::int64_t last_insert_id() const;
    // How long a statement waits for another connection's lock before it fails as busy.
    void set_busy_timeout(int milliseconds);

private:
    sqlite3* db_ = nullptr;
};

// SQLite's words for a result code and the connection's last message.
[[noreturn]] void throw_sqlite_error(sqlite3* db, int code);

}  // namespace pinscope
