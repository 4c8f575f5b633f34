#pragma once
// `cgbench pr`, the pull-request gate in one command, in steps (one file each):
//   pr_measure.cpp  the merge base of HEAD with the base; HEAD's results; the base's results
//                   (obtain_base_results, the one step that decides where they come from)
//   pr_reuse.cpp    the base's run as the history holds it, when one can stand for a build
//   pr_report.cpp   one comparison, every report from it, the verdict
//   pr_alerts.cpp   a push that regressed against its branch's previous run: alerts
//   pr_lines.cpp    a pull request that regressed: its lines whose cost grew, as annotations
// pr_command.cpp holds the options and runs the steps in the order of the mode.

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "cli/context.hpp"
#include "compare/comparison.hpp"
#include "config/pr_options.hpp"
#include "core/result.hpp"
#include "runner/worktree.hpp"
#include "valgrind/installation.hpp"

namespace cgbench::cli::pr {

namespace fs = std::filesystem;

// A step's news on stderr ("cgbench: building the base: make"); nothing with -q.
void say(const Context& ctx, std::string_view text);

// The base a pull request is compared with: the merge base of HEAD with `ref`.
struct MergeBase {
    std::string ref;     // as given (--base) or named by the CI
    std::string commit;  // the merge base
    std::string branch;  // the branch the base stands for; empty when unknown
    std::string label;   // "merge base with main": how the reports call the base
};

// The merge base of HEAD (of the checkout holding `ctx.cwd`) with `plan.base`, written to
// OUT-DIR/base-commit and base-label. UsageError outside a repository, for a base git does
// not know, and for a clone too shallow to hold the merge base (saying how to fetch it).
MergeBase find_merge_base(const config::PrPlan& plan, const Context& ctx);

// Valgrind, located once for both sides.
class Tools {
  public:
    explicit Tools(const Context& ctx) : ctx_(ctx) {}
    // Located on first use, its probes cached in `probe_cache_dir`.
    const valgrind::Installation& valgrind(const fs::path& probe_cache_dir);

