#pragma once
// What the user may name a run by, on `compare` and `export`: a result file, a run id from
// the history, or a git ref: the latest run recorded at that commit, completed with the latest
// result of each other benchmark recorded there (history::complete_from_commit). Any backend:
// the history is reached through history/backend.hpp only.

#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.hpp"
#include "exec/environment.hpp"
#include "exec/git.hpp"
#include "exec/process.hpp"
#include "history/backend.hpp"

namespace cgbench::access {

// A run found from what the user typed, and how to describe it.
struct ResolvedRun {
    RunResult run;
    std::string label;                  // "base.json", "run 2026…", "main (abc1234)"
    std::vector<std::string> warnings;  // e.g. the run was measured in a dirty work tree
    std::vector<std::string> run_ids;   // stored runs drawn on (empty for a file)
};

// Turns BASE, HEAD or RUN arguments into runs; opens the database only when needed.
class RunResolver {
  public:
    // `db`: the history (nullopt with --no-db), opened to read when first needed
    // (access::history_source); git runs in `git_dir` with the caller's PATH. `runner` must
    // outlive the resolver. Stored runs come with their results' kept source lines and
    // functions unless `parts` skips them (a result file always has its own).
    RunResolver(std::optional<history::HistorySource> db, std::filesystem::path git_dir,
                const exec::EnvMap& caller, exec::ProcessRunner& runner, history::RunParts parts);

    // `ref` as an existing file, else "run:ID" as the stored run ID, else a run id or a git
    // ref (UsageError when it is both); what a git ref resolves to draws on no run in
    // `exclude`. Throws UsageError naming what was tried.
    ResolvedRun resolve(const std::string& ref, const std::vector<std::string>& exclude = {});
    // Asks git at once what commit each of `refs` names, for resolve() to come (one git
    // process instead of one per ref; `compare BASE HEAD` calls it first).
    void look_up(const std::vector<std::string>& refs);
    // The most recently started run in the history, completed from its commit. UsageError
    // when there is none.
    ResolvedRun latest();
    // What was recorded at the merge base of `head`'s commit with `base_branch` (when empty:
    // main, master, origin/main, origin/master, the first that exists), apart from `head`.
    ResolvedRun at_merge_base(const ResolvedRun& head,
                              const std::optional<std::string>& base_branch);

    // The previous run of `head`'s branch: the latest run of a clean work tree recorded on
    // that branch with the same fingerprint key, apart from `head`'s own runs, completed
    // from its commit. nullopt when the database (or the file) holds none: the first run
    // of a branch has no baseline. UsageError when `head` names no branch.
    std::optional<ResolvedRun> previous_on_branch(const ResolvedRun& head);

    // For a stored run this resolver read without functions: gives each of `results` (from
    // `run`, their names unique) the kept functions of the stored result it was, read now
    // (each from the first of run.run_ids holding its name, as complete_from_commit took
    // them). Nothing for a result file, or when functions were read.
    void read_functions(const ResolvedRun& run, const std::vector<BenchmarkResult*>& results);

  private:
    // What names a stored run whatever else its id may be (no git ref holds a ':').
    static constexpr std::string_view kRunPrefix = "run:";
    ResolvedRun by_id(const std::string& id);
    // The history, opened on first use; UsageError when disabled or missing.
    history::HistoryBackend& history(std::string_view wanted_for);
    history::HistoryBackend* history_if_present();
    ResolvedRun at_commit(const std::string& commit, const std::string& label,
                          const std::vector<std::string>& exclude);
    void refuse_head_on_base_branch(const std::string& commit, const std::string& branch,
                                    const std::vector<std::string>& exclude);
    // Completes `anchor` from its commit; labelled "LABEL (NOTES, N runs)".
    ResolvedRun completed(RunResult anchor, const std::string& label,
                          std::vector<std::string> notes, const std::vector<std::string>& exclude);

    std::optional<history::HistorySource> db_;
    std::unique_ptr<history::HistoryBackend> history_;
    bool opened_ = false;
    exec::Git git_;
    history::RunParts parts_;
    std::map<std::string, std::optional<std::string>> commits_;  // look_up()'s answers, by ref
};

}  // namespace cgbench::access
