#pragma once
// Per-function costs for a result: the costliest functions of a profile, compactly, so that
// a change in cost can be explained by the functions that moved (compare/attribution.hpp).

#include <cstddef>
#include <vector>

#include "core/result.hpp"
#include "metrics/profile.hpp"
#include "metrics/score.hpp"

namespace cgbench::runner {

// How many functions a result keeps: enough to explain a change (the rest is one entry).
inline constexpr std::size_t kTopFunctions = 30;

// The `limit` functions of `profile` with the highest cost under `weights` (ties by file and
// name), highest first, then one "(other)" entry summing the rest (and the profile's own
// "(other)", see metrics::ProfileRequest::function_limit) when there is a rest.
// Functions with no cost are left out. Each keeps the events its cost needs. Throws
// UsageError when a function's counts are inconsistent (see metrics::derive).
std::vector<FunctionResult> top_functions(const metrics::Profile& profile,
                                          const metrics::Weights& weights,
                                          std::size_t limit = kTopFunctions);

// How many source lines a result keeps: the hot spots, enough to point at the lines that
// moved (the rest of their cost stays in their functions).
inline constexpr std::size_t kTopLines = 20;

// Sets `result.lines` to the `limit` costliest lines of `profile` under `weights` (ties by
// file, function and line), each with its source text when the file is readable, and
// `result.line_info` to whether Cachegrind placed any cost on a line (unknown when the
// profile did not collect lines).
void attach_lines(const metrics::Profile& profile, const metrics::Weights& weights,
                  BenchmarkResult& result, std::size_t limit = kTopLines);

// Parse options that collect the kTopFunctions costliest functions and kTopLines costliest
// lines under `weights` (what top_functions and attach_lines keep), copying no other names.
metrics::ProfileRequest top_function_options(const metrics::Weights& weights);

}  // namespace cgbench::runner
