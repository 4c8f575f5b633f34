// SqliteHistory's run lookups: runs found by their facts, a run read back whole (through the
// result file's own reader, so a stored run equals its result file), the run listing.

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "base/errors.hpp"
#include "core/result_json.hpp"
#include "core/result_reader.hpp"
#include "sqlite_store/function_store.hpp"
#include "sqlite_store/sqlite_history.hpp"

namespace cgbench::sqlite_store {

using json = nlohmann::json;

namespace {

constexpr std::string_view kRunColumns = "id, started, git_commit, git_branch, git_dirty";

// Reads the columns of kRunColumns starting at `first`.
void read_run_columns(const Statement& s, int first, std::string& id, std::string& started,
                      GitInfo& git) {
    id = std::string(s.text(first));
    started = std::string(s.text(first + 1));
    git.commit = s.optional_text(first + 2);
    git.branch = s.optional_text(first + 3);
    if (const auto d = s.optional_int64(first + 4)) git.dirty = *d != 0;
}

json git_json(const GitInfo& g) {
    return json{{"commit", g.commit ? json(*g.commit) : json(nullptr)},
                {"branch", g.branch ? json(*g.branch) : json(nullptr)},
                {"dirty", g.dirty ? json(*g.dirty) : json(nullptr)}};
}

json parse_stored(const Database& db, std::string_view text, std::string_view what) {
    try {
        return json::parse(text);
    } catch (const json::parse_error&) {
        throw EnvironmentError(
            fmt::format("history database {}: {} is not valid JSON", db.path().string(), what),
            "the file is damaged; move it aside or pass --db with another path");
    }
}

// run_from_json for a document from the database: a problem is the database's (exit 4).
RunResult read_document(const json& doc, const std::string& source) {
    try {
        return run_from_json(doc, source);
    } catch (const UsageError& e) {
        throw EnvironmentError(e.what(),
                               "the history database holds a run this cgbench "
                               "cannot read; pass --db with another path");
    }
}

// One stored benchmark document: the fast reader, or, when it declines, the result file's
// own reader on a copy of the run document `run` (whose benchmarks are replaced).
BenchmarkResult read_stored_benchmark(const Database& db, std::string_view text, const json& run,
                                      const std::string& source) {
    if (auto b = read_known_benchmark(text)) return std::move(*b);
    json doc = run;
    doc["benchmarks"] = json::array({parse_stored(db, text, "a result")});
    return std::move(read_document(doc, source).benchmarks.front());
}

// The run document of the row of `run` (from kRunColumns, fingerprint, warnings, shard,
// shard_balance), without benchmarks.
json run_document(const Database& db, const Statement& run) {
    RunResult head;
    read_run_columns(run, 0, head.id, head.started, head.git);
    json doc{{"schema", kResultSchema}};
    doc["run"] = json{{"id", head.id},
                      {"started", head.started},
                      {"git", git_json(head.git)},
                      {"fingerprint", parse_stored(db, run.text(5), "a fingerprint")},
                      {"warnings", parse_stored(db, run.text(6), "a warning list")}};
    if (const auto shard = run.optional_text(7)) doc["run"]["shard"] = *shard;
    if (const auto balance = run.optional_text(8)) doc["run"]["shard_balance"] = *balance;
    doc["benchmarks"] = json::array();
    return doc;
}

}  // namespace

std::optional<RunResult> SqliteHistory::load_run(std::int64_t handle,
                                                 const history::NameFilter& only) {
    auto run = db_.prepare(fmt::format(
        "SELECT {}, fingerprint, warnings, shard, shard_balance FROM runs WHERE seq = ?1",
        kRunColumns));
    run.bind(1, handle);
    if (!run.step()) return std::nullopt;
    const json doc = run_document(db_, run);
    const std::string source = fmt::format("{} run {}", db_.path().string(), run.text(0));
    RunResult out = read_document(doc, source);
    auto results =
        db_.prepare("SELECT position, name, data FROM results WHERE run = ?1 ORDER BY position");
    results.bind(1, handle);
    std::vector<std::int64_t> positions;
    while (results.step()) {
        if (only && !only(results.text(1))) continue;
        positions.push_back(results.int64(0));
        out.benchmarks.push_back(read_stored_benchmark(db_, results.text(2), doc, source));
    }
    if (!positions.empty()) FunctionReader(db_).attach_run(handle, positions, out.benchmarks);
    return out;
}

std::vector<history::FoundRun> SqliteHistory::find_runs(const history::RunFilter& filter) {
    std::string where;
    const auto add = [&where](const std::optional<std::string>& value, std::string_view test) {
        if (value) where += fmt::format(" AND {}", test);
    };
    add(filter.id, "id = ?1");
    add(filter.commit, "git_commit = ?2");
    add(filter.branch, "git_branch = ?3");
    add(filter.fingerprint_key, "fingerprint_key = ?4");
    if (filter.clean_only) where += " AND git_dirty IS NOT 1";
    auto s =
        db_.prepare(fmt::format("SELECT seq, {}, fingerprint_key FROM runs WHERE 1{} "
                                "ORDER BY started DESC, seq DESC LIMIT ?5",
                                kRunColumns, where));
    s.bind(1, filter.id).bind(2, filter.commit).bind(3, filter.branch);
    s.bind(4, filter.fingerprint_key);
    // SQLite's LIMIT is signed: a negative one means none.
    s.bind(5,
           filter.limit > INT64_MAX ? std::int64_t{-1} : static_cast<std::int64_t>(filter.limit));
    std::vector<history::FoundRun> out;
    while (s.step()) {
        history::FoundRun run;
        run.handle = s.int64(0);
        read_run_columns(s, 1, run.id, run.started, run.git);
        run.fingerprint_key = std::string(s.text(6));
        out.push_back(std::move(run));
    }
    return out;
}

std::vector<history::RunRow> SqliteHistory::runs(std::size_t limit) {
    auto s = db_.prepare(
        fmt::format("SELECT {}, (SELECT COUNT(*) FROM results WHERE run = r.seq), "
                    "(SELECT COUNT(*) FROM results WHERE run = r.seq AND status != 'ok'), "
                    "fingerprint_key FROM runs r ORDER BY started DESC, seq DESC LIMIT ?1",
                    kRunColumns));
    s.bind(1, static_cast<std::int64_t>(limit));
    std::vector<history::RunRow> rows;
    while (s.step()) {
        history::RunRow row;
        read_run_columns(s, 0, row.id, row.started, row.git);
        row.benchmarks = static_cast<std::size_t>(s.int64(5));
        row.failed = static_cast<std::size_t>(s.int64(6));
        row.fingerprint_key = std::string(s.text(7));
        rows.push_back(std::move(row));
    }
    return rows;
}

}  // namespace cgbench::sqlite_store
