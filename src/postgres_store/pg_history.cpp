#include "postgres_store/pg_history.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "base/errors.hpp"
#include "core/result_json.hpp"
#include "exec/git.hpp"
#include "postgres_store/pg_functions.hpp"
#include "postgres_store/pg_lines.hpp"
#include "postgres_store/pg_schema.hpp"
#include "util/strings.hpp"
#include "util/time.hpp"

namespace cgbench::postgres_store {

namespace {

constexpr std::string_view kInsertRun = R"sql(
INSERT INTO cgbench.runs (project, id, started, recorded, git_commit, git_branch, git_dirty, git,
                          recorded_by, shard, fingerprint_key, fingerprint, document)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
ON CONFLICT (project, id) DO NOTHING RETURNING seq)sql";

// Results go in by this many rows per INSERT (9 parameters each; a statement takes 65,535).
constexpr std::size_t kResultsPerInsert = 500;

Param number(std::optional<std::uint64_t> v) {
    if (!v) return std::nullopt;
    return std::to_string(*v);
}

// The run's document without its benchmarks, as its result file has it.
std::string run_document(const RunResult& run) {
    RunResult head = run;
    head.benchmarks.clear();
    return dump_json(to_json(head), -1);
}

class PgRunBatch final : public history::RunBatch {
  public:
    explicit PgRunBatch(PgHistory& h) : h_(h), c_(h.connection()), tx_(c_) {
        pg_schema_version(c_);  // again in the transaction: a newer cgbench may have migrated
    }

    std::optional<history::StoredRunInfo> find(std::string_view id) override {
        const auto r = c_.exec(
            "SELECT started, (SELECT COUNT(*) FROM cgbench.results WHERE run = seq) "
            "FROM cgbench.runs WHERE project = $1 AND id = $2",
            {std::to_string(h_.project_id()), std::string(id)});
        if (r.rows() == 0) return std::nullopt;
        return history::StoredRunInfo{std::string(r.text(0, 0)),
                                      static_cast<std::size_t>(r.int64(0, 1))};
    }

    void commit() override { tx_.commit(); }

  protected:
    void write(const RunResult& run) override {
        const auto& git = run.git;
        const auto empty_null = [](const std::string& v) { return v.empty() ? Param() : Param(v); };
        const auto r =
            c_.exec(kInsertRun, {std::to_string(h_.project_id()), run.id, run.started,
                                 util::now_iso8601(), git.commit, git.branch,
                                 git.dirty ? Param(*git.dirty ? "true" : "false") : Param(),
                                 dump_json(to_json(git), -1), run.recorded_by,
                                 empty_null(run.shard), run.fingerprint.comparison_key(),
                                 dump_json(to_json(run.fingerprint), -1), run_document(run)});
        if (r.rows() == 0) return;  // another writer stored this run id meanwhile
        const std::string seq(r.text(0, 0));
        for (std::size_t first = 0; first < run.benchmarks.size(); first += kResultsPerInsert) {
            const auto last = std::min(run.benchmarks.size(), first + kResultsPerInsert);
            write_results(seq, run, first, last);
        }
    }

  private:
    void write_results(const std::string& seq, const RunResult& run, std::size_t first,
                       std::size_t last) {
        std::string sql =
            "INSERT INTO cgbench.results (run, position, project, name, status, cost, ir, "
            "functions, function_list, data) VALUES ";
        std::vector<Param> params;
        for (std::size_t i = first; i < last; ++i) {
            const int p = static_cast<int>(params.size());
            sql += fmt::format("{}(${}, ${}, ${}, ${}, ${}, ${}, ${}, ${}, ${}, ${})",
                               i == first ? "" : ", ", p + 1, p + 2, p + 3, p + 4, p + 5, p + 6,
                               p + 7, p + 8, p + 9, p + 10);
            BenchmarkResult b = run.benchmarks[i];
            history::keep_as_stored(b);
            b.lines.clear();  // in cgbench.result_lines (write_lines)
            const auto functions = std::move(b.functions);  // in function_list
            b.functions.clear();
            const bool ok = b.status == BenchStatus::Ok;
            const bool ir = b.events.has(metrics::Event::Ir);
            params.insert(
                params.end(),
                {seq, std::to_string(i), std::to_string(h_.project_id()), as_json_text(b.name),
                 std::string(to_string(b.status)),
                 number(ok ? std::optional(b.cost) : std::nullopt),
                 number(ir ? std::optional(b.events.get(metrics::Event::Ir)) : std::nullopt),
                 std::to_string(functions.size()), function_list(functions),
                 dump_json(to_json(b), -1)});
        }
        c_.exec(sql, params);
        write_lines(c_, seq, run, first, last);
    }

    PgHistory& h_;
    Connection& c_;
    PgTransaction tx_;
};

// The names and line texts no stored line uses any more, in any project (projects share
// them). Under a lock that waits for the writers in flight and holds new ones back: a writer
// interns a name that exists already without locking its row (ON CONFLICT DO NOTHING), so
// a name removed between that and its lines' insert would lose those lines.
constexpr std::string_view kRemoveUnusedNames = R"sql(
LOCK TABLE cgbench.symbols, cgbench.line_texts IN SHARE ROW EXCLUSIVE MODE;
DELETE FROM cgbench.symbols s
    WHERE NOT EXISTS (SELECT 1 FROM cgbench.result_lines l WHERE l.symbol = s.id);
DELETE FROM cgbench.line_texts t
    WHERE NOT EXISTS (SELECT 1 FROM cgbench.result_lines l WHERE l.text = t.id);
)sql";

