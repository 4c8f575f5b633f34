#include "sqlite_store/run_batch.hpp"

#include <limits>
#include <nlohmann/json.hpp>

#include "core/result_json.hpp"
#include "metrics/events.hpp"
#include "sqlite_store/schema.hpp"
#include "util/strings.hpp"
#include "util/time.hpp"

namespace cgbench::sqlite_store {

namespace {

constexpr std::string_view kInsertRun = R"sql(
INSERT INTO runs (id, started, recorded, git_commit, git_branch, git_dirty, fingerprint_key,
                  fingerprint, warnings, shard, shard_balance, commit_time, author_time, parents,
                  subject, first_parent_depth, shallow, recorded_by)
VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18))sql";

// The event columns follow metrics::kEvents (schema.cpp checks the count).
constexpr std::string_view kInsertResult = R"sql(
INSERT INTO results (run, position, name, status, tool, cost,
                     ir, i1mr, ilmr, dr, d1mr, dlmr, dw, d1mw, dlmw, bc, bcm, bi, bim,
                     l1_hits, ll_hits, ram_hits, data)
VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19,
        ?20, ?21, ?22, ?23))sql";

constexpr int kFirstEventParam = 7;
constexpr int kFirstDerivedParam = kFirstEventParam + static_cast<int>(metrics::kEventCount);

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
    // The functions go to result_functions (FunctionWriter), the lines to result_lines.
    BenchmarkResult stored = b;
    stored.functions.clear();
    stored.lines.clear();
    s.bind(kFirstDerivedParam + 3, compact(to_json(stored)));
}

// The commit's facts into the six columns from `first` (commit_time, author_time, parents,
// subject, first_parent_depth, shallow); parents space-separated ("" for a root commit).
void bind_commit_facts(Statement& s, int first, const GitInfo& git) {
    s.bind(first, git.commit_time).bind(first + 1, git.author_time);
    if (git.commit_time || !git.parents.empty()) {
        s.bind(first + 2, util::join(git.parents, " "));
    } else {
        s.bind_null(first + 2);
    }
    s.bind(first + 3, git.subject);
    bind_count(s, first + 4, git.first_parent_depth);
    if (git.shallow) {
        s.bind(first + 5, std::int64_t{*git.shallow ? 1 : 0});
    } else {
        s.bind_null(first + 5);
    }
}

void bind_run(Statement& s, const RunResult& run) {
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
    bind_commit_facts(s, 12, run.git);
    s.bind(18, optional(run.recorded_by));
}

}  // namespace

SqliteRunBatch::SqliteRunBatch(Database& db)
    : db_(db),
      tx_(db_),
      version_(check_schema(db_)),  // again under the lock: a newer cgbench may have migrated
      find_run_(db_.prepare("SELECT started, (SELECT COUNT(*) FROM results WHERE run = seq) "
                            "FROM runs WHERE id = ?1")),
      insert_run_(db_.prepare(kInsertRun)),
      insert_result_(db_.prepare(kInsertResult)),
      functions_(db_),
      lines_(db_) {}

std::optional<history::StoredRunInfo> SqliteRunBatch::find(std::string_view id) {
    find_run_.reset();
    find_run_.bind(1, id);
    if (!find_run_.step()) return std::nullopt;
    return history::StoredRunInfo{std::string(find_run_.text(0)),
                                  static_cast<std::size_t>(find_run_.int64(1))};
}

void SqliteRunBatch::write(const RunResult& run) {
    insert_run_.reset();
    bind_run(insert_run_, run);
    insert_run_.run();
    const std::int64_t seq = db_.last_insert_rowid();
    for (std::size_t i = 0; i < run.benchmarks.size(); ++i) {
        const auto& b = run.benchmarks[i];
        insert_result_.reset();
        bind_result(insert_result_, seq, i, b);
        insert_result_.run();
        // The functions that explain a change, not all of them.
        functions_.write(seq, i, history::kept_functions(b.functions));
        lines_.write(seq, i, history::kept_lines(b.lines));
    }
}

void SqliteRunBatch::commit() {
    tx_.commit();
}

}  // namespace cgbench::sqlite_store
