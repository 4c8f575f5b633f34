#pragma once
// Gate thresholds (DESIGN §5). Counts are deterministic, so a threshold is not noise
// protection: it says how much change is acceptable. A metric regresses when it grows by
// more than its relative threshold AND by more than its absolute floor.
//
// The one grammar of every threshold cgbench reads (`run --threshold`, the suite's
// `threshold`, `compare --threshold`, CGBENCH_THRESHOLD, `cgbench-pr --threshold`):
//
//   SPEC  = [GLOB:]RULE[,RULE...]      RULE = [METRIC=]VALUE (METRIC defaults to cost)
//   VALUE = REL%[|ABS] | off           e.g. 2%   cost=1%,Ir=0.5%|10000   'parse/*:5%'   D1mr=off
//
// METRIC is the name of a metric of metrics::kMetrics, in any case; it parses to its key.
//
// For each benchmark and metric the last matching rule wins: the built-in default, then
// what the benchmark's result recorded, then the rules added here (rules with a GLOB after
// those without). Without rules only cost is gated, at +1% and 1,000 units.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "metrics/metric.hpp"

namespace cgbench::compare {

// Default gate on cost: more than +1.0% ...
inline constexpr double kDefaultCostRelative = 0.01;
// ... and more than 1,000 cost units: a fixed cost below which a change is too small to act
// on (about 1,000 instructions, or 28 RAM misses), whatever the benchmark's size.
inline constexpr std::uint64_t kDefaultCostFloor = 1000;
// Changes smaller than 0.1% are reported as unchanged.
inline constexpr double kReportedChange = 0.001;

// The grammar in one line, for error messages and help.
inline constexpr std::string_view kThresholdHint =
    "write [GLOB:][METRIC=]REL%[|ABS] or METRIC=off, several separated by commas, e.g. 2%, "
    "cost=1%|1000, cost=1%,Ir=0.5%|10000 or 'parse/*:5%' (METRIC defaults to cost)";

// When a metric regresses (or improves): a relative change and an absolute floor.
struct Threshold {
    double relative = kDefaultCostRelative;  // fraction: 0.01 is 1%
    std::uint64_t absolute = 0;              // the change must also exceed this many units
    bool off = false;                        // METRIC=off: shown, never gated

    // "+1.00% and 1,000" (or "+1.00%" without a floor, "off").
    std::string describe() const;
    friend bool operator==(const Threshold&, const Threshold&) = default;
};

// One METRIC=VALUE of a --threshold, for the benchmarks its pattern matches.
struct ThresholdRule {
    std::string pattern;  // glob on benchmark names (fnmatch, `*` crosses `/`); empty: all
    metrics::Metric metric;
    Threshold threshold;
};

// Parses one threshold SPEC into its rules (in order). Throws UsageError naming the first
// bad part, with kThresholdHint as the remedy. A metric named twice in one SPEC is an error.
std::vector<ThresholdRule> parse_threshold(std::string_view spec);

// `spec` trimmed when parse_threshold accepts it (what a suite or `run` records); throws
// UsageError otherwise.
std::string validate_threshold(std::string_view spec);

// The rules in effect, in the order given, starting with the default on cost.
class ThresholdSet {
  public:
    // Starts with the default rule on cost.
    ThresholdSet();

    // Parses one --threshold SPEC and adds its rules. Throws UsageError naming the problem.
    void add(std::string_view spec);
    void add(ThresholdRule rule);

    // The metrics gated for benchmark `name`, with their thresholds: cost first (when
    // gated), then in the order rules first named them. Metrics set to `off` are left out.
    // `recorded`: the threshold the benchmark's result carries (suite `threshold`, `run
    // --threshold`), a layer above the default and below the added rules; UsageError when
    // it does not parse.
    std::vector<std::pair<metrics::Metric, Threshold>> for_benchmark(
        std::string_view name, std::string_view recorded = {}) const;

    const std::vector<ThresholdRule>& rules() const { return rules_; }

  private:
    std::vector<ThresholdRule> rules_;
};

}  // namespace cgbench::compare
