#pragma once
// Options of `cgbench pr`, the pull-request gate, from raw input to a checked plan: everything
// is validated (the threshold, --command's words, the shard, where the base comes from, the
// alert settings) before anything is built or measured.

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "ci/facts.hpp"
#include "compare/comparison.hpp"
#include "config/run_options.hpp"
#include "exec/environment.hpp"

namespace cgbench::config {

// What the command line said, unvalidated (CLI11 fills this).
struct PrInput {
    std::optional<std::string> base;
    std::optional<std::string> build;
    std::optional<std::string> suite;
    std::optional<std::string> command;  // shell words, split without a shell
    std::optional<std::string> name;
    std::optional<std::string> threshold;
    std::string out_dir = "cgbench-pr";
    std::optional<std::string> shard;
    bool report_only = false;
    std::optional<std::string> history;
    bool no_reuse = false;
    bool warn_only = false;
    bool keep_raw = false;
    bool no_flame = false;
    std::optional<std::string> alert_webhook;
    std::optional<std::string> alert_format;
    std::optional<std::string> alert_issue;
    std::optional<std::string> alert_timeout;
    std::optional<std::string> alert_state;
};

// Where alerts go when a push regresses against its branch's previous run (branch mode).
struct AlertPlan {
    std::optional<std::string> webhook;  // http(s) URL; --alert-webhook, CGBENCH_ALERT_WEBHOOK
    bool slack = false;                  // Slack's payload ({"text": ...}) instead of cgbench's
    std::optional<std::string> issue;    // "github" or "gitlab": open or update an issue
    double timeout_seconds = 10;         // per attempt
    int attempts = 3;
    std::optional<std::filesystem::path> state;  // the steps already alerted
    bool any() const { return webhook || issue; }
};

struct PrPlan {
    RunInput run;  // the benchmarks, as `cgbench run` in the working directory
    std::optional<std::string> build;
    std::vector<std::string> thresholds;  // CGBENCH_THRESHOLD first, then --threshold
    compare::CompareOptions gate;
    std::filesystem::path out_dir;     // absolute
    std::optional<std::string> shard;  // "K/N" (--shard, else the CI's parallel job)
    bool report_only = false;
    std::optional<history::Location> history;  // a file made absolute
    // Whether the base may be a run the history holds instead of a build (not --no-reuse).
    bool reuse = true;
    bool warn_only = false;
    bool keep_raw = false;
    // Whether the regressed benchmarks get differential flame graphs (not --no-flame).
    bool flame = true;
    std::optional<std::string> base;         // --base, else the CI's; none: branch mode
    std::optional<std::string> base_branch;  // the branch the CI says the base stands for
    AlertPlan alerts;
    ci::Facts ci;
};

// Validates `input` against the CI facts of `env`, relative to `cwd`. Throws UsageError naming
// the option (or the CI variables a pull-request job lacks) and the fix.
PrPlan plan_pr(const PrInput& input, const exec::EnvMap& env, const std::filesystem::path& cwd);

}  // namespace cgbench::config
