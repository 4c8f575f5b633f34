#pragma once
// Planning Google Benchmark binaries: each target (`--gbench`, `[[gbench]]`) is listed and
// becomes one benchmark per Google Benchmark benchmark, before sharding, so shards, -j and
// --keep-raw treat them like any other benchmark.

#include <functional>

#include "config/run_options.hpp"
#include "runner/gbench_list.hpp"

namespace cgbench::config {

using GbenchLister = std::function<runner::GbenchListing(const runner::BenchmarkSpec&)>;

// Replaces every target in `plan` by its benchmarks, named TARGET/BENCHMARK, in order. A
// suite's --filter (plan.gbench_name_filter) then selects among those names. Throws
// UsageError when nothing is left to measure, or (from `list`) for a binary that is not a
// Google Benchmark binary or whose filter matches nothing.
void expand_gbench(RunPlan& plan, const GbenchLister& list);

}  // namespace cgbench::config
