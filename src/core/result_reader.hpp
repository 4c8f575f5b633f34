#pragma once
// Fast reading of per-benchmark result documents (the SQLite history's `data` column, each
// benchmark of a result file). Reading a run back is mostly JSON parsing: nlohmann's parser
// and DOM plus the walk in core/result_json take about 60 ns per byte, a reader that knows the
// document's shape about a tenth, which decides whether `compare` of two 1,000-benchmark runs
// fits in 50 ms. The DOM reader stays the authority: this one declines any document holding a
// key, type or escape it does not know, and the caller then uses the DOM path, so fields added
// to the result model later are never lost, only read more slowly until this reader learns
// them.

#include <optional>
#include <string_view>
#include <vector>

#include "core/result.hpp"

namespace cgbench {

// The benchmark in `json` (one object of `to_json(BenchmarkResult)`), exactly as
// run_from_json would read it; nullopt when the document is not one this reader fully
// understands (unknown key, unexpected type, invalid JSON, inconsistent counts).
std::optional<BenchmarkResult> read_known_benchmark(std::string_view json);

// A benchmark's "functions" array alone (to_json of each; their keys in any order), exactly
// as functions_from_json would read it; nullopt when this reader declines it.
std::optional<std::vector<FunctionResult>> read_known_functions(std::string_view json);

}  // namespace cgbench
