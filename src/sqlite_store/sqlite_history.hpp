#pragma once
// The history in a SQLite file (DESIGN §4): every run recorded in one transaction, read back
// as the same RunResult its result file gives, so `compare` treats both alike. Implements
// history::HistoryBackend; what the runs mean is decided above it.

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "history/backend.hpp"
#include "sqlite_store/sqlite.hpp"

namespace cgbench::sqlite_store {

// The page cache (KiB) of a database opened only to read (open_existing).
inline constexpr int kReadCacheKiB = 256;

// How long recording waits for the lock another process holds (5 minutes): a run was
// measured already, and is kept in a file for `cgbench import` when even that is not enough.
inline constexpr int kRecordBusyMs = 300000;

// One open history database (one connection; not shared between threads).
class SqliteHistory final : public history::HistoryBackend {
  public:
    // Its entry in the scheme table (access/history_url.cpp): open_existing(path) to Read,
    // open_for_recording(path) to Record. UsageError for an empty path.
    static std::unique_ptr<history::HistoryBackend> open(const std::string& path,
                                                         history::Access access);
    // Opens `path` for recording: creates the directory, the file and the schema when
    // missing (or converts an older one), reads a small database whole (PRAGMA quick_check)
    // and proves the write lock can be taken. Throws EnvironmentError (exit 4) for a damaged,
    // foreign, newer, unwritable or not regular file; files it created are then removed.
    static std::unique_ptr<SqliteHistory> open_for_recording(const std::filesystem::path& path);
    // Opens an existing database read-only for queries (never writes, never converts: an
    // older schema is read through a converted copy in memory); nullptr when the file does
    // not exist.
    static std::unique_ptr<SqliteHistory> open_existing(const std::filesystem::path& path);

    // history::HistoryBackend; the contracts are there, what SQLite adds is said here.

    // Stores each result's numbers in columns, its document (without functions) in `data`,
    // its kept functions in result_functions (sqlite_store/function_store.hpp).
    std::unique_ptr<history::RunBatch> begin_batch() override;
    // Deletes in one transaction (functions, results, runs, then the symbols no function uses
    // any more), then VACUUMs and truncates the WAL.
    history::RemovedRows remove_runs(const std::vector<history::Run>& runs) override;

    // One query over `runs` (runs_by_commit serves a commit).
    std::vector<history::FoundRun> find_runs(const history::RunFilter& filter) override;
    // Through the result file's own reader (run_from_json), so a stored run equals its file;
    // the documents cgbench writes go the fast way (core/result_reader.hpp). Lines come from
    // result_lines in one more query, functions from result_functions in another; RunParts
    // leaves either out.
    std::optional<RunResult> load_run(std::int64_t handle, const history::NameFilter& only,
                                      history::RunParts parts) override;
    // Reads each distinct fingerprint document once.
    history::History load_runs() override;
    // Series come from the covering index results_by_name in one pass (name, run).
    void scan_series(const history::History& h, const history::NameFilter& keep, std::size_t limit,
                     const history::SeriesVisitor& visit) override;
    void scan_series(const history::History& h, std::string_view name, std::size_t limit,
                     const history::SeriesVisitor& visit) override;
    // Its statements prepared once, each symbol read once.
    std::unique_ptr<history::StoredResultReader> result_reader() override;
    // Plain queries, nothing SQLite adds.
    std::vector<std::string> benchmark_names() override;
    std::vector<history::RunRow> runs(std::size_t limit) override;
    std::size_t run_count() override;

    // The database file, its directory, its size.
    std::string name() const override { return db_.path().string(); }
    std::optional<std::filesystem::path> unrecorded_directory() const override {
        return db_.path().parent_path();
    }
    std::optional<std::uintmax_t> stored_bytes() const override;

  private:
    explicit SqliteHistory(Database db) : db_(std::move(db)) {}

    Database db_;
};

}  // namespace cgbench::sqlite_store
