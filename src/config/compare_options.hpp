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
    std::optional<std::string> format;  // checked by the command against report's formats
    std::optional<std::string> out;
    std::vector<std::string> reports;  // --report FORMAT=FILE, checked by the command
    std::optional<std::string> base_label;
    std::optional<std::string> head_label;
    std::optional<std::string> no_baseline;
    bool previous = false;
};

// Where BASE comes from.
enum class BaseChoice {
    Named,       // a result file, run id or git ref
    MergeBase,   // the latest run at the merge base of HEAD with the base branch
    Previous,    // the previous run of HEAD's branch (--previous)
    NoBaseline,  // none (--no-baseline WHY): every benchmark is added
};

struct ComparePlan {
    BaseChoice base_choice = BaseChoice::MergeBase;
    std::optional<std::string> base;        // with BaseChoice::Named
    std::optional<std::string> head;        // absent: the latest run
    std::optional<std::string> base_label;  // shown instead of how BASE was named
    std::optional<std::string> head_label;
    std::string no_baseline;  // why there is none (BaseChoice::NoBaseline)
    std::optional<history::Location> db;
    std::optional<std::string> base_branch;  // --base-branch or CGBENCH_BASE_BRANCH
    compare::CompareOptions options;
    std::optional<std::filesystem::path> out;
};

// Validates the input: thresholds (CGBENCH_THRESHOLD first, then each --threshold, later
// rules winning), database, where BASE comes from (with --previous or --no-baseline
// the one positional argument is HEAD). Throws UsageError naming the option and the fix.
ComparePlan plan_compare(const CompareInput& input, const exec::EnvMap& env);

}  // namespace cgbench::config
