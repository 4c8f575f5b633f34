#pragma once
// How a benchmark is measured, one strategy per kind: the whole program under Cachegrind,
// the regions it marks (under Cachegrind on Valgrind 3.22 and later, else Callgrind), or one
// Google Benchmark benchmark under Callgrind; and the call-graph run flame graphs are drawn
// from (call_stacks.hpp). Each strategy holds its own steps (measure_program.cpp,
// measure_regions.cpp, gbench_measure.cpp, call_stacks.cpp) and runs the program through a
// Launcher (launcher.hpp), the shared steps. The measurer runs each spec through its
// strategy, and the fingerprint asks the strategies a run used for their tools and options,
// so a new kind (another Valgrind tool) is one more strategy, not a flag re-read in several
// places.

#include <string_view>
#include <vector>

#include "core/result.hpp"
#include "runner/benchmark.hpp"
#include "runner/launcher.hpp"
#include "valgrind/command.hpp"
#include "valgrind/installation.hpp"

namespace cgbench::runner {

// The Valgrind options of `tool` under `settings`, which a strategy's options() starts from.
valgrind::ToolOptions tool_options(const MeasureSettings& settings, valgrind::Tool tool);

class Measurement {
  public:
    virtual ~Measurement() = default;
    // What is measured: "program", "regions", "gbench" or "call-graph".
    virtual std::string_view kind() const = 0;
    // The Valgrind tool and behaviour options it runs with under `settings`.
    virtual valgrind::ToolOptions options(const MeasureSettings& settings) const = 0;
    // Measures `spec` once with `launcher`: one result, or one per region. `attempt`
    // (0-based) tells repeated runs apart (warm-up on the first, kept raw files' names).
    // Failures of the program come back as results; throws as Launcher::launch does.
    virtual std::vector<BenchmarkResult> measure(Launcher& launcher, const BenchmarkSpec& spec,
                                                 int attempt) const = 0;
};

// The whole program under Cachegrind, every process it starts counted as `spec.processes`
// says, into one result (measure_program.cpp).
class WholeProgram final : public Measurement {
  public:
    std::string_view kind() const override { return "program"; }
    valgrind::ToolOptions options(const MeasureSettings& settings) const override;
    std::vector<BenchmarkResult> measure(Launcher& launcher, const BenchmarkSpec& spec,
                                         int attempt) const override;
};

// The regions of the program under Callgrind, from one run's dump parts: one result per
// region, named SPEC/REGION, in order of first appearance. A failed program, no region
// reached, or markers that do not nest give one failed result named after `spec`
// (measure_regions.cpp).
class CallgrindRegions final : public Measurement {
  public:
    std::string_view kind() const override { return "regions"; }
    valgrind::ToolOptions options(const MeasureSettings& settings) const override;
    std::vector<BenchmarkResult> measure(Launcher& launcher, const BenchmarkSpec& spec,
                                         int attempt) const override;
};

// The same under Cachegrind (Valgrind >= 3.22): one run per region name, each instrumenting
// only that region; the first measures the first region begun and logs the markers of the
// others (a run that only logs markers follows when regions nest inside the first). A
// program whose log holds no marker (built against an older <cgbench/cgbench.h>, or marking
// no region) is measured by CallgrindRegions, with a warning when it does have regions. A
// region run that fails, or does not reach its region, gives one failed result named after
// `spec` (measure_regions.cpp).
class CachegrindRegions final : public Measurement {
  public:
    std::string_view kind() const override { return "regions"; }
    valgrind::ToolOptions options(const MeasureSettings& settings) const override;
    std::vector<BenchmarkResult> measure(Launcher& launcher, const BenchmarkSpec& spec,
                                         int attempt) const override;
};

// The Google Benchmark benchmark of `spec` (`spec.gbench` set and listed) under Callgrind:
// one result whose events and cost are per iteration of its measured loop, in the last of
// three repetitions. A benchmark that fails, calls SkipWithError or has no measured loop
// gives a failed result saying why (gbench_measure.cpp).
class GbenchBenchmark final : public Measurement {
  public:
    std::string_view kind() const override { return "gbench"; }
    valgrind::ToolOptions options(const MeasureSettings& settings) const override;
    std::vector<BenchmarkResult> measure(Launcher& launcher, const BenchmarkSpec& spec,
                                         int attempt) const override;
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
