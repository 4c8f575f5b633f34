#pragma once
// The history as plain values, whatever stores it: the runs (git facts and the fingerprint
// each recorded) and each benchmark's results over them. A history backend
// (history/backend.hpp) fills these; everything under src/history/ decides what they mean
// (lines per branch, epochs, changes, steps) without knowing which backend it was.

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/result.hpp"

namespace cgbench::history {

// One stored run, without its benchmarks (for listings).
struct RunRow {
    std::string id;
    std::string started;
    GitInfo git;
    std::string recorded_by;  // RunResult::recorded_by
    std::size_t benchmarks = 0;
    std::size_t failed = 0;
    std::string fingerprint_key;  // runs with different keys are not comparable
};

// One stored run.
struct Run {
    std::string id;
    std::string started;  // ISO-8601 UTC
    GitInfo git;
    std::string recorded_by;      // RunResult::recorded_by
    std::size_t fingerprint = 0;  // index into History::fingerprints
    std::int64_t handle = 0;      // the backend's own reference to the run (SQLite: runs.seq)
};

// One benchmark's result in one run.
struct Result {
    std::size_t run = 0;        // index into History::runs
    std::int64_t position = 0;  // the result's place in its run (for its details)
    BenchStatus status = BenchStatus::Ok;
    std::optional<std::uint64_t> cost;  // only when ok
    std::optional<std::uint64_t> ir;
};

// One benchmark's results, in the order of History::runs.
struct Series {
    std::string name;
    std::vector<Result> results;
};

// Two commits of one branch that cannot both be on its first-parent line: the branch was
// rewritten (force-pushed) or its name reused.
struct LineConflict {
    std::string branch;
    std::string before;  // the commit ordered first
    std::string after;
    std::uint64_t depth = 0;  // `after`'s place on its first-parent line
    bool same_place = false;  // both at `depth`; else `after` follows a commit other than `before`
};

// How History::runs were put in order (history::order_runs; a backend leaves it as it is).
struct Ordering {
    bool done = false;
    std::size_t ancestry = 0;     // runs placed by their place on their first-parent line
    std::size_t commit_time = 0;  // by commit time: read in a shallow clone (line cut)
    std::size_t measured = 0;     // with a commit, by start time: recorded without git's facts
    std::vector<LineConflict> conflicts;  // the first few
    std::size_t conflict_count = 0;
};

// What the backend read: every run, the distinct fingerprints they recorded, and the series
// of the benchmarks asked for.
struct History {
    // As a backend reads them oldest first: by start time, then recording order; once
    // history::order_runs put them in commit order, in that order.
    std::vector<Run> runs;
    std::vector<Fingerprint> fingerprints;  // distinct, in order of first use
    std::vector<std::string> keys;          // parallel: each one's comparison key as recorded
    std::vector<Series> series;             // by name
    Ordering ordering;

    const Run& run_of(const Result& r) const { return runs[r.run]; }
    const Fingerprint& fingerprint_of(const Result& r) const {
        return fingerprints[runs[r.run].fingerprint];
    }
    const std::string& key_of(std::size_t run) const { return keys[runs[run].fingerprint]; }
};

// What git says about commits, by full commit id; commits git does not know are absent.
using Commits = std::map<std::string, CommitInfo, std::less<>>;

}  // namespace cgbench::history
