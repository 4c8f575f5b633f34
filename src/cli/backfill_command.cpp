// `cgbench backfill RANGE --build CMD [--suite F | -- PROG ...]`: measures past commits of a
// branch in a worktree (as `bisect` does) and records each on the branch it belongs to, so
// `steps` and `report` tell the history of code measured only now. Commits the history holds
// under this machine's fingerprint are not measured again; a commit that does not build is
// skipped and named at the end.

// GCC 12 reports a null dereference inside CLI11's string splitting (vector<string>
// relocation in CLI::detail::split) as inlined into this file; there is none.
#pragma GCC diagnostic ignored "-Wnull-dereference"

#include <fmt/format.h>

#include <chrono>
#include <memory>
#include <set>

#include "access/history_url.hpp"
#include "base/errors.hpp"
#include "cli/cli11.hpp"
#include "cli/command.hpp"
#include "cli/commit_range.hpp"
#include "cli/worktree_run.hpp"
#include "config/db_options.hpp"
#include "exec/git.hpp"
#include "history/stored_runs.hpp"
#include "report/backfill_reporter.hpp"
#include "report/history_text.hpp"
#include "runner/git_info.hpp"
#include "runner/run_pipeline.hpp"
#include "util/probe_cache.hpp"
#include "util/strings.hpp"

namespace cgbench::cli {

namespace {

using report::BackfillCommit;
using report::BackfillOutcome;

struct BackfillInput {
    std::string range;
    std::string build;
    config::RunInput run;
    std::optional<std::size_t> every;
    std::optional<std::size_t> last;
    std::optional<std::string> branch;
    bool suite_from_commit = false;
    std::optional<std::string> format;
};

// What this history holds of `commit` on `branch` under `key`: the run that covers every
// benchmark of `specs` (results of several runs there together), or "".
std::string stored_run(history::HistoryBackend& history, const std::string& commit,
                       const std::string& branch, const std::string& key,
                       const std::vector<runner::BenchmarkSpec>& specs) {
    history::RunFilter f;
    f.commit = commit;
    f.branch = branch;
    f.fingerprint_key = key;
    f.clean_only = true;
    const auto found = history.find_runs(f);
    std::set<std::string> names;
    for (const auto& run : found) {
        if (const auto r = history.load_run(run.handle, {}, history::kNumbersOnly)) {
            for (const auto& b : r->benchmarks)
                names.insert(b.name);
        }
    }
    for (const auto& s : specs) {
        const bool regions = s.kind == runner::MeasureKind::Regions;
        const auto it = names.lower_bound(regions ? s.name + "/" : s.name);
        const bool have =
            it != names.end() && (regions ? util::starts_with(*it, s.name + "/") : *it == s.name);
        if (!have) return "";
    }
    return found.empty() ? "" : found.front().id;
}

// One backfill: the worktree, the history, and what it knows of this machine.
class Backfill {
  public:
    Backfill(const BackfillInput& in, const Context& ctx, history::HistoryBackend& history,
             std::string branch)
        : in_(in), ctx_(ctx), history_(history), branch_(std::move(branch)) {
        auto input = in.run;
        input.db.disabled = true;
        plan_ = plan_sharded_run(input, ctx);  // the caller's suite and options, before any build
        inst_ = valgrind::locate_valgrind(ctx.env, ctx.runner,
                                          util::ProbeCache(plan_.request.probe_cache_dir));
        key_ = runner::expected_key(plan_.request, *inst_, ctx.runner, ctx.env);
        suite_.from_commit = in.suite_from_commit;
    }

    const std::string& key() const { return key_; }

    // True (and `c` filled) when the history holds `c.commit` on the branch under this
    // machine's fingerprint with every benchmark of the suite: nothing to build.
    bool stored(BackfillCommit& c) {
        auto run = stored_run(history_, c.commit, branch_, key_, plan_.request.benchmarks);
        if (run.empty()) return false;
        c.outcome = BackfillOutcome::Stored;
        c.run = std::move(run);
        return true;
    }

    // Builds, measures and records `c.commit`; fills `c`.
    void commit(BackfillCommit& c) {
        const auto started = std::chrono::steady_clock::now();
        measure(c);
        c.seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    }

