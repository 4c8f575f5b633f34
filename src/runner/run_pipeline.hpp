#pragma once
// A whole `cgbench run`: measure every benchmark (each --verify N times), gather git facts and
// the fingerprint, and return the model for reporters and the result file.

#include <filesystem>
#include <vector>

#include "core/result.hpp"
#include "exec/environment.hpp"
#include "exec/process.hpp"
#include "runner/benchmark.hpp"
#include "valgrind/installation.hpp"

namespace cgbench::runner {

struct RunRequest {
    std::vector<BenchmarkSpec> benchmarks;
    MeasureSettings settings;
    int verify = 1;                            // measure each benchmark this many times
    std::filesystem::path probe_cache_dir;     // where glibc probes are cached; empty: none
    std::filesystem::path git_dir;             // where to read git facts; empty: cwd
};

// Runs the request. Benchmark failures are recorded in the results (status, error); a
// benchmark whose repeated runs differ is marked failed with its spread; implausible results
// get warnings (plausibility.hpp). Throws UsageError / EnvironmentError / Interrupted as
// Measurer does.
RunResult execute_run(const RunRequest& request, const valgrind::Installation& inst,
                      exec::ProcessRunner& runner, const exec::EnvMap& caller);

// Per-event min/max over repeated results; only events that differ are listed.
std::vector<EventSpread> event_spread(const std::vector<BenchmarkResult>& runs);

}  // namespace cgbench::runner
