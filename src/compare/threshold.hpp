#pragma once
// Gate thresholds (DESIGN §5). Counts are deterministic, so a threshold is not noise
// protection: it says how much change is acceptable. A metric regresses when it grows by
// more than its relative threshold AND by more than its absolute floor.
//
//   --threshold SPEC        SPEC = [GLOB:]METRIC=VALUE[,METRIC=VALUE...]
//   VALUE = REL%[|ABS] | off      e.g. cost=1%,Ir=0.5%|10000   'parse/*:cost=2%'   D1mr=off
//
// For each benchmark and metric the last matching rule wins, rules with a GLOB counting
// after rules without one. Without rules only cost is gated, at +1% and 1,000 units.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/result.hpp"

namespace cgbench::compare {

// Default gate on cost: more than +1.0% ...
inline constexpr double kDefaultCostRelative = 0.01;
// ... and more than 1,000 cost units: a fixed cost below which a change is too small to act
// on (about 1,000 instructions, or 28 RAM misses), whatever the benchmark's size.
inline constexpr std::uint64_t kDefaultCostFloor = 1000;
// Changes smaller than 0.1% are reported as unchanged.
inline constexpr double kReportedChange = 0.001;

// The canonical name of a metric a threshold can name: "cost", an event ("Ir", "D1mr"...;
// any case) or "l1_hits", "ll_hits", "ram_hits". nullopt for anything else.
std::optional<std::string> canonical_metric(std::string_view name);

// Every metric name canonical_metric() accepts, comma-separated (for help and messages).
std::string metric_names();

// The value of `metric` (canonical) in `b`; nullopt when it was not measured.
std::optional<std::uint64_t> metric_value(const BenchmarkResult& b, std::string_view metric);

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
    std::string metric;   // canonical
    Threshold threshold;
};

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
    std::vector<std::pair<std::string, Threshold>> for_benchmark(std::string_view name) const;

    const std::vector<ThresholdRule>& rules() const { return rules_; }

  private:
    std::vector<ThresholdRule> rules_;
};

}  // namespace cgbench::compare
