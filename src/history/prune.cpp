#include "history/prune.hpp"

#include <algorithm>
#include <map>

#include "history/lines.hpp"

namespace cgbench::history {

bool has_rules(const PruneRules& r) {
    return r.before || !r.branches.empty() || r.keep_last || r.dirty_only;
}

PruneSelection select_prune(const std::vector<Run>& runs, const PruneRules& r) {
    // Each run's rank within its branch, newest first.
    std::vector<std::size_t> rank(runs.size());
    std::map<std::string, std::size_t> seen;
    for (std::size_t i = runs.size(); i-- > 0;)
        rank[i] = seen[branch_of(runs[i])]++;
    const std::size_t protect = r.keep_last.value_or(kProtectedRuns);
    PruneSelection out;
    for (std::size_t i = 0; i < runs.size(); ++i) {
        const auto& run = runs[i];
        const auto branch = branch_of(run);
        const bool match =
            (!r.before || run.started < *r.before) &&
            (r.branches.empty() ||
             std::find(r.branches.begin(), r.branches.end(), branch) != r.branches.end()) &&
            (!r.keep_last || rank[i] >= *r.keep_last) &&
            (!r.dirty_only || run.git.dirty.value_or(false));
        if (!match) continue;
        if (branch == r.default_branch && rank[i] < protect) {
            ++out.protected_runs;
            continue;
        }
        out.drop.push_back(i);
    }
    return out;
}

}  // namespace cgbench::history
