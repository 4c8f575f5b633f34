// PgHistory's readers: runs found by their facts, a run read back whole through the result
// file's own reader, every run with each distinct fingerprint parsed once, the series from
// the name index, a step's stored result, the listings.

#include <fmt/format.h>

#include <nlohmann/json.hpp>
#include <unordered_map>

#include "base/errors.hpp"
#include "core/result_json.hpp"
#include "core/result_reader.hpp"
#include "postgres_store/pg_history.hpp"
#include "postgres_store/pg_lines.hpp"

namespace cgbench::postgres_store {

using json = nlohmann::json;

namespace {

// The columns every listing reads first, in this order.
constexpr std::string_view kRunColumns = "seq, id, started, git, recorded_by, fingerprint_key";

// A stored document: a problem with it is the database's (exit 4).
json parse_stored(const Connection& c, std::string_view text, std::string_view what) {
    try {
        return json::parse(text);
    } catch (const json::parse_error&) {
        throw EnvironmentError(
            fmt::format("history database {}: {} is not valid JSON", c.shown(), what),
            "the database was changed by something other than cgbench");
    }
}

RunResult read_document(const json& doc, const std::string& source) {
    try {
        return run_from_json(doc, source);
    } catch (const UsageError& e) {
        throw EnvironmentError(e.what(),
                               "the history database holds a run this cgbench cannot read; "
                               "pass --db with another database");
    }
}

// The run columns of kRunColumns at `row`, from column `first`.
history::FoundRun read_run(const Connection& c, const PgResult& r, int row) {
    history::FoundRun out;
    out.handle = r.int64(row, 0);
    out.id = std::string(r.text(row, 1));
    out.started = std::string(r.text(row, 2));
    out.git = git_from_json(parse_stored(c, r.text(row, 3), "a run's git facts"));
    out.recorded_by = std::string(r.text(row, 4));
    out.fingerprint_key = std::string(r.text(row, 5));
    return out;
}

// Builds the series of the rows of a results query (name, run, position, status, cost, ir;
// ordered by name, run) that `keep` accepts, handing each to `visit` when it is complete.
class SeriesReader {
  public:
    SeriesReader(const history::History& h, const history::NameFilter& keep, std::size_t limit,
                 const history::SeriesVisitor& visit)
        : keep_(keep), limit_(limit), visit_(visit) {
        index_.reserve(h.runs.size());
        for (std::size_t i = 0; i < h.runs.size(); ++i)
            index_.emplace(h.runs[i].handle, i);
    }
    // The rows of `r`.
    void add(const PgResult& r) {
        for (int row = 0; row < r.rows(); ++row)
            add(r, row);
    }
    // Hands the last series over.
    void finish() {
        if (!open_ || !wanted_) return;
        history::finish_series(series_, limit_);
        visit_(series_);
        open_ = false;
    }

  private:
    void add(const PgResult& r, int row) {
        const std::string_view name = r.text(row, 0);
        if (!open_ || series_.name != name) {
            finish();
            open_ = true;
            series_.name.assign(name);
            series_.results.clear();
            wanted_ = !keep_ || keep_(name);
        }
        if (!wanted_) return;
        const auto run = index_.find(r.int64(row, 1));
        if (run == index_.end()) return;  // recorded after `h` was read
        history::Result res;
        res.run = run->second;
        res.position = r.int64(row, 2);
        res.status = bench_status_from(r.text(row, 3)).value_or(BenchStatus::Failed);
        if (const auto cost = r.optional_int64(row, 4); cost && res.status == BenchStatus::Ok) {
            res.cost = static_cast<std::uint64_t>(*cost);
        }
        if (const auto ir = r.optional_int64(row, 5)) res.ir = static_cast<std::uint64_t>(*ir);
        series_.results.push_back(res);
    }