// The project of `location`, or of the working directory's git remote.
std::string project_for(const PgLocation& location) {
    return location.project ? *location.project : default_project();
}

}  // namespace

std::optional<std::string> project_of_remote(std::string_view remote) {
    std::string_view path = util::trim(remote);
    if (const auto scheme = path.find("://"); scheme != std::string_view::npos) {
        path.remove_prefix(scheme + 3);
        const auto slash = path.find('/');
        if (slash == std::string_view::npos) return std::nullopt;
        path.remove_prefix(slash + 1);  // host, user and password with it
    } else if (const auto colon = path.find(':');
               colon != std::string_view::npos && path.find('/') > colon) {
        path.remove_prefix(colon + 1);  // git@host:org/repo
    }
    while (!path.empty() && path.back() == '/')
        path.remove_suffix(1);
    if (path.size() > 4 && path.substr(path.size() - 4) == ".git") path.remove_suffix(4);
    while (!path.empty() && path.front() == '/')
        path.remove_prefix(1);
    if (path.empty()) return std::nullopt;
    return std::string(path);
}

std::string default_project() {
    exec::PosixProcessRunner runner;
    const exec::Git git(".", exec::current_environment(), runner);
    if (const auto remote = git.run({"config", "--get", "remote.origin.url"})) {
        if (auto p = project_of_remote(*remote)) return *p;
    }
    return "default";
}

std::unique_ptr<history::HistoryBackend> PgHistory::open(const std::string& location,
                                                         history::Access access) {
    const auto parsed = parse_location("postgresql:" + location);
    return open(parsed, project_for(parsed), access);
}

std::unique_ptr<PgHistory> PgHistory::open(const PgLocation& location, const std::string& project,
                                           history::Access access) {
    Connection c(location);
    if (access == history::Access::Read) {
        const int version = pg_schema_version(c);
        if (version == 0) return nullptr;
        const auto r = c.exec("SELECT id FROM cgbench.projects WHERE name = $1", {Param(project)});
        if (r.rows() == 0) return nullptr;
        const auto id = r.int64(0, 0);
        return std::unique_ptr<PgHistory>(new PgHistory(std::move(c), project, id, version));
    }
    prepare_pg_schema(c);
    c.exec("INSERT INTO cgbench.projects (name) VALUES ($1) ON CONFLICT (name) DO NOTHING",
           {Param(project)});
    const auto r = c.exec("SELECT id FROM cgbench.projects WHERE name = $1", {Param(project)});
    const auto id = r.int64(0, 0);
    return std::unique_ptr<PgHistory>(new PgHistory(std::move(c), project, id, kPgSchemaVersion));
}

std::string PgHistory::name() const {
    return fmt::format("{}?project={}", c_.shown(), util::printable(project_));
}

std::optional<std::vector<std::string>> PgHistory::projects(const std::string& location) {
    Connection c(parse_location("postgresql:" + location));
    if (pg_schema_version(c) == 0) return std::nullopt;
    const auto r = c.exec("SELECT name FROM cgbench.projects ORDER BY name COLLATE \"C\"");
    std::vector<std::string> out;
    for (int i = 0; i < r.rows(); ++i)
        out.emplace_back(r.text(i, 0));
    return out;
}

std::unique_ptr<history::RunBatch> PgHistory::begin_batch() {
    // A run is recorded after its measurement, which may outlast the connection.
    c_.revive();
    return std::make_unique<PgRunBatch>(*this);
}

history::RemovedRows PgHistory::remove_runs(const std::vector<history::Run>& runs) {
    std::vector<std::int64_t> handles;
    for (const auto& r : runs)
        handles.push_back(r.handle);
    const std::vector<Param> params = {int_array(handles), std::to_string(project_id_)};
    PgTransaction tx(c_);
    const auto counts = c_.exec(
        "SELECT COUNT(*), COALESCE(SUM(functions), 0) FROM cgbench.results "
        "WHERE run = ANY($1::bigint[]) AND project = $2",
        params);
    history::RemovedRows out;
    out.results = static_cast<std::size_t>(counts.int64(0, 0));
    out.functions = static_cast<std::size_t>(counts.int64(0, 1));
    out.runs =
        c_.exec("DELETE FROM cgbench.runs WHERE seq = ANY($1::bigint[]) AND project = $2", params)
            .affected();
    if (out.runs > 0) c_.exec(kRemoveUnusedNames);
    tx.commit();
    return out;
}

std::size_t PgHistory::run_count() {
    return static_cast<std::size_t>(c_.exec("SELECT COUNT(*) FROM cgbench.runs WHERE project = $1",
                                            {std::to_string(project_id_)})
                                        .int64(0, 0));
}

}  // namespace cgbench::postgres_store
