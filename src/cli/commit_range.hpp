#pragma once
// The commits a range names for `cgbench backfill`: its first-parent commits, a sample of
// them, and the branch they belong to. Git answers; UsageErrors name what it does not know.

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "exec/environment.hpp"
#include "exec/git.hpp"

namespace cgbench::cli {

// The first-parent commits of `range` ("A..B": after A up to B; "B": B and its first-parent
// ancestors), oldest first. UsageError for an end git does not know (a commit the clone
// lacks, a shallow clone's past), for "A...B", and for a range that holds no commit.
std::vector<std::string> first_parent_commits(const exec::Git& git, const std::string& range);

// Every `every`th of `commits` counting back from the newest (which is always kept), then
// the newest `last` of those.
std::vector<std::string> every_and_last(const std::vector<std::string>& commits, std::size_t every,
                                        std::optional<std::size_t> last);

// The branch the commits of `range` belong to: the branch `range` ends at (local, or a remote's
// without the remote's name), else CGBENCH_BRANCH in `env`, else the current branch when its
// first-parent line holds `newest`. UsageError when none says.
std::string branch_of_range(const exec::Git& git, const std::string& range, const exec::EnvMap& env,
                            const std::string& newest);

}  // namespace cgbench::cli
