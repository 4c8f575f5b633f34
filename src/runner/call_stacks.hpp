#pragma once
// The call-graph measurement, a strategy (measurement.hpp) of its own: a benchmark's program
// run once under Callgrind, collecting from the start, its caller/callee costs turned into
// cgbench's call tree (core/call_tree.hpp) for a flame graph. Not a gating measurement: its
// counts are Callgrind's, and the tree's costs are weighted costs.

#include <cstddef>
#include <string>

#include "core/call_tree.hpp"
#include "core/result.hpp"
#include "metrics/profile.hpp"
#include "metrics/score.hpp"
#include "runner/benchmark.hpp"
#include "runner/launcher.hpp"
#include "runner/measurement.hpp"
#include "valgrind/command.hpp"

namespace cgbench::runner {

// Bounds of a call tree built from a call graph: a path whose cost is below kMinCallShare
// of the whole, deeper than kMaxCallDepth, or past kMaxCallNodes nodes goes into its
// caller's kOtherCalls frame.
inline constexpr double kMinCallShare = 1e-4;
inline constexpr std::size_t kMaxCallDepth = 200;
inline constexpr std::size_t kMaxCallNodes = 100'000;

// The call tree of a Callgrind profile read with collect_functions and collect_calls.
// Callgrind records each caller/callee pair, not whole stacks, so the paths are rebuilt from
// the roots (functions nobody calls) down: a function's self cost and calls are shared out
// among the paths reaching it in proportion to the cost each path's call carries (as
// KCachegrind's call graph and gprof do); a call back into a function already on the path
// (recursion) is not followed, its cost being that function's own. Costs under `weights`.
CallTree call_tree_of(const metrics::Profile& profile, const metrics::Weights& weights,
                      std::string root_name);

// A call-graph measurement: the run's status and totals (`result`), and its call tree.
struct CallProfile {
    BenchmarkResult result;
    CallTree tree;
};

// The call-graph run: the program of a spec once under Callgrind (no warm-up; a region or
// Google Benchmark spec runs as the whole program), the started process's call tree.
class CallGraph final : public Measurement {
  public:
    std::string_view kind() const override { return "call-graph"; }
    valgrind::ToolOptions options(const MeasureSettings& settings) const override;
    // The run's result alone (its call tree: measure_tree()).
    std::vector<BenchmarkResult> measure(Launcher& launcher, const BenchmarkSpec& spec,
                                         int attempt) const override;
    // The run's status and totals, and its call tree. A program that fails gives its failed
    // result and an empty tree. Throws as Launcher::launch does.
    CallProfile measure_tree(Launcher& launcher, const BenchmarkSpec& spec) const;
};

}  // namespace cgbench::runner
