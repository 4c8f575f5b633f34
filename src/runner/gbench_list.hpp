#pragma once
// Listing the benchmarks of a Google Benchmark binary: it runs natively (not under Valgrind),
// from an argv vector with a timeout, in the environment the measured runs get.

#include <string>
#include <vector>

#include "exec/environment.hpp"
#include "exec/process.hpp"
#include "runner/benchmark.hpp"

namespace cgbench::runner {

struct GbenchListing {
    std::vector<std::string> benchmarks;  // full names, in the binary's order
    std::string min_time;                 // --benchmark_min_time for one iteration: "0" | "1x"
};

// Lists the benchmarks of `spec` (a target: `spec.gbench` set, `benchmark` empty) matching its
// filter. Throws UsageError when the program is missing, is not a Google Benchmark binary,
// fails to list, or its filter matches no benchmark; Interrupted on Ctrl-C.
GbenchListing list_gbench(const BenchmarkSpec& spec, exec::ProcessRunner& runner,
                          const exec::EnvMap& caller);

// One spec per listed benchmark, named SPEC/BENCHMARK, with `gbench.benchmark` set.
std::vector<BenchmarkSpec> expand_gbench_target(const BenchmarkSpec& target,
                                                const GbenchListing& listing);

}  // namespace cgbench::runner
