#include "store/history_store.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <limits>
#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>
#include <set>
#include <system_error>

#include "base/errors.hpp"
#include "core/result_json.hpp"
#include "store/function_store.hpp"
#include "store/result_reader.hpp"
#include "store/schema.hpp"
#include "util/strings.hpp"
#include "util/time.hpp"

namespace cgbench::store {

namespace fs = std::filesystem;
using json = nlohmann::json;

namespace {

constexpr std::string_view kInsertRun = R"sql(
INSERT INTO runs (id, started, recorded, git_commit, git_branch, git_dirty, fingerprint_key,
                  fingerprint, warnings, shard, shard_balance)
VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11))sql";

// The event columns follow metrics::kEvents (schema.cpp checks the count).
constexpr std::string_view kInsertResult = R"sql(
INSERT INTO results (run, position, name, status, tool, cost,
                     ir, i1mr, ilmr, dr, d1mr, dlmr, dw, d1mw, dlmw, bc, bcm, bi, bim,
                     l1_hits, ll_hits, ram_hits, data)
VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19,
        ?20, ?21, ?22, ?23))sql";

constexpr int kFirstEventParam = 7;
constexpr int kFirstDerivedParam = kFirstEventParam + static_cast<int>(metrics::kEventCount);

constexpr std::string_view kRunColumns = "id, started, git_commit, git_branch, git_dirty";

// SQLite integers are signed; a count beyond 2^63 (never seen) stays only in the JSON.
void bind_count(Statement& s, int index, std::optional<std::uint64_t> v) {
    if (v && *v <= static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
        s.bind(index, static_cast<std::int64_t>(*v));
    } else {
        s.bind_null(index);
    }
}

// Names are bytes from the command line: invalid UTF-8 becomes U+FFFD instead of failing
// after the measurement.
std::string compact(const nlohmann::ordered_json& j) {
    return dump_json(j, -1);
}

void bind_result(Statement& s, std::int64_t run, std::size_t position, const BenchmarkResult& b) {
    const bool ok = b.status == BenchStatus::Ok;
    // The name as the document stores it (U+FFFD for bytes that are not UTF-8).
    s.bind(1, run).bind(2, static_cast<std::int64_t>(position)).bind(3, as_json_text(b.name));
    s.bind(4, to_string(b.status)).bind(5, b.tool);
    bind_count(s, 6, ok ? std::optional(b.cost) : std::nullopt);
    for (const auto& e : metrics::kEvents) {
        const int index = kFirstEventParam + static_cast<int>(metrics::index_of(e.id));
        bind_count(s, index, b.events.has(e.id) ? std::optional(b.events.get(e.id)) : std::nullopt);
    }
    const auto d = b.derived;
    bind_count(s, kFirstDerivedParam, d ? std::optional(d->l1_hits) : std::nullopt);
    bind_count(s, kFirstDerivedParam + 1, d ? std::optional(d->ll_hits) : std::nullopt);
    bind_count(s, kFirstDerivedParam + 2, d ? std::optional(d->ram_hits) : std::nullopt);
    BenchmarkResult stored = b;  // the functions go to result_functions (FunctionWriter)
    stored.functions.clear();
    s.bind(kFirstDerivedParam + 3, compact(to_json(stored)));
}

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
// own reader on a run document `header()` (whose benchmarks are replaced).
BenchmarkResult read_stored_benchmark(const Database& db, std::string_view text,
                                      const std::function<json()>& header,
                                      const std::string& source) {
    if (auto b = read_known_benchmark(text)) return std::move(*b);
    json doc = header();
    doc["benchmarks"] = json::array({parse_stored(db, text, "a result")});
    return std::move(read_document(doc, source).benchmarks.front());
}

}  // namespace

