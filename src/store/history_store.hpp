#pragma once
// The run history (DESIGN §4): every `cgbench run` is stored in one transaction, and read
// back as the same RunResult a result file gives, so `compare` treats both alike.

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.hpp"
#include "history/model.hpp"
#include "store/function_store.hpp"
#include "store/sqlite.hpp"

namespace cgbench::store {

// What HistoryStore::remove_runs took out.
struct RemovedRows {
    std::size_t runs = 0;
    std::size_t results = 0;
    std::size_t functions = 0;  // rows of result_functions
    std::size_t symbols = 0;    // names no stored function used any more
};

// The costs one stored run measured, for balancing shards.
struct StoredCosts {
    std::string run_id;
    std::map<std::string, std::uint64_t> costs;  // benchmark name -> cost (ok results only)
};

// The page cache (KiB) of a database opened only to read (open_existing).
inline constexpr int kReadCacheKiB = 256;

// How long recording waits for the lock another process holds (5 minutes): a run was
// measured already, and is kept in a file for `cgbench import` when even that is not enough.
inline constexpr int kRecordBusyMs = 300000;

// One open history database (one connection; not shared between threads).
class HistoryStore {
  public:
    // Opens `path` for recording: creates the directory, the file and the schema when
    // missing (or converts an older one), reads a small database whole (PRAGMA quick_check)
    // and proves the write lock can be taken. Throws EnvironmentError (exit 4) for a damaged,
    // foreign, newer, unwritable or not regular file; files it created are then removed.
    static HistoryStore open_for_recording(const std::filesystem::path& path);
    // Opens an existing database read-only for queries (never writes, never converts: an
    // older schema is read through a converted copy in memory); nullopt when the file does
    // not exist.
    static std::optional<HistoryStore> open_existing(const std::filesystem::path& path);

    // Stores `run` and all its benchmarks (failed ones too) in one transaction: either all
    // of it is stored or nothing. Each result keeps its kStoredFunctions costliest functions
    // (cost and Ir; fold_functions), the rest summed as "(other)", in result_functions
    // (store/function_store.hpp); the per-benchmark document in `results` holds the rest.
    // EnvironmentError when a run with its id is stored already.
    void record_run(const RunResult& run);

    // The run with this id.
    std::optional<RunResult> run_by_id(std::string_view id);
    // The most recently started run other than `exclude_id`.
    std::optional<RunResult> latest_run(std::string_view exclude_id = {});
    // The most recently started run at `commit` not in `exclude`, preferring runs of a
    // clean work tree over dirty ones.
    std::optional<RunResult> latest_run_at_commit(std::string_view commit,
                                                  const std::vector<std::string>& exclude = {});
    // The most recently started run of a clean work tree on `branch` whose fingerprint key is
    // `fingerprint_key`, not in `exclude`: the previous run of a branch CI watches.
    std::optional<RunResult> latest_run_on_branch(std::string_view branch,
                                                  std::string_view fingerprint_key,
                                                  const std::vector<std::string>& exclude = {});
    // `anchor` completed with what else was recorded at its commit: for each benchmark it
    // lacks, the latest result from other runs at that commit with the same fingerprint and
    // work-tree state (clean or dirty), skipping runs in `exclude`. One `cgbench run` per
    // benchmark thus compares like one suite run. Appends the run ids drawn on to `used`.
    RunResult complete_from_commit(RunResult anchor, const std::vector<std::string>& exclude,
                                   std::vector<std::string>& used);
    // The most recently recorded complete (not shard) run with an ok result for any of
    // `names`, and the costs of
    // those of `names` it measured: one run, so every job reading the same database gets the
    // same numbers. nullopt when none of `names` was ever measured.
    std::optional<StoredCosts> latest_costs(const std::vector<std::string>& names);

