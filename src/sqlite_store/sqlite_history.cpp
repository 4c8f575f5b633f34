#include "sqlite_store/sqlite_history.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>
#include <sys/statvfs.h>

#include <algorithm>
#include <system_error>

#include "base/errors.hpp"
#include "sqlite_store/run_batch.hpp"
#include "sqlite_store/schema.hpp"
#include "util/fs.hpp"
#include "util/strings.hpp"

namespace cgbench::sqlite_store {

namespace fs = std::filesystem;

namespace {

// The database and the files SQLite keeps beside it follow the link rules of output files
// (docs/reference/files.md): another user's link planted at a shared path (`/tmp/h.db ->
// /root/x.db`) would have a run as root create or change a file of their choosing.
void refuse_planted_links(const fs::path& path) {
    for (const char* suffix : {"", "-wal", "-shm", "-journal"}) {
        const fs::path p = path.string() + suffix;
        const auto why = util::unfollowed_link(p);
        if (!why) continue;
        throw UsageError(fmt::format("history database {}: {} {}", path.string(), p.string(), *why),
                         "cgbench follows only links of its own user or of root that lead to a "
                         "file; pass --db with the file itself");
    }
}

// Recording needs a file system that takes writes: said as such, not as a permission problem.
void refuse_read_only_file_system(const fs::path& path) {
    const fs::path dir = path.has_parent_path() ? path.parent_path() : fs::path(".");
    struct statvfs vfs {};
    if (::statvfs(dir.c_str(), &vfs) == 0 && (vfs.f_flag & ST_RDONLY) != 0) {
        throw EnvironmentError(
            fmt::format("history database {} is on a read-only file system: runs cannot be "
                        "recorded there",
                        path.string()),
            "pass --db with a path on a writable file system, or --no-db");
    }
}

// A database path that exists must be a regular file: SQLite would make /dev/null a database
// and leave its journal beside it.
void require_regular_file(const fs::path& path) {
    std::error_code ec;
    const auto status = fs::status(path, ec);
    if (ec || !fs::exists(status) || fs::is_regular_file(status)) return;
    throw EnvironmentError(fmt::format("history database {} is not a regular file{}", path.string(),
                                       fs::is_directory(status) ? " (a directory)" : ""),
                           "pass --db with the path of a file (created when missing), or --no-db");
}

// Files SQLite made for a database that did not exist and could not be set up (a full
// disk): removed, so the next run starts clean.
void remove_new_database(const fs::path& path) {
    for (const char* suffix : {"", "-wal", "-shm", "-journal"}) {
        std::error_code ec;
        fs::remove(path.string() + suffix, ec);
    }
}

// A damaged page shows only when it is read. A database up to this size is read whole
// before a run is measured (PRAGMA quick_check: about ... per MiB), so that damage fails in
// milliseconds rather than after the measurement; a larger one shows it when recording, and
// the run is then kept for `cgbench import`.
constexpr std::uintmax_t kCheckedBytes = 64u << 20;

void quick_check(Database& db, const fs::path& path) {
    std::error_code ec;
    const auto size = fs::file_size(path, ec);
    if (ec || size > kCheckedBytes) return;
    auto s = db.prepare("PRAGMA quick_check(1)");
    if (s.step() && s.text(0) != "ok") {
        throw EnvironmentError(fmt::format("history database {}: damaged ({})", path.string(),
                                           util::printable(s.text(0))),
                               "move the file aside or pass --db with another path; cgbench "
                               "never overwrites it");
    }
}

void create_parent_directory(const fs::path& path) {
    const auto dir = path.parent_path();
    if (dir.empty()) return;
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec) {
        throw EnvironmentError(fmt::format("cannot create the directory {} for the history "
                                           "database: {}",
                                           dir.string(), ec.message()),
                               "pass --db with a writable path, or --no-db");
    }
}

}  // namespace

std::unique_ptr<history::HistoryBackend> SqliteHistory::open(const std::string& path,
                                                             history::Access access) {
    if (path.empty()) {
        throw UsageError("--db sqlite: needs the path of the database file",
                         "write --db sqlite:PATH, or just --db PATH");
    }
    if (access == history::Access::Read) return open_existing(path);
    return open_for_recording(path);
}

std::unique_ptr<SqliteHistory> SqliteHistory::open_for_recording(const fs::path& path) {
    refuse_planted_links(path);
    require_regular_file(path);
    create_parent_directory(path);
    refuse_read_only_file_system(path);
    std::error_code ec;
    const bool existed = fs::exists(path, ec);
    try {
        Database db(path, Database::Mode::Create);
        prepare_schema(db);
        if (db.read_only()) {
            throw EnvironmentError(fmt::format("history database {} is read-only", path.string()),
                                   "check its permissions, or pass --no-db");
        }
        quick_check(db, path);
        { Transaction probe(db); }  // takes the write lock and rolls back: nothing is written
        // Recording comes after a measurement of any length: wait for the lock much longer
        // than before measuring (saying so every 10 s), rather than lose the run.
        db.set_busy_timeout(kRecordBusyMs);
        return std::unique_ptr<SqliteHistory>(new SqliteHistory(std::move(db)));
    } catch (const Error&) {
        if (!existed) remove_new_database(path);
        throw;
    }
}

std::unique_ptr<SqliteHistory> SqliteHistory::open_existing(const fs::path& path) {
    refuse_planted_links(path);
    std::error_code ec;
    if (!fs::exists(path, ec)) return nullptr;
    require_regular_file(path);
    Database db(path, Database::Mode::ReadOnly);
    const int version = check_schema(db);
    if (version == kSchemaVersion) {
        // Queries that only read scan an index or look up a few rows: a small page cache
        // serves them as well as SQLite's 2 MiB default, and each page of that default is
        // memory the first read of a page faults in (2 MiB: ~10 ms of a short command).
        db.exec(fmt::format("PRAGMA cache_size = -{}", kReadCacheKiB));
        return std::unique_ptr<SqliteHistory>(new SqliteHistory(std::move(db)));
    }
    // An older (or empty) database is never converted by a command that only reads: an older
    // cgbench could not read it any more. A copy in memory is converted instead.
    if (version > 0) {
        spdlog::warn(
            "history database {} was written by an older cgbench (schema {}): it is "
            "read through a converted copy; `cgbench run` or `cgbench import` with it "
            "converts the file",
            path.string(), version);
    }
    Database copy = db.copy_in_memory();
    prepare_schema(copy);
    return std::unique_ptr<SqliteHistory>(new SqliteHistory(std::move(copy)));
}

std::unique_ptr<history::RunBatch> SqliteHistory::begin_batch() {
    return std::make_unique<SqliteRunBatch>(db_);
}

std::optional<std::uintmax_t> SqliteHistory::stored_bytes() const {
    std::error_code ec;
    const auto size = fs::file_size(db_.path(), ec);
    if (ec) return std::nullopt;
    return size;
}

std::size_t SqliteHistory::run_count() {
    return static_cast<std::size_t>(db_.query_int("SELECT COUNT(*) FROM runs"));
}

}  // namespace cgbench::sqlite_store