namespace {

// A database path that exists must be a regular file: SQLite would make /dev/null a database
// and leave its journal beside it.
void require_regular_file(const fs::path& path) {
    std::error_code ec;
    const auto status = fs::status(path, ec);
    if (ec || !fs::exists(status) || fs::is_regular_file(status)) return;
    throw EnvironmentError(
        fmt::format("history database {} is not a regular file{}", path.string(),
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

}  // namespace

HistoryStore HistoryStore::open_for_recording(const fs::path& path) {
    require_regular_file(path);
    if (const auto dir = path.parent_path(); !dir.empty()) {
        std::error_code ec;
        fs::create_directories(dir, ec);
        if (ec) {
            throw EnvironmentError(fmt::format("cannot create the directory {} for the history "
                                               "database: {}",
                                               dir.string(), ec.message()),
                                   "pass --db with a writable path, or --no-db");
        }
    }
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
        return HistoryStore(std::move(db));
    } catch (const Error&) {
        if (!existed) remove_new_database(path);
        throw;
    }
}

std::optional<HistoryStore> HistoryStore::open_existing(const fs::path& path) {
    std::error_code ec;
    if (!fs::exists(path, ec)) return std::nullopt;
    require_regular_file(path);
    Database db(path, Database::Mode::ReadOnly);
    const int version = check_schema(db);
    if (version == kSchemaVersion) {
        // Queries that only read scan an index or look up a few rows: a small page cache
        // serves them as well as SQLite's 2 MiB default, and each page of that default is
        // memory the first read of a page faults in (2 MiB: ~10 ms of a short command).
        db.exec(fmt::format("PRAGMA cache_size = -{}", kReadCacheKiB));
        return HistoryStore(std::move(db));
    }
    // An older (or empty) database is never converted by a command that only reads: an older
    // cgbench could not read it any more. A copy in memory is converted instead.
    if (version > 0) {
        spdlog::warn("history database {} was written by an older cgbench (schema {}): it is "
                     "read through a converted copy; `cgbench run` or `cgbench import` with it "
                     "converts the file",
                     path.string(), version);
    }
    Database copy = db.copy_in_memory();
    prepare_schema(copy);
    return HistoryStore(std::move(copy));
}

void HistoryStore::record_run(const RunResult& run) {
    RunBatch batch(*this);
    if (batch.add(run)) {
        throw EnvironmentError(fmt::format("history database {} holds a run with id {} already",
                                           path().string(), util::printable(run.id)),
                               "pass --db with another path");
    }
    batch.commit();
}

RunBatch::RunBatch(HistoryStore& store)
    : db_(store.db_),
      tx_(db_),
      version_(check_schema(db_)),  // again under the lock: a newer cgbench may have migrated
      find_run_(db_.prepare("SELECT started, (SELECT COUNT(*) FROM results WHERE run = seq) "
                            "FROM runs WHERE id = ?1")),
      insert_run_(db_.prepare(kInsertRun)),
      insert_result_(db_.prepare(kInsertResult)),
      functions_(db_) {}

std::optional<StoredRunInfo> RunBatch::find(std::string_view id) {
    find_run_.reset();
    find_run_.bind(1, id);
    if (!find_run_.step()) return std::nullopt;
    return StoredRunInfo{std::string(find_run_.text(0)),
                         static_cast<std::size_t>(find_run_.int64(1))};
}

std::optional<StoredRunInfo> RunBatch::add(const RunResult& run) {
    if (auto stored = find(run.id)) return stored;
    write(run);
    ++runs_;
    results_ += run.benchmarks.size();
    return std::nullopt;
}

void RunBatch::write(const RunResult& run) {
    auto& s = insert_run_;
    s.reset();
    s.bind(1, run.id).bind(2, run.started).bind(3, util::now_iso8601());
    s.bind(4, run.git.commit).bind(5, run.git.branch);
    if (run.git.dirty) {
        s.bind(6, std::int64_t{*run.git.dirty ? 1 : 0});
    } else {
        s.bind_null(6);
    }
    s.bind(7, run.fingerprint.comparison_key());
    s.bind(8, compact(to_json(run.fingerprint)));
    s.bind(9, compact(nlohmann::ordered_json(run.warnings)));
    const auto optional = [](const std::string& v) {
        return v.empty() ? std::nullopt : std::optional<std::string>(v);
    };
    s.bind(10, optional(run.shard)).bind(11, optional(run.shard_balance));
    s.run();
    const std::int64_t seq = db_.last_insert_rowid();
    for (std::size_t i = 0; i < run.benchmarks.size(); ++i) {
        const auto& b = run.benchmarks[i];
        insert_result_.reset();
        bind_result(insert_result_, seq, i, b);
        insert_result_.run();
        // The functions that explain a change, not all of them.
        functions_.write(seq, i, fold_functions(b.functions, kStoredFunctions));
    }
}

void RunBatch::commit() {
    tx_.commit();
}

std::optional<RunResult> HistoryStore::load(std::optional<std::int64_t> seq) {
    if (!seq) return std::nullopt;
    auto run = db_.prepare(fmt::format(
        "SELECT {}, fingerprint, warnings, shard, shard_balance FROM runs WHERE seq = ?1",
        kRunColumns));
    run.bind(1, *seq);
    if (!run.step()) return std::nullopt;
    RunResult head;
    read_run_columns(run, 0, head.id, head.started, head.git);
    json doc{{"schema", kResultSchema}};
    doc["run"] = json{{"id", head.id},
                      {"started", head.started},
                      {"git", git_json(head.git)},
                      {"fingerprint", parse_stored(db_, run.text(5), "a fingerprint")},
                      {"warnings", parse_stored(db_, run.text(6), "a warning list")}};
    if (const auto shard = run.optional_text(7)) doc["run"]["shard"] = *shard;
    if (const auto balance = run.optional_text(8)) doc["run"]["shard_balance"] = *balance;
    doc["benchmarks"] = json::array();
    const std::string source = fmt::format("{} run {}", db_.path().string(), head.id);
    RunResult out = read_document(doc, source);
    auto results =
        db_.prepare("SELECT position, data FROM results WHERE run = ?1 ORDER BY position");
    results.bind(1, *seq);
    std::vector<std::int64_t> positions;
    while (results.step()) {
        positions.push_back(results.int64(0));
        out.benchmarks.push_back(read_stored_benchmark(
            db_, results.text(1), [&doc] { return doc; }, source));
    }
    FunctionReader(db_).attach_run(*seq, positions, out.benchmarks);
    return out;
}

std::optional<StoredCosts> HistoryStore::latest_costs(const std::vector<std::string>& names) {
    std::optional<std::int64_t> latest;
    // Only complete runs: a shard run of the current split would change the balance of the
    // shards measured after it.
    auto newest = db_.prepare(
        "SELECT r.run FROM results r JOIN runs u ON u.seq = r.run "
        "WHERE r.name = ?1 AND r.status = 'ok' AND u.shard IS NULL ORDER BY r.run DESC LIMIT 1");
    for (const auto& name : names) {
        newest.reset();
        newest.bind(1, name);
        if (newest.step() && (!latest || newest.int64(0) > *latest)) latest = newest.int64(0);
    }
    if (!latest) return std::nullopt;
    StoredCosts out;
    auto id = db_.prepare("SELECT id FROM runs WHERE seq = ?1");
    id.bind(1, *latest);
    if (id.step()) out.run_id = std::string(id.text(0));
    auto costs = db_.prepare("SELECT name, cost FROM results WHERE run = ?1 AND status = 'ok'");
    costs.bind(1, *latest);
    while (costs.step()) {
        const std::string name(costs.text(0));
        if (std::find(names.begin(), names.end(), name) != names.end()) {
            out.costs[name] = static_cast<std::uint64_t>(costs.int64(1));
        }
    }
    return out;
}

std::optional<RunResult> HistoryStore::run_by_id(std::string_view id) {
    auto s = db_.prepare("SELECT seq FROM runs WHERE id = ?1");
    s.bind(1, id);
    return load(s.step() ? std::optional(s.int64(0)) : std::nullopt);
}

std::optional<RunResult> HistoryStore::latest_run(std::string_view exclude_id) {
    auto s =
        db_.prepare("SELECT seq FROM runs WHERE id != ?1 ORDER BY started DESC, seq DESC LIMIT 1");
    s.bind(1, exclude_id);
    return load(s.step() ? std::optional(s.int64(0)) : std::nullopt);
}

std::optional<RunResult> HistoryStore::latest_run_at_commit(
    std::string_view commit, const std::vector<std::string>& exclude) {
    auto s = db_.prepare(
        "SELECT seq, id FROM runs WHERE git_commit = ?1 "
        "ORDER BY git_dirty IS 1, started DESC, seq DESC");
    s.bind(1, commit);
    while (s.step()) {
        if (std::find(exclude.begin(), exclude.end(), s.text(1)) == exclude.end()) {
            return load(s.int64(0));
        }
    }
    return std::nullopt;
}

std::optional<RunResult> HistoryStore::clean_run_at_commit(std::string_view commit) {
    auto s = db_.prepare(
        "SELECT seq FROM runs WHERE git_commit = ?1 AND git_dirty IS NOT 1 "
        "ORDER BY started DESC, seq DESC LIMIT 1");
    s.bind(1, commit);
    auto anchor = load(s.step() ? std::optional(s.int64(0)) : std::nullopt);
    if (!anchor) return std::nullopt;
    std::vector<std::string> used;
    return complete_from_commit(std::move(*anchor), {}, used);
}

std::optional<RunResult> HistoryStore::latest_run_on_branch(
    std::string_view branch, std::string_view fingerprint_key,
    const std::vector<std::string>& exclude) {
    auto s = db_.prepare(
        "SELECT seq, id FROM runs WHERE git_branch = ?1 AND fingerprint_key = ?2 "
        "AND git_dirty IS NOT 1 ORDER BY started DESC, seq DESC");
    s.bind(1, branch).bind(2, fingerprint_key);
    while (s.step()) {
        if (std::find(exclude.begin(), exclude.end(), s.text(1)) == exclude.end()) {
            return load(s.int64(0));
        }
    }
    return std::nullopt;
}

RunResult HistoryStore::complete_from_commit(RunResult anchor,
                                             const std::vector<std::string>& exclude,
                                             std::vector<std::string>& used) {
    used.push_back(anchor.id);
    if (!anchor.git.commit) return anchor;
    auto s = db_.prepare(
        "SELECT r.id, s.name, s.data, s.run, s.position "
        "FROM runs r JOIN results s ON s.run = r.seq "
        "WHERE r.git_commit = ?1 AND r.fingerprint_key = ?2 AND (r.git_dirty IS 1) = ?3 "
        "AND r.id != ?4 ORDER BY r.started DESC, r.seq DESC, s.position");
    s.bind(1, *anchor.git.commit).bind(2, anchor.fingerprint.comparison_key());
    s.bind(3, std::int64_t{anchor.git.dirty.value_or(false) ? 1 : 0}).bind(4, anchor.id);
    std::set<std::string, std::less<>> names;
    for (const auto& b : anchor.benchmarks)
        names.insert(b.name);
    const auto header = [&anchor] {
        RunResult bare = anchor;
        bare.benchmarks.clear();
        return json(to_json(bare));
    };
    const std::string source =
        fmt::format("{} at commit {}", db_.path().string(), *anchor.git.commit);
    FunctionReader functions(db_);
    while (s.step()) {
        const std::string_view id = s.text(0);
        if (std::find(exclude.begin(), exclude.end(), id) != exclude.end()) continue;
        if (!names.insert(std::string(s.text(1))).second) continue;
        if (std::find(used.begin(), used.end(), id) == used.end()) used.emplace_back(id);
        auto b = read_stored_benchmark(db_, s.text(2), header, source);
        if (auto f = functions.result(s.int64(3), s.int64(4)); !f.empty()) {
            b.functions = std::move(f);
        }
        anchor.benchmarks.push_back(std::move(b));
    }
    return anchor;
}

std::vector<history::RunRow> HistoryStore::runs(std::size_t limit) {
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

std::size_t HistoryStore::run_count() {
    return static_cast<std::size_t>(db_.query_int("SELECT COUNT(*) FROM runs"));
}

std::unique_ptr<HistoryStore> open_history_for_run(const std::optional<fs::path>& path) {
    if (!path) return nullptr;
    return std::make_unique<HistoryStore>(HistoryStore::open_for_recording(*path));
}

}  // namespace cgbench::store
