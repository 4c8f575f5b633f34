#pragma once
// A thin RAII layer over SQLite's C API: a connection, prepared statements and transactions.
// Every SQLite failure becomes an EnvironmentError (exit 4) naming the database file, with a
// hint chosen by the error class (damaged file, permissions, lock held, disk full).

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

struct sqlite3;
struct sqlite3_stmt;

namespace cgbench::util {
class StagingDir;
}

namespace cgbench::sqlite_store {

class Statement;

// How long a connection waits for a lock another process holds, unless told otherwise: long
// enough for another cgbench to record a run, short enough to fail fast before measuring.
inline constexpr int kDefaultBusyMs = 10000;

// One connection. Not thread-safe; one per thread or process. While it waits for a lock it
// says so on stderr every 10 s, and a signal (Ctrl-C) ends the wait with Interrupted.
class Database {
  public:
    enum class Mode {
        Create,    // create the file when missing
        Existing,  // the file must exist (SQLITE_CANTOPEN otherwise)
        ReadOnly,  // the file must exist; never written (a WAL database in a read-only
                   // directory is read as immutable, or through a private copy of it and its
                   // WAL file when that holds runs not yet in the file)
    };

    // Opens `path` with a busy timeout of `busy_ms`. Throws EnvironmentError when SQLite
    // cannot open it. Nothing is read or written yet: a damaged file shows on first use.
    Database(std::filesystem::path path, Mode mode, int busy_ms = kDefaultBusyMs);
    ~Database();
    Database(Database&& other) noexcept;
    Database& operator=(Database&& other) noexcept;
    Database(const Database&) = delete;
    Database& operator=(const Database&) = delete;

    // A copy of the whole database in memory, to read (and migrate) without touching the
    // file; messages still name the file.
    Database copy_in_memory() const;
    // Sets how long statements wait for a lock another connection holds, from now on.
    void set_busy_timeout(int busy_ms);

    // Runs SQL that returns no rows (may hold several statements).
    void exec(std::string_view sql);
    // Runs `sql` like exec(), retrying while the database is busy, for up to `busy_ms` more.
    // For statements SQLite's busy handler does not cover (journal mode changes).
    void exec_retrying_busy(std::string_view sql);
    // Compiles one statement.
    Statement prepare(std::string_view sql);
    // Runs a query returning one integer (PRAGMA user_version, COUNT(*)).
    std::int64_t query_int(std::string_view sql);

    std::int64_t last_insert_rowid() const;
    // True when SQLite opened the file read-only (no write permission).
    bool read_only() const;
    const std::filesystem::path& path() const { return path_; }
    int busy_ms() const { return busy_ms_; }

    // Throws the EnvironmentError for SQLite result code `rc` while doing `what`.
    [[noreturn]] void fail(int rc, std::string_view what) const;

    // Where a wait for a lock stands (SQLite's busy handler and exec_retrying_busy): kept on
    // the heap, since the handler holds its address and a Database moves.
    struct Waiting {
        std::string path;
        int busy_ms = 0;
        std::optional<std::chrono::steady_clock::time_point> since;
        int noted_s = 0;
        // Whether to wait on: false when `busy_ms` is over or a signal arrived; says every
        // 10 s that it waits. `first` starts a new wait.
        bool again(bool first);
    };

  private:
    friend class Statement;
    Database() = default;
    void open(int flags, const std::string& name);
    // Opens, instead of path_, a private copy of it and its WAL file (made in copy_dir_).
    void open_private_copy(const std::filesystem::path& wal);

    std::filesystem::path path_;
    sqlite3* db_ = nullptr;
    int busy_ms_ = 0;
    std::unique_ptr<Waiting> waiting_;
    std::unique_ptr<util::StagingDir> copy_dir_;  // holds the copy open_private_copy reads
};

// A prepared statement; bind parameters by 1-based index, step through rows.
class Statement {
  public:
    // Takes ownership of `stmt`, compiled on `db` (Database::prepare makes these).
    Statement(Database& db, sqlite3_stmt* stmt) : db_(&db), stmt_(stmt) {}
    ~Statement();
    Statement(Statement&& other) noexcept;
    Statement& operator=(Statement&&) = delete;
    Statement(const Statement&) = delete;
    Statement& operator=(const Statement&) = delete;

    // Binds parameter `index` (1-based); text is copied, an empty string_view is "" (not
    // NULL), an absent optional is NULL. Each returns *this for chaining.
    Statement& bind(int index, std::int64_t value);
    Statement& bind(int index, std::string_view text);
    Statement& bind(int index, const std::string& text) {
        return bind(index, std::string_view(text));
    }
    Statement& bind(int index, const std::optional<std::string>& text);
    Statement& bind_null(int index);

    // Advances to the next row: true when a row is available, false when done.
    bool step();
    // Runs a statement that returns no rows.
    void run();
    // Clears bindings and rewinds, ready for the next use.
    void reset();

    // Column values of the current row (0-based); the optional forms are empty for NULL.
    bool is_null(int column) const;
    std::int64_t int64(int column) const;
    std::optional<std::int64_t> optional_int64(int column) const;
    // Text of a column; valid until the next step() or reset(). Empty for NULL.
    std::string_view text(int column) const;
    std::optional<std::string> optional_text(int column) const;

  private:
    Database* db_;
    sqlite3_stmt* stmt_;
};

// BEGIN IMMEDIATE ... COMMIT. Takes the write lock up front, so two writers never deadlock
// upgrading read locks; rolls back on destruction unless commit() succeeded.
class Transaction {
  public:
    // Begins; waits (and retries) while another connection holds the write lock.
    explicit Transaction(Database& db);
    ~Transaction();
    Transaction(const Transaction&) = delete;
    Transaction& operator=(const Transaction&) = delete;

    // Commits; EnvironmentError (and a rollback on destruction) when that fails.
    void commit();

  private:
    Database& db_;
    bool done_ = false;
};

}  // namespace cgbench::sqlite_store
