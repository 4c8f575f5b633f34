#pragma once
// Which stored run answers a question, decided over any HistoryBackend: a run by id, the
// latest one, the latest at a commit (a clean work tree before a dirty one), the previous
// run of a branch, and a commit's runs merged into one (one `cgbench run` per benchmark
// compares like one suite run). Also recording a single run.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.hpp"
#include "history/backend.hpp"

namespace cgbench::history {

// Stores `run` and all its benchmarks (failed ones too) in a batch of its own: either all of
// it is stored or nothing. EnvironmentError when a run with its id is stored already.
void record_run(HistoryBackend& history, const RunResult& run);

// The most recently started complete (not shard) run with an ok result for any of `names`,
// and the costs of those of `names` it measured: one run, so every job reading the same
// history gets the same numbers (for balancing shards). nullopt when none was measured.
std::optional<StoredCosts> latest_costs(HistoryBackend& history,
                                        const std::vector<std::string>& names);

// The runs these return bring their results' kept source lines and functions unless `parts`
// skips them (HistoryBackend::load_run).

// The run with this id.
std::optional<RunResult> run_by_id(HistoryBackend& history, std::string_view id,
                                   RunParts parts = {});
// The most recently started run other than `exclude_id`.
std::optional<RunResult> latest_run(HistoryBackend& history, RunParts parts,
                                    std::string_view exclude_id = {});
// The most recently started run at `commit` not in `exclude`, preferring runs of a clean
// work tree over dirty ones.
std::optional<RunResult> latest_run_at_commit(HistoryBackend& history, std::string_view commit,
                                              RunParts parts,
                                              const std::vector<std::string>& exclude = {});
// The most recently started run of a clean work tree on `branch` whose fingerprint key is
// `fingerprint_key`, not in `exclude`: the previous run of a branch CI watches. Runs that
// `backfill` recorded (past commits, measured later) only when the branch has no other.
std::optional<RunResult> latest_run_on_branch(HistoryBackend& history, std::string_view branch,
                                              std::string_view fingerprint_key, RunParts parts,
                                              const std::vector<std::string>& exclude = {});

// `anchor` completed with what else was recorded at its commit: for each benchmark it lacks,
// the latest result from other runs at that commit with the same fingerprint key and
// work-tree state (clean or dirty), skipping runs in `exclude`. Appends the ids of the runs
// drawn on (`anchor`'s first) to `used`.
RunResult complete_from_commit(HistoryBackend& history, RunResult anchor,
                               const std::vector<std::string>& exclude,
                               std::vector<std::string>& used, RunParts parts);
// The latest run at `commit` of a clean work tree, completed from its commit as
// complete_from_commit does; nullopt when none was recorded there.
std::optional<RunResult> clean_run_at_commit(HistoryBackend& history, std::string_view commit,
                                             RunParts parts);

}  // namespace cgbench::history
