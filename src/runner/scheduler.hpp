#pragma once
// Runs the benchmarks of a suite side by side. Cachegrind's counts do not depend on what else
// the machine is doing, so parallel results equal sequential ones event for event; they are
// returned in suite order whatever finishes first.

#include <cstddef>
#include <functional>
#include <vector>

#include "core/result.hpp"
#include "runner/benchmark.hpp"

namespace cgbench::runner {

// Told when benchmarks start and finish (to draw progress). Calls come from worker threads,
// never two at once. Implementations must not throw.
class ProgressSink {
  public:
    virtual ~ProgressSink() = default;
    // Benchmark `index` (into the scheduled specs) has started.
    virtual void started(std::size_t index, const BenchmarkSpec& spec) = 0;
    // Benchmark `index` has its results (whatever their status; several for a benchmark that
    // measures regions).
    virtual void finished(std::size_t index, const std::vector<BenchmarkResult>& results) = 0;
};

// Measures one benchmark completely (all --verify runs): its results, one or (regions) more;
// may throw.
using MeasureFn = std::function<std::vector<BenchmarkResult>(const BenchmarkSpec&)>;

// Measures every spec on min(jobs, specs.size()) worker threads, each taking the next
// benchmark in suite order when it is free, and returns the results in the order of `specs`
// (the results of one spec together, in the order `measure` gave them).
// When `measure` throws, no further benchmark starts, the running ones finish, all workers are
// joined and the exception is rethrown: Interrupted in preference to any other, since after
// Ctrl-C every running measurement stops its process group and throws it.
std::vector<BenchmarkResult> run_scheduled(const std::vector<BenchmarkSpec>& specs, int jobs,
                                           const MeasureFn& measure, ProgressSink* progress);

}  // namespace cgbench::runner
