#pragma once
// The per-benchmark half of planning a run (run_options.cpp does the run-wide half): layering
// each benchmark's settings, resolving suite-relative paths, --filter.

#include "config/run_options.hpp"
#include "config/suite.hpp"
#include "util/regex.hpp"

namespace cgbench::config {

// Adds the one benchmark of `cgbench run [OPTIONS] PROGRAM [ARGS...]` to `plan`.
void plan_single_benchmark(const RunInput& input, const exec::EnvMap& env, RunPlan& plan);

// Adds the entries of `suite` whose names match --filter (a regex searched in the name), in
// file order. Throws UsageError for options that only make sense for one program (--name,
// --cwd, --stdin), an invalid regex, a filter that matches nothing, or two names that would
// share --keep-raw files.
void plan_suite_benchmarks(const Suite& suite, const RunInput& input, const exec::EnvMap& env,
                           RunPlan& plan);

// Throws UsageError when two benchmarks of `plan` would share --keep-raw file names.
void check_raw_names(const RunPlan& plan);

// `filter` (--filter) compiled; UsageError naming it when it is not a regular expression.
util::Regex filter_regex(const std::string& filter);

}  // namespace cgbench::config
