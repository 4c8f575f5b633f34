// SqliteHistory's readers for history policy: every run with its fingerprint, series scanned
// from the name index in one pass, the names, and a step's stored result.

#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <unordered_map>

#include "base/errors.hpp"
#include "core/result_json.hpp"
#include "sqlite_store/function_store.hpp"
#include "sqlite_store/run_columns.hpp"
#include "sqlite_store/sqlite_history.hpp"

namespace cgbench::sqlite_store {

namespace {

// Each result's run, status, cost and Ir come from the covering index results_by_name (its
// rows also carry the table's key, run and position).
constexpr std::string_view kAllResults =
    "SELECT name, run, position, status, cost, ir FROM results INDEXED BY results_by_name "
    "ORDER BY name, run";
constexpr std::string_view kOneResults =
    "SELECT name, run, position, status, cost, ir FROM results INDEXED BY results_by_name "
    "WHERE name = ?1 ORDER BY run";

// The store's run seq -> index into History::runs: a table over the seqs in use (they are
// dense: 1, 2, 3... with gaps only where runs were pruned), a hash beyond.
class RunIndex {
  public:
    void add(std::int64_t seq, std::size_t index) { pairs_.emplace_back(seq, index); }
    void finish() {
        std::int64_t top = 0;
        for (const auto& [seq, index] : pairs_)
            top = std::max(top, seq);
        if (top >= 0 && static_cast<std::size_t>(top) <= 4 * pairs_.size() + 1024) {
            dense_.assign(static_cast<std::size_t>(top) + 1, kNone);
            for (const auto& [seq, index] : pairs_) {
                if (seq >= 0) dense_[static_cast<std::size_t>(seq)] = index;
            }
        }
        for (const auto& [seq, index] : pairs_) {
            if (seq < 0 || static_cast<std::size_t>(seq) >= dense_.size())
                sparse_.emplace(seq, index);
        }
    }
    std::optional<std::size_t> find(std::int64_t seq) const {
        if (seq >= 0 && static_cast<std::size_t>(seq) < dense_.size()) {
            const auto i = dense_[static_cast<std::size_t>(seq)];
            return i == kNone ? std::nullopt : std::optional(i);
        }
        const auto it = sparse_.find(seq);
        return it == sparse_.end() ? std::nullopt : std::optional(it->second);
    }

  private:
    static constexpr std::size_t kNone = SIZE_MAX;
    std::vector<std::pair<std::int64_t, std::size_t>> pairs_;
    std::vector<std::size_t> dense_;
    std::unordered_map<std::int64_t, std::size_t> sparse_;
};

// Reads every run, parsing each distinct fingerprint document once.
void read_runs(Database& db, history::History& h) {
    std::unordered_map<std::string, std::size_t> fingerprints;  // document -> index
    auto s = db.prepare(
        fmt::format("SELECT seq, {}, fingerprint_key, fingerprint FROM runs ORDER BY started, seq",
                    kRunColumns));
    constexpr int key_column = 1 + kRunColumnCount;
    while (s.step()) {
        history::Run run;
        run.handle = s.int64(0);
        auto columns = read_run_columns(s, 1);
        run.id = std::move(columns.id);
        run.started = std::move(columns.started);
        run.git = std::move(columns.git);
        run.recorded_by = std::move(columns.recorded_by);
        std::string document(s.text(key_column + 1));
        auto [it, added] = fingerprints.emplace(std::move(document), h.fingerprints.size());
        if (added) {
            try {
                h.fingerprints.push_back(
                    fingerprint_from_json(nlohmann::json::parse(it->first),
                                          fmt::format("{} run {}", db.path().string(), run.id)));
            } catch (const std::exception& e) {
                throw EnvironmentError(
                    fmt::format("history database {}: the fingerprint of run {} cannot be "
                                "read ({})",
                                db.path().string(), run.id, e.what()),
                    "the file is damaged; move it aside or pass --db with another path");
            }
            h.keys.emplace_back(s.text(key_column));
        }
        run.fingerprint = it->second;
        h.runs.push_back(std::move(run));
    }
}

RunIndex index_runs(const history::History& h) {
    RunIndex index;
    for (std::size_t i = 0; i < h.runs.size(); ++i)
        index.add(h.runs[i].handle, i);
    index.finish();
    return index;
}

// Hands the series of the rows of `s` (a results query ordered by name) that `keep` accepts
// to `visit`, one at a time, in one buffer reused for the next.
void read_series(Statement& s, const RunIndex& index, const history::NameFilter& keep,
                 std::size_t limit, const history::SeriesVisitor& visit) {
    history::Series series;
    bool open = false;    // a series has been started
    bool wanted = false;  // and `keep` accepted it
    const auto close = [&] {
        if (!wanted) return;
        history::finish_series(series, limit);
        visit(series);
    };
    while (s.step()) {
        const std::string_view name = s.text(0);
        if (!open || series.name != name) {
            close();
            open = true;
            series.name.assign(name);
            series.results.clear();
            wanted = !keep || keep(name);
        }
        if (!wanted) continue;
        const auto run = index.find(s.int64(1));
        if (!run) continue;  // a result without its run (never written so)
        history::Result r;
        r.run = *run;
        r.position = s.int64(2);
        const auto status = s.text(3);
        r.status = status == "ok" ? BenchStatus::Ok
                                  : bench_status_from(status).value_or(BenchStatus::Failed);
        if (const auto c = s.optional_int64(4); c && r.status == BenchStatus::Ok) {
            r.cost = static_cast<std::uint64_t>(*c);
        }
        if (const auto ir = s.optional_int64(5)) r.ir = static_cast<std::uint64_t>(*ir);
        series.results.push_back(r);
    }
    close();
}

// SQLite's reader of stored results: the numbers from their columns, the functions from
// result_functions, each statement prepared once and each symbol read once.
class SqliteResultReader final : public history::StoredResultReader {
  public:
    explicit SqliteResultReader(Database& db)
        : numbers_(db.prepare(
              "SELECT name, tool, status, cost, ir, i1mr, ilmr, dr, d1mr, dlmr, dw, d1mw, dlmw, "
              "bc, bcm, bi, bim, l1_hits, ll_hits, ram_hits FROM results WHERE run = ?1 AND "
              "position = ?2")),
          functions_(db) {}
    std::optional<BenchmarkResult> read(const history::Run& run, std::int64_t position) override;

