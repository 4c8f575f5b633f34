#include "store/sqlite.hpp"

#include <fmt/format.h>
#include <sqlite3.h>

#include <chrono>
#include <thread>
#include <utility>

#include "core/errors.hpp"

namespace cgbench::store {

namespace {

std::string hint_for(int rc) {
    switch (rc & 0xff) {
        case SQLITE_NOTADB:
        case SQLITE_CORRUPT:
            return "move the file aside or pass --db with another path; cgbench never "
                   "overwrites it";
        case SQLITE_READONLY:
        case SQLITE_CANTOPEN:
        case SQLITE_PERM:
        case SQLITE_AUTH:
            return "check the permissions of the file and its directory, or pass --no-db";
        case SQLITE_BUSY:
        case SQLITE_LOCKED:
            return "retry when the other cgbench process has finished";
        case SQLITE_FULL:
            return "free some disk space, or pass --db with another path";
        default:
            return "pass --no-db to work without the history database";
    }
}

}  // namespace

Database::Database(std::filesystem::path path, Mode mode, int busy_ms)
    : path_(std::move(path)), busy_ms_(busy_ms) {
    int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX;
    if (mode == Mode::Create) flags |= SQLITE_OPEN_CREATE;
    const int rc = sqlite3_open_v2(path_.c_str(), &db_, flags, nullptr);
    if (rc != SQLITE_OK) {
        const std::string message = db_ != nullptr ? sqlite3_errmsg(db_) : sqlite3_errstr(rc);
        sqlite3_close(db_);
        db_ = nullptr;
        throw EnvironmentError(
            fmt::format("history database {}: cannot open it: {}", path_.string(), message),
            hint_for(rc));
    }
    sqlite3_extended_result_codes(db_, 1);
    sqlite3_busy_timeout(db_, busy_ms_);
}

Database::~Database() {
    sqlite3_close(db_);
}

Database::Database(Database&& other) noexcept
    : path_(std::move(other.path_)),
      db_(std::exchange(other.db_, nullptr)),
      busy_ms_(other.busy_ms_) {}

Database& Database::operator=(Database&& other) noexcept {
    if (this != &other) {
        sqlite3_close(db_);
        path_ = std::move(other.path_);
        db_ = std::exchange(other.db_, nullptr);
        busy_ms_ = other.busy_ms_;
    }
    return *this;
}

void Database::fail(int rc, std::string_view what) const {
    const bool current = db_ != nullptr && sqlite3_extended_errcode(db_) == rc;
    const std::string message = current ? sqlite3_errmsg(db_) : sqlite3_errstr(rc);
    if ((rc & 0xff) == SQLITE_BUSY || (rc & 0xff) == SQLITE_LOCKED) {
        throw EnvironmentError(
            fmt::format("history database {}: still locked by another process after {} s "
                        "while {}",
                        path_.string(), busy_ms_ / 1000, what),
            hint_for(rc));
    }
    if ((rc & 0xff) == SQLITE_NOTADB || (rc & 0xff) == SQLITE_CORRUPT) {
        throw EnvironmentError(
            fmt::format("history database {}: not a cgbench history database, or damaged ({})",
                        path_.string(), message),
            hint_for(rc));
    }
    throw EnvironmentError(
        fmt::format("history database {}: {} failed: {}", path_.string(), what, message),
        hint_for(rc));
}

void Database::exec(std::string_view sql) {
    const std::string text(sql);
    const int rc = sqlite3_exec(db_, text.c_str(), nullptr, nullptr, nullptr);
    if (rc != SQLITE_OK) fail(rc, "running SQL");
}

void Database::exec_retrying_busy(std::string_view sql) {
    const std::string text(sql);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(busy_ms_);
    for (;;) {
        const int rc = sqlite3_exec(db_, text.c_str(), nullptr, nullptr, nullptr);
        if (rc == SQLITE_OK) return;
        const bool busy = (rc & 0xff) == SQLITE_BUSY || (rc & 0xff) == SQLITE_LOCKED;
        if (!busy || std::chrono::steady_clock::now() >= deadline) fail(rc, "taking the lock");
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
}

Statement Database::prepare(std::string_view sql) {
    sqlite3_stmt* stmt = nullptr;
    const int rc =
        sqlite3_prepare_v2(db_, sql.data(), static_cast<int>(sql.size()), &stmt, nullptr);
    if (rc != SQLITE_OK) fail(rc, "reading");
    return Statement(*this, stmt);
}

std::int64_t Database::query_int(std::string_view sql) {
    Statement s = prepare(sql);
    return s.step() ? s.int64(0) : 0;
}

std::int64_t Database::last_insert_rowid() const {
    return sqlite3_last_insert_rowid(db_);
}

bool Database::read_only() const {
    return sqlite3_db_readonly(db_, "main") == 1;
}

Statement::~Statement() {
    sqlite3_finalize(stmt_);
}

Statement::Statement(Statement&& other) noexcept
    : db_(other.db_), stmt_(std::exchange(other.stmt_, nullptr)) {}

Statement& Statement::bind(int index, std::int64_t value) {
    const int rc = sqlite3_bind_int64(stmt_, index, value);
    if (rc != SQLITE_OK) db_->fail(rc, "binding a value");
    return *this;
}

Statement& Statement::bind(int index, std::string_view text) {
    // A null data pointer would bind SQL NULL; an empty string_view means "".
    const char* data = text.data() != nullptr ? text.data() : "";
    const int rc =
        sqlite3_bind_text(stmt_, index, data, static_cast<int>(text.size()), SQLITE_TRANSIENT);
    if (rc != SQLITE_OK) db_->fail(rc, "binding a value");
    return *this;
}

Statement& Statement::bind(int index, const std::optional<std::string>& text) {
    return text ? bind(index, std::string_view(*text)) : bind_null(index);
}

Statement& Statement::bind_null(int index) {
    const int rc = sqlite3_bind_null(stmt_, index);
    if (rc != SQLITE_OK) db_->fail(rc, "binding a value");
    return *this;
}

bool Statement::step() {
    const int rc = sqlite3_step(stmt_);
    if (rc == SQLITE_ROW) return true;
    if (rc == SQLITE_DONE) return false;
    db_->fail(rc, "querying");
}

void Statement::run() {
    const int rc = sqlite3_step(stmt_);
    if (rc != SQLITE_DONE && rc != SQLITE_ROW) db_->fail(rc, "writing");
}

void Statement::reset() {
    sqlite3_reset(stmt_);
    sqlite3_clear_bindings(stmt_);
}

bool Statement::is_null(int column) const {
    return sqlite3_column_type(stmt_, column) == SQLITE_NULL;
}

std::int64_t Statement::int64(int column) const {
    return sqlite3_column_int64(stmt_, column);
}

std::optional<std::int64_t> Statement::optional_int64(int column) const {
    if (is_null(column)) return std::nullopt;
    return int64(column);
}

std::string_view Statement::text(int column) const {
    const auto* p = sqlite3_column_text(stmt_, column);
    if (p == nullptr) return {};
    return {reinterpret_cast<const char*>(p),
            static_cast<std::size_t>(sqlite3_column_bytes(stmt_, column))};
}

std::optional<std::string> Statement::optional_text(int column) const {
    if (is_null(column)) return std::nullopt;
    return std::string(text(column));
}

Transaction::Transaction(Database& db) : db_(db) {
    db_.exec_retrying_busy("BEGIN IMMEDIATE");
}

Transaction::~Transaction() {
    if (!done_) {
        try {
            db_.exec("ROLLBACK");
        } catch (const Error&) {
            // SQLite has already rolled back (e.g. after an I/O error); nothing to undo.
        }
    }
}

void Transaction::commit() {
    db_.exec("COMMIT");
    done_ = true;
}

}  // namespace cgbench::store
