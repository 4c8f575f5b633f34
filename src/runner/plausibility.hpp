#pragma once
// Results too good to be true. A benchmark whose loop the compiler removed measures almost
// nothing (seed 000's "0 ns"); variants whose parameter is ignored cost exactly the same.
// Neither is an error, so cgbench says so in the results' warnings, which every reporter
// shows.

#include <cstdint>
#include <vector>

#include "core/result.hpp"

namespace cgbench::runner {

// A region that executes fewer instructions than this has probably lost its body to the
// optimiser: the markers alone take about 15, a loop of a few hundred iterations takes
// thousands. Whole programs are not checked: start-up alone is ~100,000 instructions.
inline constexpr std::uint64_t kMinRegionInstructions = 1000;

// A Google Benchmark loop that executes fewer instructions than this (all iterations of the
// measured repetition together) has lost its body to the optimiser: one empty iteration of
// `for (auto _ : state)` takes 5 with libbenchmark linked dynamically (the jump through the
// PLT to FinishKeepRunning counts), 4 linked statically; parsing a one-byte varint 24.
// Per-iteration costs below it are fine when KeepRunningBatch runs many iterations.
inline constexpr std::uint64_t kMinLoopInstructions = 12;

// The family of a benchmark name: the name without its last parameter, the part after its
// last '/', ' ', ':', '=' or ','. "parse/1000" -> "parse"; empty when there is none.
std::string name_family(std::string_view name);

// Whether `a` and `b` are variants of one benchmark: the same family of names, or the same
// program (and region) run with other arguments.
bool are_variants(const BenchmarkResult& a, const BenchmarkResult& b);

// Adds a warning to every measured result in `results` that is a region with fewer than
// kMinRegionInstructions instructions, a Google Benchmark result with fewer than
// kMinLoopInstructions per iteration, or a variant of another result that executed exactly
// the same instructions and memory accesses (cache misses may differ: they depend on what
// ran before).
void flag_implausible(std::vector<BenchmarkResult>& results);

}  // namespace cgbench::runner