    // For history policy (src/history): every run, oldest first, with its fingerprint (each
    // distinct one read once), and the series of every benchmark `keep` accepts (cost and Ir,
    // read from the name index alone), each its last `limit` results.
    history::History load_history(const std::function<bool(std::string_view)>& keep,
                                  std::size_t limit = SIZE_MAX);
    // The same for the one benchmark `name` (no series when it has no results).
    history::History load_history(std::string_view name, std::size_t limit = SIZE_MAX);
    // load_history in parts, for a history too large to hold whole: every run and
    // fingerprint (no series), then the series of every benchmark `keep` accepts (or of the
    // one benchmark `name`) handed to `visit` one at a time, by name, each as load_history
    // gives it; the series `visit` sees is reused for the next one. `h` from load_runs().
    using SeriesVisitor = std::function<void(const history::Series&)>;
    history::History load_runs();
    void scan_series(const history::History& h, const std::function<bool(std::string_view)>& keep,
                     std::size_t limit, const SeriesVisitor& visit);
    void scan_series(const history::History& h, std::string_view name, std::size_t limit,
                     const SeriesVisitor& visit);
    // The numbers and the stored functions of the result at `position` of `run` (what
    // explains a step: events, derived hits, cost); nullopt when there is none. Many of
    // them: StoredResultReader.
    std::optional<BenchmarkResult> stored_result(const history::Run& run, std::int64_t position);

    // Removes the runs `runs` (their results and functions) and the symbols no function uses
    // any more, in one transaction, then gives the space back to the file system (VACUUM).
    RemovedRows remove_runs(const std::vector<history::Run>& runs);

    // The latest run at `commit` of a clean work tree, completed from its commit as
    // complete_from_commit does; nullopt when none was recorded there.
    std::optional<RunResult> clean_run_at_commit(std::string_view commit);

    // Every benchmark name with a stored result, sorted.
    std::vector<std::string> benchmark_names();

    // The last `limit` runs, newest first.
    std::vector<history::RunRow> runs(std::size_t limit);
    // Number of stored runs.
    std::size_t run_count();

    // The database file.
    const std::filesystem::path& path() const { return db_.path(); }

  private:
    friend class StoredResultReader;
    friend class RunBatch;
    explicit HistoryStore(Database db) : db_(std::move(db)) {}
    std::optional<RunResult> load(std::optional<std::int64_t> seq);

    Database db_;
};

// What the history holds under a run id (RunBatch::add).
struct StoredRunInfo {
    std::string started;
    std::size_t benchmarks = 0;
};

// Several runs recorded in one transaction, each one entirely or not at all: a batch that is
// not committed (an error, Ctrl-C) stores none of its runs, and a run never spans two
// batches. `record_run` is a batch of one; `cgbench import` fills batches of many, since a
// transaction per run spends most of its time making the commit durable.
class RunBatch {
  public:
    // Begins the transaction (waits while another process holds the write lock).
    explicit RunBatch(HistoryStore& store);

    // What is stored under run id `id` (committed, or added to this batch); nullopt if none.
    std::optional<StoredRunInfo> find(std::string_view id);
    // Stores `run` unless a run with its id is stored already (or added to this batch):
    // then nothing is written and what is stored under that id is returned.
    std::optional<StoredRunInfo> add(const RunResult& run);
    // Commits every run added; EnvironmentError when that fails (then none is stored).
    void commit();

    std::size_t runs() const { return runs_; }
    std::size_t results() const { return results_; }

  private:
    void write(const RunResult& run);

    Database& db_;
    Transaction tx_;
    int version_;
    Statement find_run_;
    Statement insert_run_;
    Statement insert_result_;
    FunctionWriter functions_;
    std::size_t runs_ = 0;
    std::size_t results_ = 0;
};

// Reads stored results one after another (HistoryStore::stored_result) with its statements
// prepared once and each symbol read once. Use while `store` stays where it is.
class StoredResultReader {
  public:
    explicit StoredResultReader(HistoryStore& store);
    std::optional<BenchmarkResult> read(const history::Run& run, std::int64_t position);

  private:
    Statement numbers_;
    FunctionReader functions_;
};

// For `cgbench run`: opens the database before anything is measured (nullptr when `path`
// is absent, i.e. --no-db), so an unusable database fails in milliseconds with exit 4.
std::unique_ptr<HistoryStore> open_history_for_run(
    const std::optional<std::filesystem::path>& path);

}  // namespace cgbench::store
