#pragma once
// Which runs `cgbench prune` drops: the runs matching every rule given (age, branch, beyond
// the newest N of their branch, uncommitted changes), except the newest runs of the default
// branch, which no rule touches.

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "history/model.hpp"

namespace cgbench::history {

// How many of the default branch's newest runs no rule drops: keep_last when given (at least
// 1), else this many.
inline constexpr std::size_t kProtectedRuns = 100;

struct PruneRules {
    std::optional<std::string> before;   // started before this ISO-8601 time
    std::vector<std::string> branches;   // on one of these (branch_of names); empty: any
    std::optional<std::size_t> keep_last;  // beyond the newest N of their branch
    bool dirty_only = false;             // measured with uncommitted changes
    std::string default_branch;
};

struct PruneSelection {
    std::vector<std::size_t> drop;  // indices into the runs, oldest first
    std::size_t protected_runs = 0;  // matched a rule but kept: newest of the default branch
};

// True when `rules` say anything to drop by (an empty set of rules would drop everything).
bool has_rules(const PruneRules& rules);

// The runs of `runs` (History::runs: oldest first) that the rules drop.
PruneSelection select_prune(const std::vector<Run>& runs, const PruneRules& rules);

}  // namespace cgbench::history
