#pragma once
// Wording shared by the compare reporters, so every format says the same thing: the summary
// line, change cells, why a verdict was given, how each side is described.

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "compare/comparison.hpp"

namespace cgbench::report {

// Renders a benchmark name (or other user text) for the target format: escaping, quoting.
using TextStyle = std::function<std::string(std::string_view)>;

// "2 of 14 benchmarks got more expensive (worst: +3.10% parse/large); 1 improved", or
// "No benchmark got more expensive; 14 unchanged". Names go through `style`.
std::string summary_line(const compare::Comparison& c, const TextStyle& style);

// "PASS" or "FAIL".
std::string gate_word(const compare::Comparison& c);

// The relative change: "+3.10%", "-0.52%", "0.00%", "new" when base was 0.
std::string change_cell(const compare::MetricChange& change);

// The change of `metric` in `b`, or "-" when it was not compared.
std::string change_cell(const compare::BenchmarkComparison& b, metrics::Metric metric);

// The value of `metric` on one side with thousands separators, or "-".
std::string value_cell(const std::optional<BenchmarkResult>& side, metrics::Metric metric);

// Why the verdict: "cost +3.10% (+31,000) beyond 1.00% and 1,000", "failed in HEAD: exited
// with status 3", "only in BASE"; empty for unchanged.
std::string verdict_reason(const compare::BenchmarkComparison& b);

// "REGRESSION", "improvement", "changed", "FAILED", ... (upper case when it fails the gate).
std::string verdict_label(const compare::Comparison& c, const compare::BenchmarkComparison& b);

// "main (abc1234567) · run 20261122T031500Z-3f9a1c0b · branch main, dirty".
std::string side_description(const compare::Side& side);

// The loud warning of a forced comparison; empty when the fingerprints matched.
std::string forced_warning(const compare::Comparison& c);

// The gate rules in effect: "cost +1.00% and 1,000; 1% recorded for 3 benchmarks in HEAD;
// parse/*: cost +2.00%" (the rules given to compare win over recorded ones).
std::string thresholds_description(const compare::Comparison& c);

// The benchmarks worth listing in a short report: all but unchanged ones, those failing
// the gate first, then by size of change.
std::vector<const compare::BenchmarkComparison*> notable(const compare::Comparison& c);

}  // namespace cgbench::report
