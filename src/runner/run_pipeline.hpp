#pragma once
// A whole `cgbench run`: measure every benchmark (each --verify N times), gather git facts and
// the fingerprint, and return the model for reporters and the result file.

#include <filesystem>
#include <string>
#include <vector>

#include "core/result.hpp"
#include "exec/environment.hpp"
#include "exec/process.hpp"
#include "runner/benchmark.hpp"
#include "runner/scheduler.hpp"
#include "valgrind/installation.hpp"

namespace cgbench::runner {

struct RunRequest {
    std::vector<BenchmarkSpec> benchmarks;
    MeasureSettings settings;
    int verify = 1;                         // measure each benchmark this many times
    int jobs = 1;                           // benchmarks measured at the same time
    std::filesystem::path probe_cache_dir;  // where glibc probes are cached; empty: none
    std::filesystem::path git_dir;          // where to read git facts; empty: cwd
};

// Runs the request, `request.jobs` benchmarks at a time (`runner` must then be safe to call
// from several threads), telling `progress` (may be null) as they start and finish. Every
// benchmark is checked before any runs. Benchmark failures are recorded in the results
// (status, error), in the order of `request.benchmarks`; a benchmark whose repeated runs
// differ is marked failed with its spread; implausible results get warnings
// (plausibility.hpp). Throws UsageError / EnvironmentError / Interrupted
// as Measurer does.
RunResult execute_run(const RunRequest& request, const valgrind::Installation& inst,
                      exec::ProcessRunner& runner, const exec::EnvMap& caller,
                      ProgressSink* progress = nullptr);

// The fingerprint key execute_run(request, ...) records, known without measuring: each field
// of the key comes from the request, the installation and glibc's selection (probed as
// execute_run probes it, and cached).
std::string expected_key(const RunRequest& request, const valgrind::Installation& inst,
                         exec::ProcessRunner& runner, const exec::EnvMap& caller);

// Per-event min/max over repeated results; only events that differ are listed.
std::vector<EventSpread> event_spread(const std::vector<BenchmarkResult>& runs);

}  // namespace cgbench::runner
