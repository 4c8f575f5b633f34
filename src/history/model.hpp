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
    std::size_t benchmarks = 0;
    std::size_t failed = 0;
    std::string fingerprint_key;  // runs with different keys are not comparable
};

// One stored run.
struct Run {
    std::string id;
    std::string started;  // ISO-8601 UTC
    GitInfo git;
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

// What the backend read: every run, the distinct fingerprints they recorded, and the series
// of the benchmarks asked for.
struct History {
    std::vector<Run> runs;                  // oldest first: by start time, then recording order
    std::vector<Fingerprint> fingerprints;  // distinct, in order of first use
    std::vector<std::string> keys;          // parallel: each one's comparison key as recorded
    std::vector<Series> series;             // by name

    const Run& run_of(const Result& r) const { return runs[r.run]; }
    const Fingerprint& fingerprint_of(const Result& r) const {
        return fingerprints[runs[r.run].fingerprint];
    }
    const std::string& key_of(std::size_t run) const { return keys[runs[run].fingerprint]; }
};

// What git says about commits, by full commit id; commits git does not know are absent.
using Commits = std::map<std::string, CommitInfo, std::less<>>;

}  // namespace cgbench::history
