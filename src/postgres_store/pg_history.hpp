#pragma once
// The history in a PostgreSQL database (`--db postgresql://USER@HOST:PORT/DB`): one server
// for many repositories and runners. Each run belongs to a project (the URL's ?project=NAME,
// which --project sets; by default the git remote's path) and every query reads one project.
// Implements history::HistoryBackend; what the runs mean is decided above it.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "history/backend.hpp"
#include "postgres_store/pg.hpp"

namespace cgbench::postgres_store {

// The project of a URL without ?project=: the path of the git remote `origin` of the
// working directory ("github.com/org/repo.git" -> "org/repo"), else "default".
std::string default_project();

// The project a remote URL names: its path without ".git" and credentials; nullopt for none.
std::optional<std::string> project_of_remote(std::string_view remote);

class PgHistory final : public history::HistoryBackend {
  public:
    // Its entry in the scheme table (access/history_url.cpp): `location` is what follows
    // "postgresql:" (or "postgres:"). Record: the schema is created or migrated (under a
    // lock) and the project created; Read: nullptr when the database has no cgbench
    // schema or not the project. UsageError for a bad URL, EnvironmentError (exit 4) when
    // the server cannot be reached, refuses, or holds a newer schema.
    static std::unique_ptr<history::HistoryBackend> open(const std::string& location,
                                                         history::Access access);
    // The same for a parsed URL and its project.
    static std::unique_ptr<PgHistory> open(const PgLocation& location, const std::string& project,
                                           history::Access access);

    // history::HistoryBackend; the contracts are there, what PostgreSQL adds is said here.

    // One transaction per batch; runs of other writers never wait for it. A connection lost
    // since the last query (a server restarted while a run was measured) is made again.
    std::unique_ptr<history::RunBatch> begin_batch() override;
    // One transaction.
    history::RemovedRows remove_runs(const std::vector<history::Run>& runs) override;
    std::vector<history::FoundRun> find_runs(const history::RunFilter& filter) override;
    // Through the result file's own reader (run_from_json), with the functions of
    // `function_list` (pg_functions.hpp) and the lines of cgbench.result_lines (pg_lines.hpp)
    // unless skipped: neither is sent by the server then.
    std::optional<RunResult> load_run(std::int64_t handle, const history::NameFilter& only,
                                      history::RunParts parts) override;
    history::History load_runs() override;
    // Series come from the index results_by_name (project, name, run).
    void scan_series(const history::History& h, const history::NameFilter& keep, std::size_t limit,
                     const history::SeriesVisitor& visit) override;
    void scan_series(const history::History& h, std::string_view name, std::size_t limit,
                     const history::SeriesVisitor& visit) override;
    std::unique_ptr<history::StoredResultReader> result_reader() override;
    std::vector<std::string> benchmark_names() override;
    std::vector<history::RunRow> runs(std::size_t limit) override;
    std::size_t run_count() override;

    // postgresql://USER@HOST:PORT/DB?project=NAME, never with a password.
    std::string name() const override;
    // No directory of its own, no size of its own (projects share the database).
    std::optional<std::filesystem::path> unrecorded_directory() const override {
        return std::nullopt;
    }
    std::optional<std::uintmax_t> stored_bytes() const override { return std::nullopt; }

    // The project's name.
    const std::string& project() const { return project_; }
    // Every project in the database `location` (what follows "postgresql:") names, sorted
    // by bytes; nullopt when it has no cgbench schema. Errors as open().
    static std::optional<std::vector<std::string>> projects(const std::string& location);

    // For the batch and the readers.
    Connection& connection() { return c_; }
    std::int64_t project_id() const { return project_id_; }
    // What the readers select for a result's functions kept apart (NULL before version 3).
    std::string_view function_list_column() const {
        return schema_version_ >= 3 ? "function_list" : "NULL";
    }

  private:
    PgHistory(Connection c, std::string project, std::int64_t id, int schema_version)
        : c_(std::move(c)),
          project_(std::move(project)),
          project_id_(id),
          schema_version_(schema_version) {}

    Connection c_;
    std::string project_;
    std::int64_t project_id_;
    // What the database holds (a reader never converts it): before version 2, lines are
    // inside the documents and there is no cgbench.result_lines; before 3, functions too.
    int schema_version_;
};

}  // namespace cgbench::postgres_store
