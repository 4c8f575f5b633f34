#pragma once
// Options of `cgbench compare`, from raw command-line input to a validated plan. Layered as
// everywhere: built-in < CGBENCH_* environment < command line.

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "compare/comparison.hpp"
#include "config/db_options.hpp"
#include "exec/environment.hpp"
#include "report/reporter.hpp"

namespace cgbench::config {

// What the command line said, unvalidated (CLI11 fills this).
struct CompareInput {
    std::optional<std::string> base;
    std::optional<std::string> head;
    DbInput db;
    std::optional<std::string> base_branch;
    std::vector<std::string> thresholds;
    bool force = false;
    bool fail_on_missing = false;
    std::optional<std::string> format;
    std::optional<std::string> out;
};

struct ComparePlan {
    std::optional<std::string> base;  // absent: the latest run at the merge base
    std::optional<std::string> head;  // absent: the latest run
    std::optional<std::filesystem::path> db;
    std::optional<std::string> base_branch;  // --base-branch or CGBENCH_BASE_BRANCH
    compare::CompareOptions options;
    report::Format format = report::Format::Console;
    std::optional<std::filesystem::path> out;
};

// Validates the input: thresholds (CGBENCH_THRESHOLD first, then each --threshold, later
// rules winning), format, database. Throws UsageError naming the option and the fix.
ComparePlan plan_compare(const CompareInput& input, const exec::EnvMap& env);

}  // namespace cgbench::config
