#pragma once
// The measurements `cgbench bisect` judges commits by: each commit's results from the
// history when they were recorded there (a clean run at that commit), otherwise built and
// measured in a worktree (and recorded, so the next bisect finds them). A commit is judged
// against GOOD measured with the same fingerprint: a stored result under a fingerprint this
// machine cannot reproduce is compared with GOOD's stored result under it, and when GOOD
// has none, the commit is measured here instead.

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "cli/context.hpp"
#include "cli/worktree_run.hpp"
#include "compare/comparison.hpp"
#include "config/run_options.hpp"
#include "history/backend.hpp"
#include "history/bisect.hpp"
#include "report/bisect_reporter.hpp"
#include "runner/worktree.hpp"
#include "valgrind/installation.hpp"

namespace cgbench::cli {

// How to build and measure a commit.
struct BisectSetup {
    std::string build;            // the build command (a shell command line)
    double build_timeout = runner::kDefaultBuildTimeout;  // seconds
    config::RunInput run;         // the benchmarks, as `cgbench run` in the working directory
    WorktreeSuite suite;          // the caller's suite file, or each commit's
    std::set<std::string> names;  // the benchmarks judged
    compare::CompareOptions gate;
};

class BisectOracle {
  public:
    // Builds and measures in a worktree of `ctx`'s working directory, through its runner;
    // with -v the build's output is shown. `ctx` must outlive the oracle.
    BisectOracle(BisectSetup setup, history::HistoryBackend* history, const Context& ctx);
    ~BisectOracle();

    // The verdict on `commit` against GOOD, and what it was based on; appends a probe.
    history::Verdict judge(const std::string& commit);
    // GOOD's verdict is unmoved by definition; its measurement is needed first.
    void set_good(const std::string& commit) { good_commit_ = commit; }

    // The change from `before` to `after` (both judged), compared under one fingerprint:
    // measured here when their results differ in fingerprint.
    compare::Comparison change(const std::string& before, const std::string& after);

    std::vector<report::BisectProbe>& probes() { return probes_; }
    std::size_t from_history() const { return from_history_; }
    std::size_t measured() const { return measured_; }

  private:
    struct Measurement {
        RunResult run;
        bool stored = false;
    };

    // `commit`'s results (only the judged benchmarks): stored ones first unless `fresh`.
    std::optional<Measurement> results_at(const std::string& commit, bool fresh,
                                          report::BisectProbe& probe);
    std::optional<RunResult> stored_at(const std::string& commit);
    std::optional<RunResult> measure(const std::string& commit, report::BisectProbe& probe);
    // GOOD under the fingerprint `key`: stored, or measured here when `here` (the key this
    // machine measures with).
    const RunResult* good_under(const std::string& key, bool here);
    RunResult only_judged(RunResult run) const;

    BisectSetup setup_;
    history::HistoryBackend* history_;
    const Context& ctx_;
    std::unique_ptr<runner::Worktree> worktree_;  // added on first use
    std::optional<valgrind::Installation> valgrind_;
    std::string good_commit_;
    std::map<std::string, RunResult> good_;            // by fingerprint key
    std::map<std::string, Measurement> measurements_;  // by commit
    std::vector<report::BisectProbe> probes_;
    std::size_t from_history_ = 0;
    std::size_t measured_ = 0;
};

}  // namespace cgbench::cli