  private:
    void measure(BackfillCommit& c) {
        if (auto problem = suite_problem_at(c.commit, in_.run, suite_, ctx_)) {
            c.outcome = BackfillOutcome::CannotMeasure;
            c.detail = std::move(*problem);
            return;
        }
        if (!worktree_)
            worktree_ = std::make_unique<runner::Worktree>(ctx_.cwd, ctx_.env, ctx_.runner);
        worktree_->checkout(c.commit);
        const auto build = runner::run_build(in_.build, worktree_->map(ctx_.cwd), ctx_.env,
                                             ctx_.runner, ctx_.verbose());
        if (!build.ok) {
            c.outcome = BackfillOutcome::BuildFailed;
            const auto last = last_line(build.log_tail);
            c.detail = build.what + (last.empty() ? "" : ": " + util::printable(last));
            return;
        }
        auto input = input_in_worktree(in_.run, *worktree_, suite_, ctx_);
        input.db.disabled = true;
        RunResult run;
        try {
            auto plan = plan_sharded_run(input, ctx_);
            plan.request.git_dir = worktree_->root();
            run = runner::execute_run(plan.request, *inst_, ctx_.runner, ctx_.env, nullptr);
        } catch (const UsageError& e) {  // a program of the suite does not exist there
            c.outcome = BackfillOutcome::CannotMeasure;
            c.detail = util::printable(e.what());
            return;
        }
        as_measured_in_checkout(run, *worktree_, kRecordedByBackfill, branch_);
        history::record_run(history_, run);
        c.run = run.id;
        c.outcome = BackfillOutcome::Measured;
        std::vector<std::string> failed;
        for (const auto& b : run.benchmarks) {
            if (b.status != BenchStatus::Ok) failed.push_back(util::printable(b.name));
        }
        if (!failed.empty()) {
            c.outcome = BackfillOutcome::BenchmarkFailed;
            c.detail = "failed: " + util::join(failed, ", ");
        }
        if (run.git.dirty.value_or(false)) {
            c.detail += std::string(c.detail.empty() ? "" : "; ") +
                        "the build changed tracked files: recorded as uncommitted, off the line";
        }
        if (run.fingerprint.comparison_key() != key_) {
            c.detail += std::string(c.detail.empty() ? "" : "; ") + "measured with fingerprint " +
                        run.fingerprint.comparison_key();
        }
    }

    static std::string last_line(std::string_view text) {
        text = util::trim(text);
        const auto nl = text.rfind('\n');
        return std::string(nl == std::string_view::npos ? text : text.substr(nl + 1));
    }

