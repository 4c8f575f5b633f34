#include "access/memory_history.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <unordered_map>

#include "base/errors.hpp"
#include "core/result_json.hpp"
#include "util/strings.hpp"

namespace cgbench::access {

namespace {

using Stored = MemoryHistory::Stored;

// `run` as a SQLite history reads it back: what its result file gives (names that are not
// UTF-8 carry U+FFFD), each result with its kept functions.
RunResult as_stored(const RunResult& run) {
    auto out = run_from_json(nlohmann::json::parse(dump_json(to_json(run), -1)), "memory:");
    for (auto& b : out.benchmarks)
        history::keep_as_stored(b);
    return out;
}

bool matches(const Stored& s, const history::RunFilter& f) {
    const auto& git = s.run.git;
    return (!f.id || s.run.id == *f.id) && (!f.commit || git.commit == *f.commit) &&
           (!f.branch || git.branch == *f.branch) &&
           (!f.fingerprint_key || s.key == *f.fingerprint_key) &&
           !(f.clean_only && git.dirty.value_or(false));
}

// What a series holds of `b`: status, cost when ok, Ir when measured.
history::Result series_entry(const BenchmarkResult& b, std::size_t run, std::size_t position) {
    history::Result r;
    r.run = run;
    r.position = static_cast<std::int64_t>(position);
    r.status = b.status;
    if (b.status == BenchStatus::Ok) r.cost = b.cost;
    if (b.events.has(metrics::Event::Ir)) r.ir = b.events.get(metrics::Event::Ir);
    return r;
}

class MemoryBatch final : public history::RunBatch {
  public:
    explicit MemoryBatch(MemoryHistory::Runs& runs) : runs_(runs) {}

    std::optional<history::StoredRunInfo> find(std::string_view id) override {
        for (const auto* list : {&runs_.runs, &added_}) {
            for (const auto& s : *list) {
                if (s.run.id == id)
                    return history::StoredRunInfo{s.run.started, s.run.benchmarks.size()};
            }
        }
        return std::nullopt;
    }
    void commit() override {
        for (auto& s : added_) {
            s.handle = runs_.next_handle++;
            runs_.runs.push_back(std::move(s));
        }
        added_.clear();
    }

  protected:
    void write(const RunResult& run) override {
        added_.push_back({as_stored(run), 0, run.fingerprint.comparison_key()});
    }

  private:
    MemoryHistory::Runs& runs_;
    std::vector<Stored> added_;
};

class MemoryResultReader final : public history::StoredResultReader {
  public:
    explicit MemoryResultReader(MemoryHistory& history) : history_(history) {}
    // What a SQLite history keeps in columns, and the kept functions.
    std::optional<BenchmarkResult> read(const history::Run& run, std::int64_t position) override {
        const auto stored = history_.load_run(run.handle, {}, history::SourceLines::Skip);
        if (!stored || position < 0 ||
            static_cast<std::size_t>(position) >= stored->benchmarks.size()) {
            return std::nullopt;
        }
        const auto& b = stored->benchmarks[static_cast<std::size_t>(position)];
        BenchmarkResult out;
        out.name = b.name;
        out.tool = b.tool;
        out.status = b.status;
        out.cost = b.status == BenchStatus::Ok ? b.cost : 0;
        out.events = b.events;
        out.derived = b.derived;
        out.functions = b.functions;
        return out;
    }

