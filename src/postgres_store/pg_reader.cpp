// PgHistory's readers: runs found by their facts, a run read back whole through the result
// file's own reader, every run with each distinct fingerprint parsed once, the series from
// the name index, a step's stored result, the listings.

#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <unordered_map>

#include "base/errors.hpp"
#include "core/result_json.hpp"
#include "core/result_reader.hpp"
#include "postgres_store/pg_copy.hpp"
#include "postgres_store/pg_functions.hpp"
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

// The series of a project: its results by name, then run, from the covering index
// results_by_name, for copy_out (values inlined: COPY takes no parameters).
constexpr std::string_view kSelectSeries =
    "SELECT name, run, position, status, cost, ir FROM cgbench.results WHERE project = {}{} "
    "ORDER BY name, run";

// Builds the series of the rows of kSelectSeries that `keep` accepts, handing each to `visit`
// when it is complete.
class SeriesReader {
  public:
    SeriesReader(const history::History& h, const history::NameFilter& keep, std::size_t limit,
                 const history::SeriesVisitor& visit)
        : keep_(keep), limit_(limit), visit_(visit) {
        index_.reserve(h.runs.size());
        for (std::size_t i = 0; i < h.runs.size(); ++i)
            index_.emplace(h.runs[i].handle, i);
    }
    // The next row.
    void add(const CopyRow& row) {
        const std::string_view name = row.text(0);
        if (!open_ || series_.name != name) {
            finish();
            open_ = true;
            series_.name.assign(name);
            series_.results.clear();
            wanted_ = !keep_ || keep_(name);
        }
        if (!wanted_) return;
        const auto run = index_.find(row.int64(1).value_or(0));
        if (run == index_.end()) return;  // recorded after `h` was read
        history::Result res;
        res.run = run->second;
        res.position = row.int64(2).value_or(0);
        res.status = bench_status_from(row.text(3)).value_or(BenchStatus::Failed);
        if (const auto cost = row.int64(4); cost && res.status == BenchStatus::Ok) {
            res.cost = static_cast<std::uint64_t>(*cost);
        }
        if (const auto ir = row.int64(5)) res.ir = static_cast<std::uint64_t>(*ir);
        series_.results.push_back(res);
    }
    // Hands the last series over.
    void finish() {
        if (!open_ || !wanted_) return;
        history::finish_series(series_, limit_);
        visit_(series_);
        open_ = false;
    }

  private:
    history::NameFilter keep_;
    std::size_t limit_;
    const history::SeriesVisitor& visit_;
    std::unordered_map<std::int64_t, std::size_t> index_;
    history::Series series_;
    bool open_ = false;
    bool wanted_ = false;
};

// The results at (run, position) pairs given as two arrays, each with its index among them
// (formatted with the function list's column).
constexpr std::string_view kSelectResultsAt = R"sql(
SELECT w.i, r.data, {}
FROM unnest($2::bigint[], $3::integer[]) WITH ORDINALITY AS w (run, position, i)
JOIN cgbench.results r ON r.run = w.run AND r.position = w.position AND r.project = $1)sql";

// The results read_all asks for in one query (a thousand documents are ~2 MB).
constexpr std::size_t kResultsAtOnce = 1000;

class PgResultReader final : public history::StoredResultReader {
  public:
    explicit PgResultReader(PgHistory& h) : h_(h) {}
    // What a SQLite history keeps in columns, and the kept functions.
    std::optional<BenchmarkResult> read(const history::Run& run, std::int64_t position) override {
        const auto all = read_all({{&run, position}});
        return all.front();
    }
    // kResultsAtOnce at a time.
    std::vector<std::optional<BenchmarkResult>> read_all(
        const std::vector<history::StoredResultAt>& wanted) override {
        std::vector<std::optional<BenchmarkResult>> out(wanted.size());
        for (std::size_t first = 0; first < wanted.size(); first += kResultsAtOnce) {
            const auto last = std::min(wanted.size(), first + kResultsAtOnce);
            std::vector<std::int64_t> runs, positions;
            for (std::size_t i = first; i < last; ++i) {
                runs.push_back(wanted[i].run->handle);
                positions.push_back(wanted[i].position);
            }
            const auto r = h_.connection().exec(
                fmt::format(kSelectResultsAt, h_.function_list_column()),
                {std::to_string(h_.project_id()), int_array(runs), int_array(positions)});
            for (int row = 0; row < r.rows(); ++row) {
                const auto i = first + static_cast<std::size_t>(r.int64(row, 0) - 1);
                out[i] = numbers_of(*wanted[i].run, r.text(row, 1));
                if (!r.null(row, 2))
                    out[i]->functions = read_function_list(h_.connection(), r.text(row, 2));
            }
        }
        return out;
    }

