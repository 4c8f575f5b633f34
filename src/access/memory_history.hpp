#pragma once
// A history held in plain containers: the `memory:` scheme (a history that lasts while
// cgbench runs) and the second backend the unit tests hold the SQLite one to. It stores what
// a SQLite history stores (each run as its result file reads back, the kept functions) and
// finds and orders runs as it does, so history policy cannot tell them apart.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "history/backend.hpp"

namespace cgbench::access {

// A history::HistoryBackend over a vector of runs, shared by the handles share() makes.
class MemoryHistory final : public history::HistoryBackend {
  public:
    // Its entry in the scheme table (access/history_url.cpp): a new, empty history whatever
    // the access (`memory:` names nothing that lasts). UsageError when `location` (what
    // follows "memory:") is not empty.
    static std::unique_ptr<history::HistoryBackend> open(const std::string& location,
                                                         history::Access access);
    // A new, empty history.
    MemoryHistory();
    // Another handle on the same runs, as a second opening of one database file is.
    std::unique_ptr<MemoryHistory> share() const;

    // history::HistoryBackend; the contracts are there, what differs is said here.

    // Runs are stored on commit(), in the order added.
    std::unique_ptr<history::RunBatch> begin_batch() override;
    history::RemovedRows remove_runs(const std::vector<history::Run>& runs) override;
    // Each a pass over every run: a history in memory is small.
    std::vector<history::FoundRun> find_runs(const history::RunFilter& filter) override;
    std::optional<RunResult> load_run(std::int64_t handle, const history::NameFilter& only,
                                      history::RunParts parts) override;
    history::History load_runs() override;
    void scan_series(const history::History& h, const history::NameFilter& keep, std::size_t limit,
                     const history::SeriesVisitor& visit) override;
    void scan_series(const history::History& h, std::string_view name, std::size_t limit,
                     const history::SeriesVisitor& visit) override;
    std::unique_ptr<history::StoredResultReader> result_reader() override;
    std::vector<std::string> benchmark_names() override;
    std::vector<history::RunRow> runs(std::size_t limit) override;
    std::size_t run_count() override;

    // "memory:"; no file.
    std::string name() const override { return "memory:"; }
    std::optional<std::filesystem::path> unrecorded_directory() const override {
        return std::nullopt;
    }
    std::optional<std::uintmax_t> stored_bytes() const override { return std::nullopt; }

    // One stored run: the run as stored, its handle (the order recorded) and its key.
    struct Stored {
        RunResult run;
        std::int64_t handle = 0;
        std::string key;
    };
    // Every stored run, in the order recorded.
    struct Runs {
        std::vector<Stored> runs;
        std::int64_t next_handle = 1;
    };

  private:
    explicit MemoryHistory(std::shared_ptr<Runs> runs) : runs_(std::move(runs)) {}
    const Stored* find(std::int64_t handle) const;
    // The stored runs, the most recently started first (ties: the later recorded first).
    std::vector<const Stored*> newest_first() const;

    std::shared_ptr<Runs> runs_;
};

}  // namespace cgbench::access
