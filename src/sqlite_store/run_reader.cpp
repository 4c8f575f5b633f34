// SqliteHistory's run lookups: runs found by their facts, a run read back whole (through the
// result file's own reader, so a stored run equals its result file), the run listing.

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "base/errors.hpp"
#include "core/result_json.hpp"
#include "core/result_reader.hpp"
#include "sqlite_store/function_store.hpp"
#include "sqlite_store/line_store.hpp"
#include "sqlite_store/run_columns.hpp"
#include "sqlite_store/sqlite_history.hpp"
#include "util/strings.hpp"

namespace cgbench::sqlite_store {

using json = nlohmann::json;

namespace {

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
    const auto head = read_run_columns(run, 0);
    constexpr int n = kRunColumnCount;
    json doc{{"schema", kResultSchema}};
    doc["run"] = json{{"id", head.id},
                      {"started", head.started},
                      {"git", json::parse(to_json(head.git).dump())},
                      {"fingerprint", parse_stored(db, run.text(n), "a fingerprint")},
                      {"warnings", parse_stored(db, run.text(n + 1), "a warning list")}};
    if (const auto shard = run.optional_text(n + 2)) doc["run"]["shard"] = *shard;
    if (const auto balance = run.optional_text(n + 3)) doc["run"]["shard_balance"] = *balance;
    if (!head.recorded_by.empty()) doc["run"]["recorded_by"] = head.recorded_by;
    doc["benchmarks"] = json::array();
    return doc;
}

}  // namespace

RunColumns read_run_columns(const Statement& s, int first) {
    RunColumns out;
    out.id = std::string(s.text(first));
    out.started = std::string(s.text(first + 1));
    auto& git = out.git;
    git.commit = s.optional_text(first + 2);
    git.branch = s.optional_text(first + 3);
    if (const auto d = s.optional_int64(first + 4)) git.dirty = *d != 0;
    git.commit_time = s.optional_text(first + 5);
    git.author_time = s.optional_text(first + 6);
    for (const auto p : util::split(s.text(first + 7), ' ')) {
        if (!p.empty()) git.parents.emplace_back(p);
    }
    git.subject = s.optional_text(first + 8);
    if (const auto d = s.optional_int64(first + 9); d && *d >= 0) {
        git.first_parent_depth = static_cast<std::uint64_t>(*d);
    }
    if (const auto sh = s.optional_int64(first + 10)) git.shallow = *sh != 0;
    out.recorded_by = std::string(s.text(first + 11));
    return out;
}

std::optional<RunResult> SqliteHistory::load_run(std::int64_t handle,
                                                 const history::NameFilter& only,
                                                 history::RunParts parts) {
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
    if (parts.functions == history::KeptFunctions::Read && !positions.empty())
        FunctionReader(db_).attach_run(handle, positions, out.benchmarks);
    if (parts.lines == history::SourceLines::Read && !positions.empty())
        attach_lines(db_, handle, positions, out.benchmarks);
    history::drop_unread(out.benchmarks, parts);
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
        auto columns = read_run_columns(s, 1);
        run.id = std::move(columns.id);
        run.started = std::move(columns.started);
        run.git = std::move(columns.git);
        run.recorded_by = std::move(columns.recorded_by);
        run.fingerprint_key = std::string(s.text(1 + kRunColumnCount));
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
        auto columns = read_run_columns(s, 0);
        row.id = std::move(columns.id);
        row.started = std::move(columns.started);
        row.git = std::move(columns.git);
        row.recorded_by = std::move(columns.recorded_by);
        constexpr int n = kRunColumnCount;
        row.benchmarks = static_cast<std::size_t>(s.int64(n));
        row.failed = static_cast<std::size_t>(s.int64(n + 1));
        row.fingerprint_key = std::string(s.text(n + 2));
        rows.push_back(std::move(row));
    }
    return rows;
}

}  // namespace cgbench::sqlite_store
