#pragma once
// `cgbench import`: result files (`cgbench run --out`, `cgbench merge --out`) into the history
// database, for runs measured elsewhere (shards, offline machines, a run whose recording
// failed) and for rebuilding a history from kept result files. Idempotent by run id.

#include <chrono>
#include <cstddef>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "history/backend.hpp"

namespace cgbench::access {

// One file to import.
struct ImportSource {
    std::filesystem::path path;
    // Found by searching a directory named on the command line: such a file may be another
    // JSON document (a comparison, an export), which is skipped. A file named itself must be a
    // result file.
    bool found_in_directory = false;
    // Not to be read, and why: a symbolic link found in a directory that leads out of it
    // (a history branch's `runs/x.json -> /etc/shadow`).
    std::string skip_reason = {};
};

// The files `args` name: a file as it is, a directory as every `*.json` file below it
// (recursively; directories whose name starts with '.' are skipped; a link leading out of
// the directory is listed with its skip_reason), each directory's files sorted by path. UsageError
// naming the argument when it does not exist or is neither a regular file nor a directory.
std::vector<ImportSource> import_sources(const std::vector<std::string>& args);

// What became of one file.
struct ImportedFile {
    enum class Status {
        Added,          // its run is stored (once the batch is committed)
        AlreadyStored,  // a run with its id is stored already; nothing was written
        NotAResult,     // found in a directory, a JSON document that is no result file
    };
    Status status = Status::Added;
    std::string run_id;
    std::size_t benchmarks = 0;
    // For AlreadyStored: what is stored under the id (differs when another file holds the id).
    std::optional<history::StoredRunInfo> stored;
};

// Adds result files to a history, several runs per transaction (a run never spans two).
class RunImporter {
  public:
    // When the open transaction is committed: once it is `max_age` old, so other writers
    // never wait long for the lock, or holds `max_results` results.
    struct Batching {
        std::chrono::milliseconds max_age{250};
        std::size_t max_results = 50000;
    };

    // `store` must outlive the importer.
    explicit RunImporter(history::HistoryBackend& store, Batching batching);
    explicit RunImporter(history::HistoryBackend& store) : RunImporter(store, Batching{}) {}

    // Reads `source` with the reader `compare` uses for a result file (UsageError naming the
    // file and the problem when it is not a valid one, starts more than a day ahead of the
    // clock, or holds what the history cannot store) and adds its run to the open
    // transaction, committing it first when it is due.
    ImportedFile import(const ImportSource& source);
    // Adds run `run` of another history `from` (from its load_runs()) as it is stored there
    // (id, fingerprint, kept functions), read only when its id is not stored yet.
    ImportedFile import_run(history::HistoryBackend& from, const history::Run& run);
    // Commits the open transaction. Runs added since the previous commit are stored only
    // after this; an importer destroyed without it rolls them back.
    void finish();

    // Runs and results committed so far.
    std::size_t committed_runs() const { return committed_runs_; }
    std::size_t committed_results() const { return committed_results_; }
    // Transactions committed so far.
    std::size_t transactions() const { return transactions_; }

  private:
    void commit_open_batch();
    // Adds the run `read` gives, unless out.run_id is stored already; `source` names it.
    ImportedFile add(ImportedFile out, const std::function<RunResult()>& read,
                     const std::string& source);

    history::HistoryBackend& store_;
    Batching batching_;
    std::unique_ptr<history::RunBatch> batch_;
    std::chrono::steady_clock::time_point batch_started_;
    std::size_t committed_runs_ = 0;
    std::size_t committed_results_ = 0;
    std::size_t transactions_ = 0;
};

}  // namespace cgbench::access
