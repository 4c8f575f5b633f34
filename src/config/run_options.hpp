#pragma once
// Options of `cgbench run`, from raw command-line input (and a suite file) to a validated plan.
// Validation happens here, before anything runs: a bad geometry or a typo in the suite fails
// in milliseconds, not after a ten-minute measurement. The layering order is in layered.hpp.

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "config/db_options.hpp"
#include "config/layered.hpp"
#include "config/shard.hpp"
#include "exec/environment.hpp"
#include "runner/run_pipeline.hpp"

namespace cgbench::config {

// What the command line said, unvalidated (CLI11 fills this).
struct RunInput {
    std::vector<std::string> command;
    std::optional<std::string> suite;
    // The directory the suite's relative paths start from instead of the file's own: the
    // caller's suite measuring another commit checked out elsewhere (bisect, backfill).
    std::optional<std::string> suite_dir;
    std::optional<std::string> filter;
    std::optional<std::string> shard;
    std::optional<std::string> jobs;
    std::optional<std::string> threshold;
    std::optional<std::string> name;
    std::optional<std::string> geometry;
    std::optional<std::string> weights;
    std::optional<std::string> cpu_baseline;
    std::optional<std::string> region_tool;  // "auto" | "cachegrind" | "callgrind"
    std::optional<std::string> timeout;
    std::optional<std::string> format;
    std::optional<std::string> out;
    std::vector<std::string> reports;  // --report FORMAT=FILE, checked by the command
    std::optional<std::string> keep_raw;
    std::optional<std::string> cwd;
    std::optional<std::string> stdin_path;
    std::vector<std::string> env;
    std::optional<std::string> processes;      // "tree" | "main"
    std::optional<std::string> warmup;         // native runs before measuring
    std::optional<std::string> max_processes;  // processes a run may start
    bool allow_child_crash = false;
    DbInput db;
    int verify = 1;
    bool branch_sim = false;
    bool fixed_clock = false;
    bool fixed_random = false;
    bool show_output = false;
    bool regions = false;
    std::optional<std::string> gbench;  // a Google Benchmark binary; `command` is its extra args
    // A result file: benchmarks it lacks are new, and verified (--verify-new).
    std::optional<std::string> verify_new;
};

// The layered run-wide settings (for `config show` and the fingerprint).
struct RunSettings {
    Layered geometry = layered_default("ci-default");
    Layered weights = layered_default("pythonspeed");
    Layered cpu_baseline = layered_default("portable");
    Layered branch_sim = layered_default("off");
    Layered region_tool = layered_default("auto");  // which tool measures regions
    Layered fixed_clock = layered_default("off");   // "on": a clock that advances per read
    Layered fixed_random = layered_default("off");  // "on": a seeded entropy stream
    Layered format = layered_default("console");
    Layered jobs = layered_default("1");  // built-in: the number of cores
    Layered shard = layered_default("");  // "K/N"; empty: the whole suite
};

// The layered settings of one benchmark, as `config show` lists them; the matching
// BenchmarkSpec holds the parsed values.
struct BenchmarkSettings {
    Layered command;
    Layered cwd;
    Layered stdin_path;
    Layered timeout = layered_default("");     // empty: no timeout
    Layered threshold = layered_default("");   // empty: compare's default
    Layered regions = layered_default("off");  // "on": one result per marked region
    // Google Benchmark: "off", the target's filter before listing, the benchmark after it.
    Layered gbench = layered_default("off");
    Layered processes = layered_default("tree");         // which processes count
    Layered allow_child_crash = layered_default("off");  // "on": a crashed child is no failure
    Layered max_processes = layered_default("1000");     // processes a run may start
    Layered warmup = layered_default("1");               // native runs before measuring
    Layered verify = layered_default("1");  // runs that must repeat when the benchmark is new
    std::vector<Layered> env;               // each request with the layer that added it
};

struct RunPlan {
    runner::RunRequest request;
    RunSettings settings;
    std::vector<BenchmarkSettings> benchmark_settings;  // parallel to request.benchmarks
    std::filesystem::path suite;                        // empty: a single program
    std::optional<Shard> shard;
    std::string shard_balance;      // how apply_shard balanced: "history run ID" or "names"
    std::string shard_suite;        // apply_shard: a hash of the names the split divides
    std::size_t suite_entries = 0;  // [[bench]] entries in the suite file
    std::size_t suite_size = 0;     // benchmarks selected (--filter) before sharding
    std::optional<std::filesystem::path> out;
    std::optional<history::Location> db;  // the history; nullopt with --no-db
    // A suite's --filter, applied to the names of Google Benchmark benchmarks once listed.
    std::optional<std::string> gbench_name_filter;
};

struct Suite;

// The output format of `run` and `merge`, layered: built-in console < CGBENCH_FORMAT in `env`
// < `format` (--format). A suite cannot set it. Not validated here: the commands check it
// against report/formats.hpp, the table of formats, which lies above this layer.
Layered layered_format(const std::optional<std::string>& format, const exec::EnvMap& env);

// The run-wide layers: built-in < `suite` [defaults] (may be null) < CGBENCH_* (and
// CI_NODE_*) in `env` < command line. Not validated; plan_run validates.
RunSettings layer_run_settings(const RunInput& input, const exec::EnvMap& env, const Suite* suite);

// The run-wide settings without a suite, each validated as plan_run validates it (`config
// show` with neither a program nor a suite). Throws UsageError naming the setting.
RunSettings checked_run_settings(const RunInput& input, const exec::EnvMap& env);

// Resolves the layers (built-in < suite [defaults] < suite entry < CGBENCH_* in `env`,
// CGBENCH_DB included, < command line) and validates every value. Without a program and without
// --suite, a cgbench.toml in the current directory is used. Throws UsageError naming the setting
// and the fix.
RunPlan plan_run(const RunInput& input, const exec::EnvMap& env);

// Keeps only the benchmarks of `plan.shard` (when set), in suite order, balanced by
// `previous_costs` when given and by name otherwise (see shard_members); `balance` says
// which (recorded in the result so `merge` can check every shard used the same).
// Marks the benchmarks `known` lacks (names of a baseline: --verify-new's result file, or
// the history) as new: each then runs max(its suite `verify`, `new_runs`) times and must
// repeat. nullopt: no baseline to look in, so every benchmark is new.
void plan_new_verification(RunPlan& plan, const std::optional<std::vector<std::string>>& known,
                           int new_runs);

void apply_shard(RunPlan& plan, const std::optional<CostMap>& previous_costs,
                 std::string balance = "names");

}  // namespace cgbench::config