    history::NameFilter keep_;
    std::size_t limit_;
    const history::SeriesVisitor& visit_;
    std::unordered_map<std::int64_t, std::size_t> index_;
    history::Series series_;
    bool open_ = false;
    bool wanted_ = false;
};

class PgResultReader final : public history::StoredResultReader {
  public:
    explicit PgResultReader(PgHistory& h) : h_(h) {}
    // What a SQLite history keeps in columns, and the kept functions.
    std::optional<BenchmarkResult> read(const history::Run& run, std::int64_t position) override {
        auto& c = h_.connection();
        const auto r = c.exec(
            "SELECT data FROM cgbench.results WHERE run = $1 AND position = $2 AND project = $3",
            {std::to_string(run.handle), std::to_string(position),
             std::to_string(h_.project_id())});
        if (r.rows() == 0) return std::nullopt;
        auto b = read_known_benchmark(r.text(0, 0));
        if (!b) {
            json doc{{"schema", kResultSchema},
                     {"run",
                      {{"id", run.id}, {"started", run.started}, {"fingerprint", json::object()}}},
                     {"benchmarks", json::array({parse_stored(c, r.text(0, 0), "a result")})}};
            b = std::move(read_document(doc, h_.name()).benchmarks.front());
        }
        BenchmarkResult out;
        out.name = b->name;
        out.tool = b->tool;
        out.status = b->status;
        out.cost = b->status == BenchStatus::Ok ? b->cost : 0;
        out.events = b->events;
        out.derived = b->derived;
        out.functions = b->functions;
        return out;
    }