  private:
    // The numbers and functions of the stored document `data` of a result of `run`.
    BenchmarkResult numbers_of(const history::Run& run, std::string_view data) {
        auto b = read_known_benchmark(data);
        if (!b) {
            json doc{
                {"schema", kResultSchema},
                {"run",
                 {{"id", run.id}, {"started", run.started}, {"fingerprint", json::object()}}},
                {"benchmarks", json::array({parse_stored(h_.connection(), data, "a result")})}};
            b = std::move(read_document(doc, h_.name()).benchmarks.front());
        }
        BenchmarkResult out;
        out.name = std::move(b->name);
        out.tool = std::move(b->tool);
        out.status = b->status;
        out.cost = b->status == BenchStatus::Ok ? b->cost : 0;
        out.events = b->events;
        out.derived = b->derived;
        out.functions = std::move(b->functions);
        return out;
    }

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

std::optional<RunResult> PgHistory::load_run(std::int64_t handle, const history::NameFilter& only,
                                             history::RunParts parts) {
    const std::vector<Param> params = {std::to_string(handle), std::to_string(project_id_)};
    const auto run =
        c_.exec("SELECT id, document FROM cgbench.runs WHERE seq = $1 AND project = $2", params);
    if (run.rows() == 0) return std::nullopt;
    json doc = parse_stored(c_, run.text(0, 1), "a run's document");
    doc["benchmarks"] = json::array();
    const std::string source = fmt::format("{} run {}", name(), run.text(0, 0));
    RunResult out = read_document(doc, source);
    // With a name filter, the names first, then only the results it accepts: `compare`,
    // reading the functions of the few benchmarks it gates, reads nothing else.
    std::vector<Param> chosen = params;
    if (only) {
        const auto names = c_.exec(
            "SELECT position, name FROM cgbench.results WHERE run = $1 AND project = $2 "
            "ORDER BY position",
            params);
        std::vector<std::int64_t> accepted;
        for (int i = 0; i < names.rows(); ++i) {
            if (only(names.text(i, 1))) accepted.push_back(names.int64(i, 0));
        }
        if (accepted.empty()) return out;
        chosen.emplace_back(int_array(accepted));
    }
    const bool functions = parts.functions == history::KeptFunctions::Read;
    const auto results = c_.exec(
        fmt::format("SELECT name, data, position, {} FROM cgbench.results WHERE run = $1 AND "
                    "project = $2{} ORDER BY position",
                    functions ? function_list_column() : "NULL",
                    only ? " AND position = ANY($3::integer[])" : ""),
        chosen);
    std::vector<std::int64_t> positions;
    for (int i = 0; i < results.rows(); ++i) {
        positions.push_back(results.int64(i, 2));
        // The fast reader, or, when it declines, the result file's own on the run document.
        if (auto b = read_known_benchmark(results.text(i, 1))) {
            out.benchmarks.push_back(std::move(*b));
        } else {
            doc["benchmarks"] = json::array({parse_stored(c_, results.text(i, 1), "a result")});
            out.benchmarks.push_back(std::move(read_document(doc, source).benchmarks.front()));
        }
        // Kept apart (schema version 3); else what the document held.
        if (!results.null(i, 3))
            out.benchmarks.back().functions = read_function_list(c_, results.text(i, 3));
    }
    if (parts.lines == history::SourceLines::Read && schema_version_ >= 2 && !positions.empty())
        attach_lines(c_, handle, positions, out.benchmarks);
    history::drop_unread(out.benchmarks, parts);
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
    c_.copy_out(fmt::format(kSelectSeries, project_id_, ""),
                [&series](const CopyRow& row) { series.add(row); });
    series.finish();
}

void PgHistory::scan_series(const history::History& h, std::string_view name, std::size_t limit,
                            const history::SeriesVisitor& visit) {
    SeriesReader series(h, {}, limit, visit);
    c_.copy_out(fmt::format(kSelectSeries, project_id_, " AND name = " + c_.literal(name)),
                [&series](const CopyRow& row) { series.add(row); });
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
