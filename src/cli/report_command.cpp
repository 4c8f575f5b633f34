// `cgbench report --html FILE`: the history database as one self-contained HTML page to
// navigate: the steps found, a line per branch in each benchmark's chart, epochs, commit
// links.

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <memory>
#include <set>
#include <stdexcept>

#include "access/history_url.hpp"
#include "base/errors.hpp"
#include "cli/cli11.hpp"
#include "cli/command.hpp"
#include "cli/history_support.hpp"
#include "config/benchmark_plan.hpp"
#include "config/commit_url.hpp"
#include "config/db_options.hpp"
#include "exec/environment.hpp"
#include "exec/git.hpp"
#include "history/lines.hpp"
#include "report/flame_svg.hpp"
#include "report/html_history_reporter.hpp"
#include "report/html_project_index.hpp"
#include "util/fs.hpp"
#include "util/regex.hpp"
#include "util/sha256.hpp"
#include "util/strings.hpp"
#include "util/time.hpp"

namespace cgbench::cli {

namespace {

namespace fs = std::filesystem;

struct ReportInput {
    config::DbInput db;
    std::string html;
    std::size_t last = 50;
    std::size_t max_benchmarks = report::kMaxHtmlBenchmarks;
    std::optional<std::string> filter;
    std::string axis = "relative";
    std::optional<std::string> commit_url;
    bool all_projects = false;
    std::optional<std::string> flame_dir;
};

// The largest flame graph embedded: ten times what kMaxFrames frames take.
constexpr std::uintmax_t kMaxFlameBytes = 32 << 20;

// The flame graphs of --flame DIR (its *.svg, by name), each named by its file's stem. A
// file that is not a flame graph cgbench drew is left out with a warning.
std::vector<report::EmbeddedFlame> read_flames(const std::optional<std::string>& dir) {
    if (!dir) return {};
    std::error_code ec;
    if (!fs::is_directory(*dir, ec)) {
        throw UsageError(fmt::format("--flame {}: no such directory", util::printable(*dir)),
                         "pass the directory the flame graphs were drawn into (cgbench pr: "
                         "OUT-DIR/flame)");
    }
    std::vector<fs::path> files;
    for (const auto& entry : fs::directory_iterator(*dir)) {
        if (entry.path().extension() == ".svg" && entry.is_regular_file(ec)) {
            files.push_back(entry.path());
        }
    }
    std::sort(files.begin(), files.end());
    std::vector<report::EmbeddedFlame> out;
    for (const auto& file : files) {
        const auto size = fs::file_size(file, ec);
        auto svg = ec || size > kMaxFlameBytes
                       ? std::nullopt
                       : report::embeddable_flame_svg(util::read_file(file));
        if (!svg) {
            warn(fmt::format("{} is not a flame graph cgbench drew: not embedded",
                             util::printable(file.string())));
            continue;
        }
        out.push_back({file.stem().string(), std::move(*svg)});
    }
    return out;
}

std::unique_ptr<history::HistoryBackend> open_store(const history::Location& location) {
    auto store = open_history(location);
    if (store->run_count() == 0) {
        throw UsageError(fmt::format("the history database {} has no runs", store->name()),
                         "record runs with `cgbench run` first");
    }
    return store;
}

// Where commits link to: --commit-url, else the CI's variables, else the git remote.
std::optional<std::string> commit_url(const ReportInput& in, const Context& ctx) {
    if (in.commit_url) return config::check_commit_url(*in.commit_url);
    if (auto ci = config::commit_url_from_ci(ctx.env)) return ci;
    const exec::Git git(ctx.cwd, ctx.env, ctx.runner);
    const auto remote = git.run({"remote", "get-url", "origin"});
    return remote ? config::commit_url_from_remote(*remote) : std::nullopt;
}

// Where the commits of `project` link to in the organisation view: --commit-url with
// {project} replaced by the project's name; none without it (the CI's variables and the git
// remote name one repository, not each project's).
std::optional<std::string> project_commit_url(const ReportInput& in, const std::string& project) {
    if (!in.commit_url || project.empty()) return std::nullopt;
    auto url = config::check_commit_url(*in.commit_url);
    for (auto at = url.find("{project}"); at != std::string::npos;
         at = url.find("{project}", at + project.size())) {
        url.replace(at, 9, project);
    }
    return url;
}

std::vector<std::size_t> runs_shown(const history::History& h) {
    std::set<std::size_t> runs;
    for (const auto& s : h.series) {
        for (const auto& r : s.results)
            runs.insert(r.run);
    }
    return {runs.begin(), runs.end()};
}

// The page of `store`'s history (which has runs) into `out`; what the project index shows
// of it. nullopt, writing nothing, when --filter matches none of its benchmarks.
std::optional<report::ProjectSummary> write_page(history::HistoryBackend& store,
                                                 const ReportInput& in, const Context& ctx,
                                                 util::OutputFile& out,
                                                 const std::optional<std::string>& project = {},
                                                 std::vector<report::EmbeddedFlame> flames = {}) {
    const auto filter = in.filter ? std::optional(config::filter_regex(*in.filter)) : std::nullopt;
    const auto h = store.load_history(
        [&filter](std::string_view name) { return !filter || filter->search(std::string(name)); },
        in.last);
    if (h.series.empty()) return std::nullopt;
    report::HtmlHistory page;
    page.database = store.name();
    page.generated = util::iso8601_at(ctx.now());
    page.limit = in.last;
    page.filter = in.filter;
    page.history = &h;
    page.default_branch = history::default_branch(h, std::nullopt);
    page.steps = explained_steps(store, h, {page.default_branch, std::nullopt, false});
    page.commits = commit_subjects(h, runs_shown(h), ctx);
    page.commit_url = project ? project_commit_url(in, *project) : commit_url(in, ctx);
    page.axis = in.axis == "zero" ? report::Axis::Zero : report::Axis::Relative;
    page.max_benchmarks = in.max_benchmarks;
    page.flames = std::move(flames);
    out.commit(report::render_html_history(page));
    const auto shown = std::min(h.series.size(), in.max_benchmarks);
    if (shown < h.series.size()) {
        warn(
            fmt::format("{} shows {} of {} benchmarks (those with steps first): choose with "
                        "--filter, or raise --max-benchmarks",
                        out.target().string(), shown, h.series.size()));
    }
    report::ProjectSummary summary;
    summary.benchmarks = shown;
    summary.default_branch = page.default_branch;
    for (const auto& branch : page.steps) {
        if (!branch.is_default) continue;
        for (const auto& event : branch.events) {
            for (const auto& step : event.steps) {
                ++summary.steps;
                if (step.step.change > 0) ++summary.regressions;
            }
        }
    }
    return summary;
}

// A project's page beside the index: "NAME-1a2b3c4d.html", NAME's bytes other than
// letters, digits, '.', '_' and '-' as '_', the hash telling apart names that map alike.
std::string page_name(const std::string& project) {
    std::string out;
    for (const char c : project.substr(0, 60)) {
        const bool keep =
            std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '.' || c == '_' || c == '-';
        out += keep && !(out.empty() && c == '.') ? c : '_';
    }
    const auto digest = util::sha256(project);
    return fmt::format("{}-{:02x}{:02x}{:02x}{:02x}.html", out, digest[0], digest[1], digest[2],
                       digest[3]);
}

// `--all-projects`: each project's page beside the index `in.html`, then the index.
int write_index(const ReportInput& in, const Context& ctx) {
    util::OutputFile index_out(in.html);
    if (!index_out.is_file()) {
        throw UsageError("--all-projects writes a page per project beside the index",
                         "pass --html DIR/index.html, a regular file");
    }
    const auto dir = index_out.target().parent_path();
    const auto location = *config::resolve_db(in.db, ctx.env);
    auto names = access::history_projects(location);
    if (!names) {
        throw UsageError(fmt::format("there is no history database at {}", location),
                         "record runs with `cgbench run`, or pass --db PATH");
    }
    report::ProjectIndex index;
    index.database = location.shown();
    index.generated = util::iso8601_at(ctx.now());
    if (names->empty()) names->emplace_back();  // the history is the one project
    for (const auto& name : *names) {
        auto db = in.db;
        if (!name.empty()) db.project = name;
        const auto store = open_history(*config::resolve_db(db, ctx.env));
        report::ProjectSummary p;
        if (store->run_count() > 0) {
            const auto file = page_name(name.empty() ? "history" : name);
            util::OutputFile out(dir / file);
            const auto project = name.empty() ? std::nullopt : std::optional(name);
            if (auto written = write_page(*store, in, ctx, out, project)) {
                p = std::move(*written);
                p.page = file;
            }
            p.runs = store->run_count();
            p.latest = store->runs(1).front();
        }
        p.name = name.empty() ? store->name() : name;
        index.projects.push_back(std::move(p));
    }
    index_out.commit(report::render_html_project_index(index));
    if (!ctx.global.quiet) {
        print_out(fmt::format("wrote {}: {} project{}\n", index_out.target().string(),
                              index.projects.size(), index.projects.size() == 1 ? "" : "s"));
    }
    return 0;
}

int execute(const ReportInput& in, const Context& ctx) {
    const auto path = config::resolve_db(in.db, ctx.env);
    if (!path) throw UsageError("report needs the database, and --no-db was given");
    if (in.filter) config::filter_regex(*in.filter);  // a bad filter fails before any reading
    if (in.all_projects) return write_index(in, ctx);
    util::OutputFile out(in.html);  // an unwritable destination fails before any reading
    auto flames = read_flames(in.flame_dir);
    const auto store = open_store(*path);
    const auto written = write_page(*store, in, ctx, out, std::nullopt, std::move(flames));
    if (!written) {
        throw UsageError(fmt::format("no benchmark in {} matches --filter '{}'", store->name(),
                                     util::printable(in.filter.value_or(""))),
                         "the filter is a regular expression searched in each name; `cgbench "
                         "history` lists the runs");
    }
    const auto shown = written->benchmarks;
    if (!ctx.global.quiet) {
        print_out(fmt::format("wrote {}: {} benchmark{}\n", out.target().string(), shown,
                              shown == 1 ? "" : "s"),
                  out.is_stdout() ? Stream::Stderr : Stream::Stdout);
    }
    return 0;
}

}  // namespace

Subcommand register_report(CLI::App& app, GlobalOptions& global) {
    auto* cmd = app.add_subcommand("report",
                                   "Write the history as an HTML page to navigate:\n"
                                   "  cgbench report --html FILE");
    add_global_flags(*cmd, global);
    auto input = std::make_shared<ReportInput>();
    cmd->add_option("--html", input->html,
                    "Write one self-contained HTML page here (a regular file atomically): the "
                    "steps found, a summary "
                    "table, then each benchmark's chart and results")
        ->required();
    cmd->add_option("--last", input->last, "Show the last N results of each benchmark [50]")
        ->check(positive_count());
    cmd->add_option("--max-benchmarks", input->max_benchmarks,
                    fmt::format("Show at most N benchmarks, those with steps first [{}]",
                                report::kMaxHtmlBenchmarks))
        ->check(positive_count());
    cmd->add_option("--filter", input->filter,
                    "Only the benchmarks whose name matches (RE2 syntax, searched anywhere in "
                    "the name)");
    cmd->add_option("--axis", input->axis,
                    "relative: % against the first result of each epoch, at least ±1% wide; "
                    "zero: the cost from zero [relative]")
        ->check(CLI::IsMember({"relative", "zero"}));
    cmd->add_option("--commit-url", input->commit_url,
                    "Link commits to this URL, {commit} replaced by the commit [from "
                    "GITHUB_SERVER_URL/GITHUB_REPOSITORY, CI_PROJECT_URL, or the git remote "
                    "origin on GitHub, GitLab, Bitbucket or Codeberg; with --all-projects, only "
                    "this, {project} replaced by each project's name]");
    cmd->add_flag("--all-projects", input->all_projects,
                  "The organisation view: --html FILE becomes an index of every project of "
                  "the history (a PostgreSQL database holds many, a SQLite file is one) with "
                  "its latest state, and each project's page is written beside it");
    cmd->add_option("--flame", input->flame_dir,
                    "Embed the flame graphs DIR holds (its *.svg as `cgbench pr` and `cgbench "
                    "steps --flame` draw them) in the page, after the steps")
        ->excludes("--all-projects");
    add_db_options(*cmd, input->db);
    cmd->footer(
        "Each chart has a line per branch (the default branch first: main, master, or the\n"
        "one with most runs); results measured with uncommitted changes are hollow points\n"
        "off the lines; failed results are crosses on the x axis. Where the fingerprint\n"
        "changes a dashed rule starts a new epoch: nothing is compared across it. Steps (as\n"
        "`cgbench steps` finds them) are marked with their change and label and listed at\n"
        "the top. The page loads nothing from elsewhere; its one inline script (allowed by\n"
        "its hash) adds a name filter, branch switches and hover details, and the page\n"
        "reads without it.\n\n" +
        exit_code_help());
    return {cmd, [input](const Context& ctx) { return execute(*input, ctx); }};
}

}  // namespace cgbench::cli