  private:
    PgHistory& h_;
};

}  // namespace

std::vector<history::FoundRun> PgHistory::find_runs(const history::RunFilter& filter) {
    std::string where;
    std::vector<Param> params = {std::to_string(project_id_)};
    const auto add = [&](const std::optional<std::string>& value, std::string_view column) {
        if (!value) return;
        params.push_back(*value);
        where += fmt::format(" AND {} = ${}", column, params.size());
    };
    add(filter.id, "id");
    add(filter.commit, "git_commit");
    add(filter.branch, "git_branch");
    add(filter.fingerprint_key, "fingerprint_key");
    if (filter.clean_only) where += " AND git_dirty IS NOT TRUE";
    if (filter.limit != SIZE_MAX)
        where += fmt::format(" ORDER BY started DESC, seq DESC LIMIT {}", filter.limit);
    else
        where += " ORDER BY started DESC, seq DESC";
    const auto r =
        c_.exec(fmt::format("SELECT {} FROM cgbench.runs WHERE project = $1{}", kRunColumns, where),
                params);
    std::vector<history::FoundRun> out;
    for (int i = 0; i < r.rows(); ++i)
        out.push_back(read_run(c_, r, i));
    return out;
}

std::optional<RunResult> PgHistory::load_run(std::int64_t handle, const history::NameFilter& only) {
    const std::vector<Param> params = {std::to_string(handle), std::to_string(project_id_)};
    const auto run =
        c_.exec("SELECT id, document FROM cgbench.runs WHERE seq = $1 AND project = $2", params);
    if (run.rows() == 0) return std::nullopt;
    json doc = parse_stored(c_, run.text(0, 1), "a run's document");
    doc["benchmarks"] = json::array();
    const std::string source = fmt::format("{} run {}", name(), run.text(0, 0));
    RunResult out = read_document(doc, source);
    const auto results = c_.exec(
        "SELECT name, data, position FROM cgbench.results WHERE run = $1 AND project = $2 "
        "ORDER BY position",
        params);
    std::vector<std::int64_t> positions;
    for (int i = 0; i < results.rows(); ++i) {
        if (only && !only(results.text(i, 0))) continue;
        positions.push_back(results.int64(i, 2));
        // The fast reader, or, when it declines, the result file's own on the run document.
        if (auto b = read_known_benchmark(results.text(i, 1))) {
            out.benchmarks.push_back(std::move(*b));
            continue;
        }
        doc["benchmarks"] = json::array({parse_stored(c_, results.text(i, 1), "a result")});
        out.benchmarks.push_back(std::move(read_document(doc, source).benchmarks.front()));
    }
    if (schema_version_ >= 2 && !positions.empty()) {
        attach_lines(c_, handle, positions, out.benchmarks);
    }
    return out;
}

history::History PgHistory::load_runs() {
    const auto r =
        c_.exec(fmt::format("SELECT {}, fingerprint FROM cgbench.runs WHERE project = $1 "
                            "ORDER BY started, seq",
                            kRunColumns),
                {std::to_string(project_id_)});
    history::History h;
    std::unordered_map<std::string_view, std::size_t> fingerprints;  // document -> index
    h.runs.reserve(static_cast<std::size_t>(r.rows()));
    for (int i = 0; i < r.rows(); ++i) {
        auto found = read_run(c_, r, i);
        const auto document = r.text(i, 6);
        auto [it, added] = fingerprints.emplace(document, h.fingerprints.size());
        if (added) {
            try {
                h.fingerprints.push_back(
                    fingerprint_from_json(json::parse(document), name() + " run " + found.id));
            } catch (const std::exception& e) {
                throw EnvironmentError(fmt::format("history database {}: the fingerprint of run "
                                                   "{} cannot be read ({})",
                                                   name(), found.id, e.what()),
                                       "the database was changed by something other than cgbench");
            }
            h.keys.push_back(found.fingerprint_key);
        }
        h.runs.push_back({std::move(found.id), std::move(found.started), std::move(found.git),
                          std::move(found.recorded_by), it->second, found.handle});
    }
    return h;
}

void PgHistory::scan_series(const history::History& h, const history::NameFilter& keep,
                            std::size_t limit, const history::SeriesVisitor& visit) {
    SeriesReader series(h, keep, limit, visit);
    c_.stream(
        "SELECT name, run, position, status, cost, ir FROM cgbench.results WHERE project = $1 "
        "ORDER BY name, run",
        {std::to_string(project_id_)}, [&series](const PgResult& r) { series.add(r); });
    series.finish();
}

void PgHistory::scan_series(const history::History& h, std::string_view name, std::size_t limit,
                            const history::SeriesVisitor& visit) {
    SeriesReader series(h, {}, limit, visit);
    c_.stream(
        "SELECT name, run, position, status, cost, ir FROM cgbench.results "
        "WHERE project = $1 AND name = $2 ORDER BY run",
        {std::to_string(project_id_), std::string(name)},
        [&series](const PgResult& r) { series.add(r); });
    series.finish();
}

std::unique_ptr<history::StoredResultReader> PgHistory::result_reader() {
    return std::make_unique<PgResultReader>(*this);
}

std::vector<std::string> PgHistory::benchmark_names() {
    const auto r =
        c_.exec("SELECT DISTINCT name FROM cgbench.results WHERE project = $1 ORDER BY name",
                {std::to_string(project_id_)});
    std::vector<std::string> out;
    for (int i = 0; i < r.rows(); ++i)
        out.emplace_back(r.text(i, 0));
    return out;
}

std::vector<history::RunRow> PgHistory::runs(std::size_t limit) {
    const auto r = c_.exec(
        fmt::format("SELECT {}, (SELECT COUNT(*) FROM cgbench.results WHERE run = u.seq), "
                    "(SELECT COUNT(*) FROM cgbench.results WHERE run = u.seq AND status != 'ok') "
                    "FROM cgbench.runs u WHERE project = $1 ORDER BY started DESC, seq DESC "
                    "LIMIT $2",
                    kRunColumns),
        {std::to_string(project_id_), std::to_string(std::min<std::size_t>(limit, INT64_MAX))});
    std::vector<history::RunRow> out;
    for (int i = 0; i < r.rows(); ++i) {
        auto found = read_run(c_, r, i);
        out.push_back({std::move(found.id), std::move(found.started), std::move(found.git),
                       std::move(found.recorded_by), static_cast<std::size_t>(r.int64(i, 6)),
                       static_cast<std::size_t>(r.int64(i, 7)), std::move(found.fingerprint_key)});
    }
    return out;
}

}  // namespace cgbench::postgres_store
