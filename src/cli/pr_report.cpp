// `cgbench pr`: one comparison, every report from it, the verdict.

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "base/errors.hpp"
#include "cli/command.hpp"
#include "cli/pr.hpp"
#include "cli/report_outputs.hpp"
#include "config/compare_options.hpp"
#include "core/merge.hpp"
#include "core/result_file.hpp"
#include "core/result_json.hpp"
#include "history/backend.hpp"
#include "report/compare_summary.hpp"
#include "report/exporter.hpp"
#include "report/reporter.hpp"
#include "util/fs.hpp"
#include "util/strings.hpp"
#include "util/time.hpp"

namespace cgbench::cli::pr {

namespace {

// The reports of the gate, in OUT-DIR: each is a format of the table (report/formats.hpp)
// rendering the one comparison. Another kind of output is a row here.
struct PrReport {
    std::string_view format;
    std::string_view file;
};
constexpr PrReport kPrReports[] = {
    {"markdown", "report.md"},
    {"junit", "report.xml"},
    {"json", "compare.json"},
    {"console", "console.txt"},
};

std::string first_line(const fs::path& file) {
    const auto text = util::read_file(file);
    return std::string(util::trim(text.substr(0, text.find('\n'))));
}

config::ComparePlan compare_plan(const config::PrPlan& plan, Against against,
                                 const std::string& why) {
    config::ComparePlan cp;
    cp.head = (plan.out_dir / "head.json").string();
    cp.head_label = "HEAD";
    cp.options = plan.gate;
    switch (against) {
        case Against::BaseFile:
            cp.base_choice = config::BaseChoice::Named;
            cp.base = (plan.out_dir / "base.json").string();
            break;
        case Against::Previous:
            // HEAD as the history keeps it, as it keeps the previous run: both sides list the
            // same number of functions, so "Functions that moved" compares like with like.
            cp.head = read_result_file(plan.out_dir / "head.json").id;
            cp.base_choice = config::BaseChoice::Previous;
            cp.db = plan.history;
            break;
        case Against::Nothing:
            cp.base_choice = config::BaseChoice::NoBaseline;
            cp.no_baseline = why;
            break;
    }
    if (against != Against::Previous && fs::exists(plan.out_dir / "base-label")) {
        cp.base_label = first_line(plan.out_dir / "base-label");
    }
    return cp;
}

// What OUT-DIR/base-source[-K] say: where the base's results came from (a line per shard
// that says something else, in shard order), nullopt when there are none.
std::optional<compare::BaseSource> base_sources(const config::PrPlan& plan) {
    std::vector<fs::path> files;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(plan.out_dir, ec)) {
        if (util::starts_with(e.path().filename().string(), "base-source")) {
            files.push_back(e.path());
        }
    }
    if (files.empty()) return std::nullopt;
    std::sort(files.begin(), files.end());
    compare::BaseSource out;
    std::set<std::string> kinds;
    for (const auto& f : files) {
        const auto text = util::read_file(f);
        const auto lines = util::split(text, '\n');
        const std::string line(util::trim(lines.front()));
        if (line.empty()) continue;
        const bool reused = line.find(kReusedNote) != std::string::npos;
        kinds.insert(reused ? "history" : "built");
        if (std::find(out.lines.begin(), out.lines.end(), line) == out.lines.end()) {
            out.lines.push_back(line);
        }
        if (lines.size() < 2 || !util::starts_with(lines[1], kRunsLine)) continue;
        for (const auto id : util::split(lines[1].substr(kRunsLine.size()), ' ')) {
            if (!id.empty() && std::find(out.runs.begin(), out.runs.end(), id) == out.runs.end())
                out.runs.emplace_back(id);
        }
    }
    if (kinds.empty()) return std::nullopt;
    out.kind = kinds.size() > 1 ? "mixed" : *kinds.begin();
    return out;
}

// `side`.json with each result's functions as the history keeps them (its top ones and
// "(other)"), written beside it as compared-SIDE.json.
fs::path as_stored(const config::PrPlan& plan, std::string_view side) {
    auto run = read_result_file(plan.out_dir / fmt::format("{}.json", side));
    for (auto& b : run.benchmarks)
        history::keep_as_stored(b);
    const auto file = plan.out_dir / fmt::format("compared-{}.json", side);
    util::write_file_atomic(file, dump_json(to_json(run)) + "\n");
    return file;
}

// OUT-DIR/metrics.txt: HEAD's results as OpenMetrics (GitLab's metrics report).
void write_metrics(const config::PrPlan& plan) {
    const auto head = read_result_file(plan.out_dir / "head.json");
    const auto exporter = report::make_exporter(report::ExportFormat::OpenMetrics);
    util::write_file_atomic(plan.out_dir / "metrics.txt", exporter->render(head));
}

}  // namespace

