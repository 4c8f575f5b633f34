#include "sqlite_store/sqlite.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>
#include <sqlite3.h>

#include <cerrno>
#include <chrono>
#include <thread>
#include <utility>

#include "base/errors.hpp"
#include "exec/interrupt.hpp"
#include "util/fs.hpp"

namespace cgbench::sqlite_store {

namespace fs = std::filesystem;

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

namespace {

int on_busy(void* waiting, int count) {
    return static_cast<Database::Waiting*>(waiting)->again(count == 0) ? 1 : 0;
}

// How many virtual-machine steps SQLite runs between calls of on_progress: a few
// microseconds of work.
constexpr int kProgressSteps = 10000;

// Stops a long statement (a scan of every result, a VACUUM) once cgbench got a signal: it
// fails with SQLITE_INTERRUPT, which fail() turns into Interrupted. Handlers are installed
// for every command, so without this a signal would wait for the statement to end.
int on_progress(void*) {
    return exec::interrupt_signal() != 0 ? 1 : 0;
}

// `path` as an SQLite URI with `query` ("file:/a%3Fb.db?immutable=1").
std::string file_uri(const std::string& path, std::string_view query) {
    std::string uri = "file:";
    for (const char c : path) {
        if (c == '%' || c == '?' || c == '#') {
            uri += fmt::format("%{:02X}", static_cast<unsigned char>(c));
        } else {
            uri += c;
        }
    }
    return uri + "?" + std::string(query);
}

}  // namespace

bool Database::Waiting::again(bool first) {
    using namespace std::chrono;
    const auto now = steady_clock::now();
    if (first || !since) {
        since = now;
        noted_s = 0;
    }
    if (exec::interrupt_signal() != 0) return false;
    const auto waited_ms = duration_cast<milliseconds>(now - *since).count();
    if (waited_ms >= busy_ms) return false;
    if (const int s = static_cast<int>(waited_ms / 1000); s >= noted_s + 10) {
        noted_s = s - s % 10;
        spdlog::warn(
            "waiting for the history database {}: another process holds its lock ({} s "
            "so far; giving up after {} s)",
            path, noted_s, busy_ms / 1000);
    }
    std::this_thread::sleep_for(milliseconds(20));
    return true;
}

Database::Database(std::filesystem::path path, Mode mode, int busy_ms)
    : path_(std::move(path)), busy_ms_(busy_ms), waiting_(std::make_unique<Waiting>()) {
    waiting_->path = path_.string();
    waiting_->busy_ms = busy_ms;
    const int flags = mode == Mode::ReadOnly ? SQLITE_OPEN_READONLY
                      : mode == Mode::Create ? SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
                                             : SQLITE_OPEN_READWRITE;
    open(flags, path_.string());
    if (mode != Mode::ReadOnly) return;
    // A WAL database whose directory the caller cannot write: SQLite cannot make the
    // shared-memory file readers need, so it is read as a file nobody changes.
    sqlite3_stmt* probe = nullptr;
    int rc = sqlite3_prepare_v2(db_, "SELECT COUNT(*) FROM sqlite_master", -1, &probe, nullptr);
    if (rc == SQLITE_OK) rc = sqlite3_step(probe);
    sqlite3_finalize(probe);
    if ((rc & 0xff) == SQLITE_READONLY || (rc & 0xff) == SQLITE_CANTOPEN) {
        sqlite3_close(db_);
        db_ = nullptr;
        // Read as immutable, SQLite sees only the file: what a writer committed to the WAL
        // and nobody checkpointed yet (a killed run, a cache saved mid-write) would be
        // missing. Then a private copy of both is read, where SQLite can use the WAL.
        const fs::path wal = path_.string() + "-wal";
        std::error_code ec;
        if (fs::is_regular_file(wal, ec) && fs::file_size(wal, ec) > 0 && !ec) {
            open_private_copy(wal);
        } else {
            open(SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, file_uri(path_.string(), "immutable=1"));
        }
    }
}

void Database::open_private_copy(const fs::path& wal) {
    copy_dir_ = std::make_unique<util::StagingDir>();
    const fs::path copy = copy_dir_->path() / "history.db";
    std::error_code ec;
    fs::copy_file(path_, copy, ec);
    if (!ec) fs::copy_file(wal, copy.string() + "-wal", ec);
    if (ec) {
        throw EnvironmentError(
            fmt::format("history database {}: cannot copy it and its WAL file to read them "
                        "(its directory is read-only): {}",
                        path_.string(), ec.message()),
            "make the directory writable, or free space in /tmp");
    }
    open(SQLITE_OPEN_READONLY, copy.string());
}

void Database::open(int flags, const std::string& name) {
    const int rc = sqlite3_open_v2(name.c_str(), &db_, flags | SQLITE_OPEN_NOMUTEX, nullptr);
    if (rc != SQLITE_OK) {
        const std::string message = db_ != nullptr ? sqlite3_errmsg(db_) : sqlite3_errstr(rc);
        sqlite3_close(db_);
        db_ = nullptr;
        throw EnvironmentError(
            fmt::format("history database {}: cannot open it: {}", path_.string(), message),
            hint_for(rc));
    }
    sqlite3_extended_result_codes(db_, 1);
    sqlite3_busy_handler(db_, &on_busy, waiting_.get());
    sqlite3_progress_handler(db_, kProgressSteps, &on_progress, nullptr);
}

Database::~Database() {
    sqlite3_close(db_);
}

Database::Database(Database&& other) noexcept
    : path_(std::move(other.path_)),
      db_(std::exchange(other.db_, nullptr)),
      busy_ms_(other.busy_ms_),
      waiting_(std::move(other.waiting_)),
      copy_dir_(std::move(other.copy_dir_)) {}

Database& Database::operator=(Database&& other) noexcept {
    if (this != &other) {
        sqlite3_close(db_);
        path_ = std::move(other.path_);
        db_ = std::exchange(other.db_, nullptr);
        busy_ms_ = other.busy_ms_;
        waiting_ = std::move(other.waiting_);
        copy_dir_ = std::move(other.copy_dir_);
    }
    return *this;
}

Database Database::copy_in_memory() const {
    Database copy;
    copy.path_ = path_;
    copy.busy_ms_ = busy_ms_;
    copy.waiting_ = std::make_unique<Waiting>(*waiting_);
    copy.open(SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_MEMORY, ":memory:");
    sqlite3_backup* backup = sqlite3_backup_init(copy.db_, "main", db_, "main");
    if (backup == nullptr) fail(sqlite3_extended_errcode(copy.db_), "reading");
    const int rc = sqlite3_backup_step(backup, -1);
    sqlite3_backup_finish(backup);
    if (rc != SQLITE_DONE) fail(rc, "reading");
    return copy;
}

void Database::set_busy_timeout(int busy_ms) {
    busy_ms_ = busy_ms;
    waiting_->busy_ms = busy_ms;
}

void Database::fail(int rc, std::string_view what) const {
    const bool current = db_ != nullptr && sqlite3_extended_errcode(db_) == rc;
    const std::string message = current ? sqlite3_errmsg(db_) : sqlite3_errstr(rc);
    // A signal ends the wait for a lock (on_busy) and a long statement (on_progress).
    const int signo = exec::interrupt_signal();
    if (signo != 0 && ((rc & 0xff) == SQLITE_INTERRUPT || (rc & 0xff) == SQLITE_BUSY ||
                       (rc & 0xff) == SQLITE_LOCKED)) {
        throw Interrupted(signo);
    }
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
    // SQLite calls a full disk met while writing the journal an I/O error.
    if ((rc & 0xff) == SQLITE_FULL ||
        (db_ != nullptr && sqlite3_system_errno(db_) == ENOSPC && (rc & 0xff) == SQLITE_IOERR)) {
        throw EnvironmentError(
            fmt::format("history database {}: no space left on its device while {}", path_.string(),
                        what),
            hint_for(SQLITE_FULL));
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
    waiting_->since.reset();  // SQLite's busy handler, when it ran, started the wait
    for (;;) {
        const int rc = sqlite3_exec(db_, text.c_str(), nullptr, nullptr, nullptr);
        if (rc == SQLITE_OK) return;
        const bool busy = (rc & 0xff) == SQLITE_BUSY || (rc & 0xff) == SQLITE_LOCKED;
        if (!busy || !waiting_->again(false)) fail(rc, "taking the lock");
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

}  // namespace cgbench::sqlite_store
