// `cgbench pr`: the base and HEAD measured, each into its result file.

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "access/history_url.hpp"
#include "base/errors.hpp"
#include "cli/command.hpp"
#include "cli/pr.hpp"
#include "cli/progress.hpp"
#include "cli/worktree_run.hpp"
#include "core/result_json.hpp"
#include "exec/git.hpp"
#include "exec/interrupt.hpp"
#include "history/stored_runs.hpp"
#include "runner/run_pipeline.hpp"
#include "runner/worktree.hpp"
#include "util/fs.hpp"
#include "util/probe_cache.hpp"
#include "util/strings.hpp"

namespace cgbench::cli::pr {

namespace {

// OUT-DIR/base-source[-K]: where the base's results came from, one line the reports show.
constexpr std::string_view kBaseSource = "base-source";

constexpr std::string_view kFetchHint =
    "fetch the history: fetch-depth: 0 with actions/checkout, GIT_DEPTH: 0 on GitLab, or "
    "git fetch --unshallow";

// The branch `ref` names ("origin/main" -> "main") when the repository has it; else empty.
std::string branch_of(const std::string& ref, const exec::Git& git) {
    std::string name = ref;
    for (const std::string_view strip :
         {"refs/remotes/origin/", "refs/heads/", "refs/remotes/", "origin/"}) {
        if (util::starts_with(name, strip)) name = name.substr(strip.size());
    }
    for (const auto* prefix : {"refs/heads/", "refs/remotes/origin/"}) {
        if (git.run({"show-ref", "--verify", "--quiet", prefix + name})) return name;
    }
    return "";
}

// Removes the files of `side` (NAME[-K]EXT) an earlier run left that this one would not
// replace, joined and shards: nothing of an earlier run is ever joined or compared.
void remove_stale(const config::PrPlan& plan, std::string_view side,
                  std::string_view ext = ".json") {
    std::error_code ec;
    const auto name = std::string(side);
    fs::remove(plan.out_dir / (name + shard_suffix(plan) + std::string(ext)), ec);
    fs::remove(plan.out_dir / (name + std::string(ext)), ec);
    if (plan.shard) return;
    for (const auto& e : fs::directory_iterator(plan.out_dir, ec)) {
        const auto f = e.path().filename().string();
        if (util::starts_with(f, name + "-") && f.size() > name.size() + 1 + ext.size() &&
            std::isdigit(static_cast<unsigned char>(f[name.size() + 1])) != 0 &&
            f.substr(f.size() - ext.size()) == ext) {
            fs::remove(e.path(), ec);
        }
    }
}

void build(const config::PrPlan& plan, const fs::path& dir, const std::string& what,
           const Context& ctx) {
    if (!plan.build) return;
    say(ctx, fmt::format("building {}: {}", what, *plan.build));
    const auto b = runner::run_build(*plan.build, dir, ctx.env, ctx.runner, !ctx.global.quiet);
    exec::throw_if_interrupted();
    if (!b.ok) {
        throw BenchmarkError(fmt::format("the build command failed for {} ({})", what, b.what),
                             "fix the build, or check --build");
    }
}

// Measures `input` with the gate's shard and raw-file settings; nullopt when the shard holds
// no benchmark. Both sides split the suite by name, so their shards hold the same benchmarks.
std::optional<RunResult> measure(const config::PrPlan& plan, config::RunInput input,
                                 const fs::path& git_dir, std::string_view side, Tools& tools,
                                 const Context& ctx) {
    input.db.disabled = true;
    if (plan.shard) input.shard = plan.shard;
    if (plan.keep_raw) {
        input.keep_raw =
            (plan.out_dir / fmt::format("raw-{}{}", side, shard_suffix(plan))).string();
    }
    auto rp = plan_sharded_run(input, ctx);
    if (rp.request.benchmarks.empty()) {
        say(ctx,
            fmt::format("shard {} has no benchmarks: the {} measures nothing", *plan.shard, side));
        return std::nullopt;
    }
    rp.request.git_dir = git_dir;
    say(ctx, fmt::format("measuring the {}", side));
    RunResult run;
    {
        ProgressPrinter progress(progress_mode(ctx.global), rp.request.benchmarks.size());
        run = runner::execute_run(rp.request, tools.valgrind(rp.request.probe_cache_dir),
                                  ctx.runner, ctx.env, &progress);
    }
    if (rp.shard) {
        run.shard = rp.shard->text();
        run.shard_balance = rp.shard_balance;
    }
    exec::throw_if_interrupted();
    return run;
}

// Writes `run` to `file`; 3 when a benchmark failed (it is in the file, marked failed), else
// 0. BenchmarkError when nothing was measured: no file then, so no older one is compared.
int save(const RunResult& run, const fs::path& file, std::string_view side, const Context& ctx) {
    const auto ok = [](const BenchmarkResult& b) { return b.status == BenchStatus::Ok; };
    if (std::none_of(run.benchmarks.begin(), run.benchmarks.end(), ok)) {
        throw BenchmarkError(fmt::format("the {} measured nothing (every benchmark failed; see "
                                         "above)",
                                         side),
                             "fix the program or its arguments");
    }
    util::write_file_atomic(file, dump_json(to_json(run)) + "\n");
    if (std::all_of(run.benchmarks.begin(), run.benchmarks.end(), ok)) return 0;
    say(ctx, fmt::format("warning: a benchmark failed in the {} (recorded as failed; the gate "
                         "judges it)",
                         side));
    return 3;
}

// Why the base has no baseline ("the merge base 1a2b3c4d5e has no cgbench.toml"), or empty.
std::string missing_suite(const config::PrPlan& plan, const runner::Worktree& wt,
                          const MergeBase& base, const Context& ctx) {
    if (!plan.run.suite) return "";
    if (fs::exists(wt.map(fs::absolute(ctx.cwd / *plan.run.suite)))) return "";
    return fmt::format("the merge base {} has no {}", base.commit.substr(0, 10), *plan.run.suite);
}

// Whether git tracks the suite file in HEAD (then a base without it needs no build to know).
bool suite_tracked(const config::PrPlan& plan, const Context& ctx) {
    const exec::Git git(ctx.cwd, ctx.env, ctx.runner);
    return plan.run.suite &&
           git.run({"ls-files", "--error-unmatch", "--", *plan.run.suite}).has_value();
}

// The base checked out in a worktree, built there (unless it lacks the suite: then there is
// no baseline) and measured as HEAD was, into OUT-DIR/base[-K].json.
BaseResults build_and_measure_base(const config::PrPlan& plan, const MergeBase& base, Tools& tools,
                                   const Context& ctx) {
    runner::Worktree wt(ctx.cwd, ctx.env, ctx.runner);
    wt.checkout(base.commit);
    const std::string what = fmt::format("the base ({})", base.commit);
    // A suite file HEAD tracks and the base lacks: nothing to build. Otherwise the build may
    // be what makes the suite.
    auto why = suite_tracked(plan, ctx) ? missing_suite(plan, wt, base, ctx) : "";
    if (why.empty()) {
        build(plan, wt.map(ctx.cwd), what, ctx);
        why = missing_suite(plan, wt, base, ctx);
    }
    if (!why.empty()) {
        say(ctx, fmt::format("no baseline: {}; every benchmark will be reported as added", why));
        util::write_file_atomic(plan.out_dir / "no-baseline", why + "\n");
        return {std::nullopt, why};
    }
    auto run = measure(plan, input_in_worktree(plan.run, wt, WorktreeSuite{true}, ctx), wt.root(),
                       "base", tools, ctx);
    if (!run) return {};
    // The base stands for its branch, not for the one CI names for HEAD, and its functions
    // are named as in the checkout, so they pair with HEAD's.
    run->git.branch = base.branch.empty() ? std::nullopt : std::optional(base.branch);
    unmap_files(*run, wt);
    const auto file = plan.out_dir / ("base" + shard_suffix(plan) + ".json");
    save(*run, file, "base", ctx);
    return {file, ""};
}

}  // namespace

void say(const Context& ctx, std::string_view text) {
    if (!ctx.global.quiet) print_out(fmt::format("cgbench: {}\n", text), Stream::Stderr);
}

std::string shard_suffix(const config::PrPlan& plan) {
    return plan.shard ? "-" + plan.shard->substr(0, plan.shard->find('/')) : "";
}

const valgrind::Installation& Tools::valgrind(const fs::path& probe_cache_dir) {
    if (!valgrind_) {
        valgrind_ =
            valgrind::locate_valgrind(ctx_.env, ctx_.runner, util::ProbeCache(probe_cache_dir));
    }
    return *valgrind_;
}

MergeBase find_merge_base(const config::PrPlan& plan, const Context& ctx) {
    const exec::Git git(ctx.cwd, ctx.env, ctx.runner);
    if (!git.available())
        throw EnvironmentError("cgbench pr needs git, which is not on PATH", "install git");
    if (!git.run({"rev-parse", "--show-toplevel"})) {
        throw UsageError(fmt::format("{} is not in a git checkout", ctx.cwd.string()),
                         "run cgbench pr in the repository, or pass no --base (branch mode)");
    }
    MergeBase mb;
    mb.ref = *plan.base;
    const bool shallow = git.run({"rev-parse", "--is-shallow-repository"}).value_or("") == "true";
    const auto commit =
        git.run({"rev-parse", "--verify", "--quiet", "--end-of-options", mb.ref + "^{commit}"});
    if (!commit) {
        throw UsageError(
            fmt::format("the base '{}' is not in this {}clone", util::printable(mb.ref),
                        shallow ? "shallow " : ""),
            shallow
                ? std::string(kFetchHint)
                : "fetch it (git fetch origin BRANCH), or check --base (a branch, tag or commit)");
    }
    const auto merge_base = git.run({"merge-base", "HEAD", *commit});
    if (!merge_base) {
        throw UsageError(
            fmt::format("no merge base of HEAD with '{}'{}", util::printable(mb.ref),
                        shallow ? ": the clone is shallow" : ""),
            shallow ? std::string(kFetchHint) : "HEAD and the base share no history: check --base");
    }
    mb.commit = *merge_base;
    mb.branch = plan.base_branch.value_or(branch_of(mb.ref, git));
    mb.label = "merge base with " + (mb.branch.empty() ? mb.ref : mb.branch);
    say(ctx, fmt::format("base is the merge base of HEAD with {}{}: {}", mb.ref,
                         mb.branch.empty() || mb.branch == mb.ref ? "" : " (" + mb.branch + ")",
                         mb.commit));
    util::write_file_atomic(plan.out_dir / "base-commit", mb.commit + "\n");
    util::write_file_atomic(plan.out_dir / "base-label", mb.label + "\n");
    std::error_code ec;
    fs::remove(plan.out_dir / "no-baseline", ec);
    return mb;
}

HeadResults measure_head(const config::PrPlan& plan, Tools& tools, const Context& ctx) {
    remove_stale(plan, "head");
    // The base comes after HEAD: nothing of an earlier run's base may survive a HEAD that fails.
    remove_stale(plan, "base");
    remove_stale(plan, kBaseSource, "");
    // Opened (created, migrated) before anything is built: a bad database fails in milliseconds.
    const auto history = access::open_history_for_run(plan.history);
    build(plan, ctx.cwd, "the head", ctx);
    HeadResults out;
    out.run = measure(plan, plan.run, fs::path(), "head", tools, ctx);
    if (!out.run) return out;
    out.code = save(*out.run, plan.out_dir / ("head" + shard_suffix(plan) + ".json"), "head", ctx);
    if (history) history::record_run(*history, *out.run);
    return out;
}

BaseResults obtain_base_results(const config::PrPlan& plan, const MergeBase& base,
                                const HeadResults& head, Tools& tools, const Context& ctx) {
    const auto file = plan.out_dir / ("base" + shard_suffix(plan) + ".json");
    const auto source = plan.out_dir / (std::string(kBaseSource) + shard_suffix(plan));
    StoredBase stored;
    if (head.run) stored = find_stored_base(plan, base, *head.run, ctx);
    if (stored.run) {
        say(ctx, fmt::format("base: {} in {} (not built, not measured; --no-reuse rebuilds it)",
                             stored.source, plan.history->string()));
        util::write_file_atomic(source, fmt::format("base: {}, {} (not built or measured here; "
                                                    "--no-reuse rebuilds it)\n",
                                                    stored.source, kReusedNote));
        save(*stored.run, file, "base", ctx);
        return {file, ""};
    }
    if (head.run) say(ctx, fmt::format("no stored run of the base reused ({})", stored.why_not));
    auto measured = build_and_measure_base(plan, base, tools, ctx);
    if (measured.file) {
        util::write_file_atomic(source, fmt::format("base: built and measured here (no stored "
                                                    "run reused: {})\n",
                                                    stored.why_not));
    }
    return measured;
}

}  // namespace cgbench::cli::pr