    const BackfillInput& in_;
    const Context& ctx_;
    history::HistoryBackend& history_;
    std::string branch_;
    config::RunPlan plan_;
    std::optional<valgrind::Installation> inst_;
    std::string key_;
    WorktreeSuite suite_;
    std::unique_ptr<runner::Worktree> worktree_;  // added when the first commit is built
};

// "backfill [3/20] abc1234 measured 4.2s  subject" on stderr, unless -q.
void progress(const Context& ctx, std::size_t i, std::size_t n, const BackfillCommit& c,
              bool done) {
    if (ctx.global.quiet) return;
    std::string what = done ? std::string(report::to_string(c.outcome)) : "building and measuring";
    if (done && c.outcome != BackfillOutcome::Stored) what += fmt::format(" {:.1f}s", c.seconds);
    print_out(fmt::format("backfill [{}/{}] {} {}  {}\n", i + 1, n, report::short_commit(c.commit),
                          what, util::printable(c.subject)),
              Stream::Stderr);
}

int execute(const BackfillInput& in, const Context& ctx) {
    const auto reporter = chosen_format(in.format, report::Model::Backfill, "backfill").backfill();
    const auto started = std::chrono::steady_clock::now();
    const exec::Git git(ctx.cwd, ctx.env, ctx.runner);
    if (!git.available()) {
        throw EnvironmentError("backfill needs git, which is not on PATH", "install git");
    }
    const auto db = config::resolve_db(in.run.db, ctx.env);
    if (!db) throw UsageError("backfill records into the history, and --no-db was given");
    const auto all = first_parent_commits(git, in.range);
    report::BackfillReport r;
    r.range = in.range;
    r.in_range = all.size();
    r.branch = in.branch ? *in.branch : branch_of_range(git, in.range, ctx.env, all.back());
    r.shallow = git.run({"rev-parse", "--is-shallow-repository"}).value_or("") == "true";
    r.database = db->shown();
    const auto commits = every_and_last(all, in.every.value_or(1), in.last);
    const auto info = runner::read_commits(ctx.cwd, commits, ctx.env, ctx.runner);
    for (const auto& c : commits) {
        const auto it = info.find(c);
        r.commits.push_back({c, it == info.end() ? "" : it->second.subject,
                             it == info.end() ? "" : it->second.date, BackfillOutcome::Measured, "",
                             "", 0});
    }
    const auto history = access::open_history_for_run(*db);
    Backfill backfill(in, ctx, *history, r.branch);
    r.fingerprint = backfill.key();
    const auto render = [&] {
        r.seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
        print_out(reporter->render(r, {ctx.color, ctx.verbose()}));
    };
    std::size_t done = 0;
    try {
        for (; done < r.commits.size(); ++done) {
            if (!backfill.stored(r.commits[done])) {
                progress(ctx, done, r.commits.size(), r.commits[done], false);
                backfill.commit(r.commits[done]);
            }
            progress(ctx, done, r.commits.size(), r.commits[done], true);
        }
    } catch (const Interrupted&) {
        r.interrupted = true;
        r.commits.resize(done);  // the commit under way recorded nothing
        render();
        throw;
    }
    render();
    std::vector<std::string> skipped;
    for (const auto& c : r.commits) {
        if (c.outcome != BackfillOutcome::Measured && c.outcome != BackfillOutcome::Stored) {
            skipped.push_back(
                fmt::format("{} {}", report::short_commit(c.commit), report::to_string(c.outcome)));
        }
    }
    if (!skipped.empty()) {
        throw BenchmarkError(
            fmt::format("{} of {} commits were not measured cleanly: {}", skipped.size(),
                        r.commits.size(), util::join(skipped, ", ")),
            "the detail column says why; the others are recorded, and backfilling again tries "
            "only the commits not in the history");
    }
    return 0;
}

void add_options(CLI::App& cmd, BackfillInput& in) {
    cmd.add_option("RANGE", in.range,
                   "The commits to measure: A..B (the first-parent commits after A up to B) or "
                   "B (B and its first-parent ancestors)")
        ->required();
    cmd.add_option("--build", in.build,
                   "Build command run in the worktree of each commit, in the same directory "
                   "relative to the repository (a shell command line, run by bash)")
        ->required();
    cmd.add_option("--every", in.every, "Only every Nth commit, counting back from the newest")
        ->check(positive_count());
    cmd.add_option("--last", in.last, "Only the newest N commits (of those --every keeps)")
        ->check(positive_count());
    cmd.add_option("--branch", in.branch,
                   "The branch whose line the commits join [the branch RANGE ends at, "
                   "CGBENCH_BRANCH, or the current branch when it holds them]");
    add_worktree_run_options(cmd, in.run, in.suite_from_commit);
    add_format_option(cmd, in.format, report::Model::Backfill);
}

}  // namespace

Subcommand register_backfill(CLI::App& app, GlobalOptions& global) {
    auto* cmd = app.add_subcommand(
        "backfill",
        "Measure past commits and record them on their branch:\n"
        "  cgbench backfill RANGE --build CMD [--suite FILE] [--every N | --last N]\n"
        "  cgbench backfill RANGE --build CMD [--name NAME] -- PROGRAM [ARGS...]");
    add_global_flags(*cmd, global);
    auto input = std::make_shared<BackfillInput>();
    add_options(*cmd, *input);
    cmd->footer(
        "Commits are taken on the first-parent line of RANGE (as `git rev-list --first-parent\n"
        "RANGE`), oldest first. Each is checked out in one worktree (under /tmp, removed at\n"
        "the end: builds after the first are incremental), built with --build in the\n"
        "directory matching the current one, measured with the current suite (checked before\n"
        "any build; --suite-from-commit: each commit's own) and recorded, one transaction\n"
        "each, on the branch the commits belong to, so `steps` and `report` place them in\n"
        "commit order. A commit the history holds on that branch under this machine's\n"
        "fingerprint is not measured again. A commit whose build fails, or that its suite\n"
        "cannot measure, is skipped and records nothing; the list at the end names it, and the\n"
        "exit code is 3. Ctrl-C keeps the commits recorded so far.\n\n" +
        exit_code_help());
    return {cmd, [input, cmd](const Context& ctx) {
                input->run.command = program_arguments(*cmd, ctx.global);
                return execute(*input, ctx);
            }};
}

}  // namespace cgbench::cli
