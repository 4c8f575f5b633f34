// HistoryStore's readers for history policy: every run with its fingerprint, and series
// scanned from the name index in one pass.

#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <unordered_map>

#include "base/errors.hpp"
#include "core/result_json.hpp"
#include "store/function_store.hpp"
#include "store/history_store.hpp"

namespace cgbench::store {

namespace {

constexpr std::string_view kAllRuns =
    "SELECT seq, id, started, git_commit, git_branch, git_dirty, fingerprint_key, fingerprint "
    "FROM runs ORDER BY started, seq";

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
            if (seq < 0 || static_cast<std::size_t>(seq) >= dense_.size()) sparse_.emplace(seq, index);
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
    auto s = db.prepare(kAllRuns);
    while (s.step()) {
        history::Run run;
        run.handle = s.int64(0);
        run.id = std::string(s.text(1));
        run.started = std::string(s.text(2));
        run.git.commit = s.optional_text(3);
        run.git.branch = s.optional_text(4);
        if (const auto d = s.optional_int64(5)) run.git.dirty = *d != 0;
        std::string document(s.text(7));
        auto [it, added] = fingerprints.emplace(std::move(document), h.fingerprints.size());
        if (added) {
            try {
                h.fingerprints.push_back(fingerprint_from_json(
                    nlohmann::json::parse(it->first),
                    fmt::format("{} run {}", db.path().string(), run.id)));
            } catch (const std::exception& e) {
                throw EnvironmentError(
                    fmt::format("history database {}: the fingerprint of run {} cannot be "
                                "read ({})",
                                db.path().string(), run.id, e.what()),
                    "the file is damaged; move it aside or pass --db with another path");
            }
            h.keys.emplace_back(s.text(6));
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

// Orders a series as History::runs and keeps its last `limit` results.
void finish_series(history::Series& s, std::size_t limit) {
    const auto by_run = [](const history::Result& a, const history::Result& b) {
        return a.run < b.run;
    };
    if (!std::is_sorted(s.results.begin(), s.results.end(), by_run)) {
        std::stable_sort(s.results.begin(), s.results.end(), by_run);
    }
    if (s.results.size() > limit) {
        s.results.erase(s.results.begin(),
                        s.results.end() - static_cast<std::ptrdiff_t>(limit));
    }
}

// Hands the series of the rows of `s` (a results query ordered by name) that `keep` accepts
// to `visit`, one at a time, in one buffer reused for the next.
void read_series(Statement& s, const RunIndex& index,
                 const std::function<bool(std::string_view)>& keep, std::size_t limit,
                 const std::function<void(const history::Series&)>& visit) {
    history::Series series;
    bool open = false;    // a series has been started
    bool wanted = false;  // and `keep` accepted it
    const auto close = [&] {
        if (!wanted) return;
        finish_series(series, limit);
        visit(series);
    };
    while (s.step()) {
        const std::string_view name = s.text(0);
        if (!open || series.name != name) {
            close();
            open = true;
            series.name.assign(name);
            series.results.clear();
            wanted = keep(name);
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

}  // namespace

history::History HistoryStore::load_runs() {
    history::History h;
    read_runs(db_, h);
    return h;
}

void HistoryStore::scan_series(const history::History& h,
                               const std::function<bool(std::string_view)>& keep,
                               std::size_t limit, const SeriesVisitor& visit) {
    auto s = db_.prepare(kAllResults);
    read_series(s, index_runs(h), keep, limit, visit);
}

void HistoryStore::scan_series(const history::History& h, std::string_view name,
                               std::size_t limit, const SeriesVisitor& visit) {
    auto s = db_.prepare(kOneResults);
    s.bind(1, name);
    read_series(s, index_runs(h), [](std::string_view) { return true; }, limit, visit);
}

history::History HistoryStore::load_history(const std::function<bool(std::string_view)>& keep,
                                            std::size_t limit) {
    auto h = load_runs();
    scan_series(h, keep, limit, [&](const history::Series& s) { h.series.push_back(s); });
    return h;
}

history::History HistoryStore::load_history(std::string_view name, std::size_t limit) {
    auto h = load_runs();
    scan_series(h, name, limit, [&](const history::Series& s) { h.series.push_back(s); });
    return h;
}

std::vector<std::string> HistoryStore::benchmark_names() {
    std::vector<std::string> out;
    auto s = db_.prepare("SELECT DISTINCT name FROM results ORDER BY name");
    while (s.step())
        out.emplace_back(s.text(0));
    return out;
}

std::optional<BenchmarkResult> HistoryStore::stored_result(const history::Run& run,
                                                           std::int64_t position) {
    return StoredResultReader(*this).read(run, position);
}

StoredResultReader::StoredResultReader(HistoryStore& store)
    : numbers_(store.db_.prepare(
          "SELECT name, tool, status, cost, ir, i1mr, ilmr, dr, d1mr, dlmr, dw, d1mw, dlmw, bc, "
          "bcm, bi, bim, l1_hits, ll_hits, ram_hits FROM results WHERE run = ?1 AND position = "
          "?2")),
      functions_(store.db_) {}

std::optional<BenchmarkResult> StoredResultReader::read(const history::Run& run,
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
        b.derived = metrics::Derived{static_cast<std::uint64_t>(*l1),
                                     static_cast<std::uint64_t>(*ll),
                                     static_cast<std::uint64_t>(*ram)};
    }
    b.functions = functions_.result(run.handle, position);
    return b;
}

}  // namespace cgbench::store