void join_shards(const config::PrPlan& plan, std::string_view side, const Context& ctx) {
    const auto name = std::string(side);
    std::vector<fs::path> shards;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(plan.out_dir, ec)) {
        const auto f = e.path().filename().string();
        if (util::starts_with(f, name + "-") && e.path().extension() == ".json") {
            shards.push_back(e.path());
        }
    }
    const auto joined = plan.out_dir / (name + ".json");
    if (!shards.empty()) {
        std::sort(shards.begin(), shards.end());
        std::vector<SourcedRun> parts;
        for (const auto& f : shards)
            parts.push_back({f.filename().string(), read_result_file(f)});
        auto merged = merge_runs(parts, util::new_run_id());
        for (const auto& w : merged.warnings)
            warn(w);
        util::write_file_atomic(joined, dump_json(to_json(merged.run)) + "\n");
        say(ctx, fmt::format("joined {} shards into {}.json", shards.size(), name));
    }
    if (!fs::exists(joined)) {
        throw UsageError(fmt::format("no {} result in {}", name, plan.out_dir.string()),
                         "run the measuring step first (cgbench pr without --report-only)");
    }
}

std::pair<compare::Comparison, Verdict> report(const config::PrPlan& plan, Against against,
                                               const std::string& why, const Context& ctx) {
    // Every file named, and checked writable, before the comparison is made.
    std::vector<std::string> specs;
    for (const auto& r : kPrReports)
        specs.push_back(fmt::format("{}={}", r.format, (plan.out_dir / r.file).string()));
    auto outputs = open_reports(specs, report::Model::Compare, "pr", false);

    auto cp = compare_plan(plan, against, why);
    const auto sources = against == Against::BaseFile ? base_sources(plan) : std::nullopt;
    // A base from the history lists the functions it keeps: both sides are compared so, and
    // "Functions that moved" pairs like with like (as branch mode compares HEAD as stored).
    const bool reused = sources && sources->kind != "built";
    if (reused) {
        cp.base = as_stored(plan, "base").string();
        cp.head = as_stored(plan, "head").string();
    }
    // Its annotations pair the kept source lines of both sides (pr_lines.cpp).
    auto comparison = compare_as_planned(cp, ctx, history::SourceLines::Read);
    if (sources) {
        comparison.notes.insert(comparison.notes.begin(), sources->lines.begin(),
                                sources->lines.end());
        comparison.base_source = sources;
    }
    if (reused) {
        std::error_code ec;
        fs::remove(*cp.base, ec);
        fs::remove(*cp.head, ec);
    }
    write_reports(outputs, comparison, ctx.verbose());
    write_metrics(plan);
    Verdict v;
    v.code = static_cast<int>(comparison.exit_code());
    v.summary = fmt::format("{}  {}", report::gate_word(comparison),
                            report::summary_line(comparison, util::printable));
    util::write_file_atomic(plan.out_dir / "summary.txt", v.summary + "\n");
    if (!ctx.global.quiet) {
        const auto& console = report::find_format("console", report::Model::Compare, "pr");
        print_out(console.compare()->render(comparison, {ctx.color, ctx.verbose()}));
    }
    say(ctx, fmt::format("report in {}", (plan.out_dir / "report.md").string()));
    return {std::move(comparison), v};
}

}  // namespace cgbench::cli::pr
