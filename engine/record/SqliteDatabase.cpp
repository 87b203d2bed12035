// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/record/SqliteDatabase.h"

#include <sqlite3.h>


namespace pinscope {
namespace {

constexpr int kBusyTimeoutMs = 5000;
// What one value of a recording may hold: the largest text in one is a topology's XML (64 MiB
// at most), so a damaged or hostile file cannot make a row take gigabytes.
constexpr int kMaxValueBytes = 80 << 20;

int primary(int code) { return code & 0xff; }

}  // namespace

bool SqliteError::not_a_database() const { return code_ == SQLITE_NOTADB; }
bool SqliteError::damaged() const { return code_ == SQLITE_CORRUPT || code_ == SQLITE_NOTADB; }
bool SqliteError::busy() const { return code_ == SQLITE_BUSY || code_ == SQLITE_LOCKED; }

void throw_sqlite_error(sqlite3* db, int code) {
    const char* message = db != nullptr ? sqlite3_errmsg(db) : sqlite3_errstr(code);
    throw SqliteError(primary(code), message != nullptr ? message : sqlite3_errstr(code));
}

SqliteStatement::SqliteStatement(sqlite3* db, std::string_view sql) : db_(db) {
    const int code = sqlite3_prepare_v3(db, sql.data(), static_cast<int>(sql.size()), SQLITE_PREPARE_PERSISTENT,
                                        &statement_, nullptr);
    if (code != SQLITE_OK) throw_sqlite_error(db, code);
}

SqliteStatement::~SqliteStatement() { sqlite3_finalize(statement_); }

SqliteStatement::SqliteStatement(SqliteStatement&& other) noexcept : db_(other.db_), statement_(other.statement_) {
    other.statement_ = nullptr;
}

SqliteStatement& SqliteStatement::bind(int index, std::int64_t value) {
    if (const int code = sqlite3_bind_int64(statement_, index, value); code != SQLITE_OK) throw_sqlite_error(db_, code);
    return *this;
}

SqliteStatement& SqliteStatement::bind(int index, double value) {
    if (const int code = sqlite3_bind_double(statement_, index, value); code != SQLITE_OK) throw_sqlite_error(db_, code);
    return *this;
}

SqliteStatement& SqliteStatement::bind(int index, std::string_view text) {
    const int code = sqlite3_bind_text64(statement_, index, text.data(), text.size(), SQLITE_TRANSIENT, SQLITE_UTF8);
    if (code != SQLITE_OK) throw_sqlite_error(db_, code);
    return *this;
}

SqliteStatement& SqliteStatement::bind_null(int index) {
    if (const int code = sqlite3_bind_null(statement_, index); code != SQLITE_OK) throw_sqlite_error(db_, code);
    return *this;
}

bool SqliteStatement::step() {
    const int code = sqlite3_step(statement_);
    if (code == SQLITE_ROW) return true;
    if (code == SQLITE_DONE) return false;
    sqlite3_reset(statement_);
    throw_sqlite_error(db_, code);
}

void SqliteStatement::run() {
    while (step()) {
    }
    reset();
}

void SqliteStatement::reset() { sqlite3_reset(statement_); }

bool SqliteStatement::is_null(int column) const { return sqlite3_column_type(statement_, column) == SQLITE_NULL; }
std::int64_t SqliteStatement::integer(int column) const { return sqlite3_column_int64(statement_, column); }
double SqliteStatement::real(int column) const { return sqlite3_column_double(statement_, column); }

std::string SqliteStatement::text(int column) const {
    const auto* bytes = sqlite3_column_text(statement_, column);
    const int size = sqlite3_column_bytes(statement_, column);
    return bytes == nullptr ? std::string() : std::string(reinterpret_cast<const char*>(bytes), static_cast<std::size_t>(size));
}

void SqliteStatement::copy_value(int column, SqliteStatement& to, int index) const {
    switch (sqlite3_column_type(statement_, column)) {
        case SQLITE_NULL: to.bind_null(index); break;
        case SQLITE_INTEGER: to.bind(index, integer(column)); break;
        case SQLITE_FLOAT: to.bind(index, real(column)); break;
        default: to.bind(index, std::string_view(text(column))); break;
    }
}

SqliteDatabase::SqliteDatabase(const std::string& path, Mode mode) {
    // No URI names: a path is a path. A read-only connection never writes the file; in WAL mode it
    // reads beside a writer without either waiting on the other.
    const int flags = (mode == Mode::ReadOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE) |
                      SQLITE_OPEN_FULLMUTEX | SQLITE_OPEN_EXRESCODE;
    const int code = sqlite3_open_v2(path.c_str(), &db_, flags, nullptr);
    if (code != SQLITE_OK) {
        const SqliteError error(primary(code), db_ != nullptr ? sqlite3_errmsg(db_) : sqlite3_errstr(code));
        sqlite3_close_v2(db_);
        db_ = nullptr;
        throw error;
    }
    sqlite3_busy_timeout(db_, kBusyTimeoutMs);
    // A recording is input: its schema is not trusted to run functions or to change itself.
    sqlite3_db_config(db_, SQLITE_DBCONFIG_DEFENSIVE, 1, nullptr);
    sqlite3_db_config(db_, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, nullptr);
    sqlite3_limit(db_, SQLITE_LIMIT_LENGTH, kMaxValueBytes);
}

SqliteDatabase::~SqliteDatabase() { sqlite3_close_v2(db_); }

void SqliteDatabase::execute(const std::string& sql) {
    if (const int code = sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, nullptr); code != SQLITE_OK)
        throw_sqlite_error(db_, code);
}

SqliteStatement SqliteDatabase::prepare(std::string_view sql) { return SqliteStatement(db_, sql); }

std::int64_t SqliteDatabase::query_integer(std::string_view sql, std::int64_t fallback) {
    SqliteStatement statement = prepare(sql);
    return statement.step() && !statement.is_null(0) ? statement.integer(0) : fallback;
}

std::int64_t SqliteDatabase::last_insert_id() const { return sqlite3_last_insert_rowid(db_); }

void SqliteDatabase::set_busy_timeout(int milliseconds) { sqlite3_busy_timeout(db_, milliseconds); }

}  // namespace pinscope