  private:
    Statement numbers_;
    FunctionReader functions_;
};

std::optional<BenchmarkResult> SqliteResultReader::read(const history::Run& run,
                                                        std::int64_t position) {
    auto& s = numbers_;
    s.reset();
    s.bind(1, run.handle).bind(2, position);
    if (!s.step()) return std::nullopt;
    BenchmarkResult b;
    b.name = std::string(s.text(0));
    b.tool = std::string(s.text(1));
    b.status = bench_status_from(s.text(2)).value_or(BenchStatus::Failed);
    b.cost = static_cast<std::uint64_t>(s.optional_int64(3).value_or(0));
    constexpr int kFirstEvent = 4;  // the event columns follow metrics::kEvents
    for (const auto& e : metrics::kEvents) {
        const int column = kFirstEvent + static_cast<int>(metrics::index_of(e.id));
        if (const auto v = s.optional_int64(column)) {
            b.events.set(e.id, static_cast<std::uint64_t>(*v));
        }
    }
    constexpr int kFirstDerived = kFirstEvent + static_cast<int>(metrics::kEventCount);
    const auto l1 = s.optional_int64(kFirstDerived);
    const auto ll = s.optional_int64(kFirstDerived + 1);
    const auto ram = s.optional_int64(kFirstDerived + 2);
    if (l1 && ll && ram) {
        b.derived =
            metrics::Derived{static_cast<std::uint64_t>(*l1), static_cast<std::uint64_t>(*ll),
                             static_cast<std::uint64_t>(*ram)};
    }
    b.functions = functions_.result(run.handle, position);
    return b;
}

}  // namespace

history::History SqliteHistory::load_runs() {
    history::History h;
    read_runs(db_, h);
    return h;
}

void SqliteHistory::scan_series(const history::History& h, const history::NameFilter& keep,
                                std::size_t limit, const history::SeriesVisitor& visit) {
    auto s = db_.prepare(kAllResults);
    read_series(s, index_runs(h), keep, limit, visit);
}

void SqliteHistory::scan_series(const history::History& h, std::string_view name, std::size_t limit,
                                const history::SeriesVisitor& visit) {
    auto s = db_.prepare(kOneResults);
    s.bind(1, name);
    read_series(s, index_runs(h), {}, limit, visit);
}

std::vector<std::string> SqliteHistory::benchmark_names() {
    std::vector<std::string> out;
    auto s = db_.prepare("SELECT DISTINCT name FROM results ORDER BY name");
    while (s.step())
        out.emplace_back(s.text(0));
    return out;
}

std::unique_ptr<history::StoredResultReader> SqliteHistory::result_reader() {
    return std::make_unique<SqliteResultReader>(db_);
}

}  // namespace cgbench::sqlite_store