  private:
    MemoryHistory& history_;
};

}  // namespace

std::unique_ptr<history::HistoryBackend> MemoryHistory::open(const std::string& location,
                                                             history::Access) {
    if (!location.empty()) {
        throw UsageError(fmt::format("--db memory:{}: memory: takes nothing after the colon",
                                     util::printable(location)),
                         "write --db memory: for a history that lasts while cgbench runs");
    }
    return std::make_unique<MemoryHistory>();
}

MemoryHistory::MemoryHistory() : runs_(std::make_shared<Runs>()) {}

std::unique_ptr<MemoryHistory> MemoryHistory::share() const {
    return std::unique_ptr<MemoryHistory>(new MemoryHistory(runs_));
}

const Stored* MemoryHistory::find(std::int64_t handle) const {
    for (const auto& s : runs_->runs) {
        if (s.handle == handle) return &s;
    }
    return nullptr;
}

std::vector<const Stored*> MemoryHistory::newest_first() const {
    std::vector<const Stored*> out;
    for (const auto& s : runs_->runs)
        out.push_back(&s);
    std::sort(out.begin(), out.end(), [](const Stored* a, const Stored* b) {
        return std::tie(b->run.started, b->handle) < std::tie(a->run.started, a->handle);
    });
    return out;
}

std::unique_ptr<history::RunBatch> MemoryHistory::begin_batch() {
    return std::make_unique<MemoryBatch>(*runs_);
}

history::RemovedRows MemoryHistory::remove_runs(const std::vector<history::Run>& runs) {
    std::set<std::int64_t> handles;
    for (const auto& r : runs)
        handles.insert(r.handle);
    history::RemovedRows out;
    auto& all = runs_->runs;
    const auto removed = std::stable_partition(
        all.begin(), all.end(), [&](const Stored& s) { return handles.count(s.handle) == 0; });
    for (auto it = removed; it != all.end(); ++it) {
        ++out.runs;
        out.results += it->run.benchmarks.size();
        for (const auto& b : it->run.benchmarks)
            out.functions += b.functions.size();
    }
    all.erase(removed, all.end());
    return out;
}

std::vector<history::FoundRun> MemoryHistory::find_runs(const history::RunFilter& filter) {
    std::vector<history::FoundRun> out;
    for (const auto* s : newest_first()) {
        if (out.size() == filter.limit) break;
        if (matches(*s, filter))
            out.push_back(
                {s->run.id, s->run.started, s->run.git, s->run.recorded_by, s->key, s->handle});
    }
    return out;
}

std::optional<RunResult> MemoryHistory::load_run(std::int64_t handle,
                                                 const history::NameFilter& only,
                                                 history::RunParts parts) {
    const auto* s = find(handle);
    if (s == nullptr) return std::nullopt;
    RunResult out = s->run;
    if (only) {
        auto& b = out.benchmarks;
        b.erase(std::remove_if(b.begin(), b.end(),
                               [&only](const BenchmarkResult& r) { return !only(r.name); }),
                b.end());
    }
    history::drop_unread(out.benchmarks, parts);
    return out;
}

history::History MemoryHistory::load_runs() {
    auto order = newest_first();
    std::reverse(order.begin(), order.end());
    history::History h;
    std::map<std::string, std::size_t> fingerprints;  // document -> index
    for (const auto* s : order) {
        auto [it, added] =
            fingerprints.emplace(dump_json(to_json(s->run.fingerprint), -1), h.fingerprints.size());
        if (added) {
            h.fingerprints.push_back(s->run.fingerprint);
            h.keys.push_back(s->key);
        }
        h.runs.push_back(
            {s->run.id, s->run.started, s->run.git, s->run.recorded_by, it->second, s->handle});
    }
    return h;
}

void MemoryHistory::scan_series(const history::History& h, const history::NameFilter& keep,
                                std::size_t limit, const history::SeriesVisitor& visit) {
    std::unordered_map<std::int64_t, std::size_t> index;  // handle -> index into h.runs
    for (std::size_t i = 0; i < h.runs.size(); ++i)
        index.emplace(h.runs[i].handle, i);
    std::map<std::string, history::Series> series;  // by name, in byte order
    for (const auto& s : runs_->runs) {
        const auto run = index.find(s.handle);
        if (run == index.end()) continue;  // recorded after `h` was read
        for (std::size_t p = 0; p < s.run.benchmarks.size(); ++p) {
            const auto& b = s.run.benchmarks[p];
            if (keep && !keep(b.name)) continue;
            auto& entry = series[b.name];
            entry.name = b.name;
            entry.results.push_back(series_entry(b, run->second, p));
        }
    }
    for (auto& [name, s] : series) {
        history::finish_series(s, limit);
        visit(s);
    }
}

void MemoryHistory::scan_series(const history::History& h, std::string_view name, std::size_t limit,
                                const history::SeriesVisitor& visit) {
    scan_series(
        h, [name](std::string_view n) { return n == name; }, limit, visit);
}

std::unique_ptr<history::StoredResultReader> MemoryHistory::result_reader() {
    return std::make_unique<MemoryResultReader>(*this);
}

std::vector<std::string> MemoryHistory::benchmark_names() {
    std::set<std::string> names;
    for (const auto& s : runs_->runs) {
        for (const auto& b : s.run.benchmarks)
            names.insert(b.name);
    }
    return {names.begin(), names.end()};
}

std::vector<history::RunRow> MemoryHistory::runs(std::size_t limit) {
    std::vector<history::RunRow> out;
    for (const auto* s : newest_first()) {
        if (out.size() == limit) break;
        const auto& b = s->run.benchmarks;
        const auto failed = std::count_if(b.begin(), b.end(), [](const BenchmarkResult& r) {
            return r.status != BenchStatus::Ok;
        });
        out.push_back({s->run.id, s->run.started, s->run.git, s->run.recorded_by, b.size(),
                       static_cast<std::size_t>(failed), s->key});
    }
    return out;
}

std::size_t MemoryHistory::run_count() {
    return runs_->runs.size();
}

}  // namespace cgbench::access
