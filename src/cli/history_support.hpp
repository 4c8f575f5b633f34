#pragma once
// What `steps`, `history` and `report` share: reading the history for history policy, the
// steps with what moved at each, and what git says about the commits involved.

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "cli/context.hpp"
#include "history/backend.hpp"
#include "history/model.hpp"
#include "history/steps.hpp"

namespace cgbench::cli {

// The steps of `h` (history::find_all_steps) with what moved at each, read back from
// `store` (events, derived hits, stored functions).
std::vector<history::BranchSteps> explained_steps(history::HistoryBackend& store,
                                                  const history::History& h,
                                                  const history::StepsOptions& options);
// What moved at each step of `branches` (found over the runs of `h`), read back from `store`.
void explain_steps(history::HistoryBackend& store, const history::History& h,
                   std::vector<history::BranchSteps>& branches);

// Subjects of the commits of `runs` (indices into h.runs): as recorded with the run, else
// from git in `ctx`'s working directory (none outside a repository that has them).
history::Commits commit_subjects(const history::History& h, const std::vector<std::size_t>& runs,
                                 const Context& ctx);

// The runs the events and epochs of `branches` refer to.
std::vector<std::size_t> runs_of(const std::vector<history::BranchSteps>& branches);

// UsageError for a benchmark name that `store` has no results for, suggesting the closest
// stored name.
[[noreturn]] void unknown_benchmark(history::HistoryBackend& store, const std::string& name);

// Checks that `branch` was recorded in `h`; UsageError listing the recorded branches otherwise.
void check_branch(const history::History& h, const std::string& branch);

}  // namespace cgbench::cli
