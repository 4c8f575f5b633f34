#pragma once
// A benchmark's history as lines: one per branch, one point per measured commit, broken into
// epochs where the fingerprint's key changes, with the change of each cost against the
// previous comparable one. Results measured with uncommitted changes belong to no commit and
// are left out of lines.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "history/model.hpp"

namespace cgbench::history {

// How history names the branch of runs recorded without one: a detached checkout without
// CGBENCH_BRANCH (a line of its own), a bisect probe (on no line).
inline constexpr std::string_view kNoBranch = "(detached)";
// What kNoBranch was called before; `prune --branch` still takes it.
inline constexpr std::string_view kNoBranchBefore = "(no branch)";

// The branch a run belongs to in lines: its git branch, or kNoBranch.
std::string branch_of(const Run& run);

// Whether `run` belongs on its branch's line: measured on a clean work tree, and not a
// probe of `cgbench bisect` (recorded to answer one question, never part of a line).
bool on_lines(const Run& run);
// Whether `run` is a probe of `cgbench bisect`.
bool is_probe(const Run& run);

// One benchmark's results on one branch, oldest first: clean work trees only, one point per
// commit and environment (the latest result measured there; a commit measured again later
// keeps its place), failed results included.
struct Line {
    std::string branch;
    std::vector<Result> points;
    // How far apart (relative) repeated measurements of one commit in one environment were:
    // evidence of the benchmark's wobble. Empty when every repeat gave the same cost.
    std::vector<double> repeats;
};

// For each of `h.fingerprints`, the index of the first fingerprint with the same environment
// (same_environment): fingerprints that differ only in facts that do not move counts share
// a class.
std::vector<std::size_t> environment_classes(const History& h);

// What building lines needs about each run, computed once per history.
struct RunKeys {
    std::vector<std::size_t> classes;   // per fingerprint: environment_classes(h)
    std::vector<std::uint32_t> commit;  // per run: one number per distinct commit; kNoCommit
    std::vector<std::uint32_t> branch;  // per run: index into `branches`
    std::vector<std::string> branches;  // branch_of names
    // per run: one number per distinct (commit, environment class), 0, 1, 2...; kNoCommit
    // for a run without a commit. A line keeps one point per slot.
    std::vector<std::uint32_t> slot;
    std::uint32_t slots = 0;  // how many distinct slots
    static constexpr std::uint32_t kNoCommit = UINT32_MAX;
};
RunKeys run_keys(const History& h);

// The lines of `series`: `default_branch` first, then the other branches in the order they
// were first measured. `keys` from run_keys(h).
std::vector<Line> lines_of(const History& h, const Series& series, const RunKeys& keys,
                           std::string_view default_branch);

// The results of `series` measured with uncommitted changes (probes left out): on no line,
// shown apart.
std::vector<Result> dirty_results(const History& h, const Series& series);

// The default branch: `preferred` when given, else "main" or "master" when recorded, else the
// branch with the most clean runs; "" when no run has a branch.
std::string default_branch(const History& h, const std::optional<std::string>& preferred);

// A stretch of consecutive items measured with one fingerprint key: comparable within,
// not across.
struct Epoch {
    std::size_t first = 0;        // index of its first item
    std::size_t last = 0;         // of its last
    std::size_t fingerprint = 0;  // of its first item (History::fingerprints)
};

// The epochs of `points` (in their order).
std::vector<Epoch> epochs_of(const History& h, const std::vector<Result>& points);
// The epochs of the runs `runs` (indices into h.runs, in their order).
std::vector<Epoch> epochs_of_runs(const History& h, const std::vector<std::size_t>& runs);

// The change of each ok point's cost against the previous ok point of its epoch, parallel
// to `points`; nullopt for failed points and for the first ok point of each epoch.
std::vector<std::optional<double>> changes_of(const History& h, const std::vector<Result>& points);

// (after - before) / before; nullopt when before is 0.
std::optional<double> relative_change(std::uint64_t before, std::uint64_t after);

}  // namespace cgbench::history
