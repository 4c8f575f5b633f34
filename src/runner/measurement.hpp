#pragma once
// How a benchmark is measured, one strategy per kind: the whole program under Cachegrind,
// the regions it marks (under Cachegrind on Valgrind 3.22 and later, else Callgrind), or one
// Google Benchmark benchmark under Callgrind. The measurer runs each spec through its
// strategy, and the fingerprint asks the strategies a run used for their tools and options,
// so a new kind (another Valgrind tool) is one more strategy, not a flag re-read in several
// places.

#include <string_view>
#include <vector>

#include "core/result.hpp"
#include "runner/benchmark.hpp"
#include "valgrind/command.hpp"
#include "valgrind/installation.hpp"

namespace cgbench::runner {

class Measurer;

class Measurement {
  public:
    virtual ~Measurement() = default;
    // What is measured: "program", "regions" or "gbench".
    virtual std::string_view kind() const = 0;
    // The Valgrind tool and behaviour options it runs with under `settings`.
    virtual valgrind::ToolOptions options(const MeasureSettings& settings) const = 0;
    // Measures `spec` once with `measurer`: one result, or one per region. Throws as
    // Measurer::measure does.
    virtual std::vector<BenchmarkResult> measure(Measurer& measurer, const BenchmarkSpec& spec,
                                                 int attempt) const = 0;
};

// The strategy for `spec` with Valgrind `inst` under `settings` (for regions, the tool
// settings.region_tool chooses). EnvironmentError (exit 4) when that tool cannot measure
// regions with `inst`.
const Measurement& measurement_for(const BenchmarkSpec& spec, const MeasureSettings& settings,
                                   const valgrind::Installation& inst);

// The distinct Valgrind options `specs` are measured with, Cachegrind's first; a run without
// benchmarks uses the whole-program options.
std::vector<valgrind::ToolOptions> tool_options_of(const std::vector<BenchmarkSpec>& specs,
                                                   const MeasureSettings& settings,
                                                   const valgrind::Installation& inst);

}  // namespace cgbench::runner