  private:
    const Context& ctx_;
    std::optional<valgrind::Installation> valgrind_;
};

// HEAD's results: the exit code of measuring them and the run.
struct HeadResults {
    int code = 0;                  // 3 when a benchmark failed (recorded as failed), else 0
    std::optional<RunResult> run;  // none when the shard held no benchmark
};

// Builds the work tree as it is and measures it into OUT-DIR/head[-K].json, recorded in
// `plan.history` when given. Removes the base's files of an earlier run first. Against a
// merge base (a pull request; null: branch mode), a benchmark the base's suite does not
// define is new and must repeat over kNewBenchmarkRuns runs before it gates.
HeadResults measure_head(const config::PrPlan& plan, const MergeBase* base, Tools& tools,
                         const Context& ctx);

// Whether `name` is measured by an entry of `suite`: the entry itself, or one of its regions
// or Google Benchmark entries ("ENTRY/...").
bool defined_by(const config::Suite& suite, std::string_view name);

// A run the history holds that stands for the base, or why none does.
struct StoredBase {
    std::optional<RunResult> run;   // the base's results, as HEAD is compared with them
    std::string source;             // "main's run of 1a2b3c4d5e, recorded 2026-11-27T07:31:02Z"
    std::string why_not;            // "--no-reuse", "its programs were built by ...", ...
    std::vector<std::string> runs;  // the ids of the stored runs its results come from
};

// The latest clean run of the merge base in `plan.history` measured as `head` was (the same
// fingerprint key and compilers, not a bisect probe) holding an ok result of every benchmark
// `head` measured that the base's suite file defines; else why_not. Reads the history only.
StoredBase find_stored_base(const config::PrPlan& plan, const MergeBase& base,
                            const RunResult& head, const Context& ctx);

// In OUT-DIR/base-source[-K] when the base's results came from the history: in its first
// line (what the reports note), and its second names the stored runs.
inline constexpr std::string_view kReusedNote = "reused from the history";
inline constexpr std::string_view kRunsLine = "runs: ";

// The base's results: their file (OUT-DIR/base[-K].json), or none, with the reason.
struct BaseResults {
    std::optional<fs::path> file;
    std::string no_baseline;
    // The base's checkout, built, when it was built here: kept for the flame graphs.
    std::shared_ptr<runner::Worktree> checkout;
};

// Obtains the base's results, after HEAD's (`head`): the stored run find_stored_base finds,
// else `base` checked out in a worktree, built there (unless it lacks the suite: then there
// is no baseline) and measured as HEAD was, its functions' files named as in the checkout.
// OUT-DIR/base-source[-K] says which. This is the step that decides where the base's results
// come from; everything after it reads only the files. BenchmarkError (exit 3) when the
// build fails or every benchmark failed.
BaseResults obtain_base_results(const config::PrPlan& plan, const MergeBase& base,
                                const HeadResults& head, Tools& tools, const Context& ctx);

// The suffix of a side's result file: "-K" for shard K, else empty.
std::string shard_suffix(const config::PrPlan& plan);

// The verdict, as the gate reached it.
struct Verdict {
    int code = 0;         // 0 pass, 1 regression, 3 a benchmark failed (branch mode)
    std::string summary;  // "FAIL  1 of 2 benchmarks got more expensive (...)"
};

// Where BASE comes from for the comparison.
enum class Against { BaseFile, Previous, Nothing };

// Compares OUT-DIR/head.json with OUT-DIR/base.json, the previous run of its branch in the
// history, or nothing (`why`); writes every report into OUT-DIR in one pass (report.md,
// report.xml, compare.json, console.txt, metrics.txt, summary.txt) and prints the console
// report. Returns the comparison and the gate's verdict.
std::pair<compare::Comparison, Verdict> report(const config::PrPlan& plan, Against against,
                                               const std::string& why, const Context& ctx);

// Differential flame graphs (pr_flame.cpp) of the regressed benchmarks of `comparison` (at
// most kMaxFlameGraphs): each measured again with Callgrind in `base.checkout` and in the
// work tree, drawn into OUT-DIR/flame/NAME.svg and listed at the end of report.md. Without a
// checkout (the base's results came from the history) or with --no-flame, nothing is drawn.
// A graph that cannot be made is said and skipped: this never changes the verdict.
inline constexpr std::size_t kMaxFlameGraphs = 3;
void draw_flame_graphs(const config::PrPlan& plan, const compare::Comparison& comparison,
                       const BaseResults& base, Tools& tools, const Context& ctx);

// Joins OUT-DIR/SIDE-*.json shards into OUT-DIR/SIDE.json when there are any; UsageError when
// there is no SIDE.json then.
void join_shards(const config::PrPlan& plan, std::string_view side, const Context& ctx);

// Alerts for a push whose run regressed (or broke a benchmark) against its branch's previous
// run: one per step, never twice for the same one; a delivery that fails is said, and never
// changes the exit code.
void send_alerts(const config::PrPlan& plan, const compare::Comparison& comparison,
                 const Context& ctx);

// How many lines `cgbench pr` annotates at most (GitHub shows 10 warnings of a step).
inline constexpr std::size_t kMaxLineAnnotations = 10;

// `file` (a source file as a result names it) relative to the repository's top `top`
// ('/'-separated): a path under `top` (as given or with its links resolved) or under the
// sandbox's /cgbench/tree, or a relative path inside the tree. nullopt for anything outside
// (libc, system headers, "???").
std::optional<std::string> repository_path(std::string_view file, const fs::path& top);

// For the regressed benchmarks of `comparison` (a pull request against OUT-DIR/base-commit):
// the lines whose cost grew most (compare::diff_lines) inside the files the pull request
// changed, at most kMaxLineAnnotations, written as OUT-DIR/annotations.txt (GitHub workflow
// commands, also printed when GITHUB_ACTIONS is true) and OUT-DIR/codequality.json (GitLab's
// code-quality report; "[]" when there is nothing to say).
void annotate_lines(const config::PrPlan& plan, const compare::Comparison& comparison,
                    const Context& ctx);

}  // namespace cgbench::cli::pr
