#pragma once
// The comparison model: two runs, benchmark by benchmark, metric by metric, with a verdict
// for each and for the whole. Computed once, then rendered by a CompareReporter; nothing
// here prints.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/errors.hpp"
#include "compare/attribution.hpp"
#include "compare/threshold.hpp"
#include "core/result.hpp"
#include "metrics/metric.hpp"

namespace cgbench::compare {

enum class Verdict {
    Regression,   // a gated metric grew beyond its threshold (fails the gate)
    Improvement,  // a gated metric shrank beyond its threshold
    Changed,      // some metric moved by 0.1% or more, within thresholds
    Unchanged,
    Added,         // only in HEAD
    Removed,       // only in BASE (fails the gate with --fail-on-missing)
    Failed,        // failed in HEAD, not in BASE (fails the gate)
    StillFailing,  // failed in both
    Fixed,         // failed in BASE, ok in HEAD
};

// "regression", "improvement", "changed", "unchanged", "added", "removed", "failed",
// "still failing", "fixed".
std::string_view to_string(Verdict v);

// One metric of one benchmark, base vs head.
struct MetricChange {
    metrics::Metric metric;
    std::uint64_t base = 0;
    std::uint64_t head = 0;
    std::optional<Threshold> threshold;    // absent: shown, not gated
    Verdict verdict = Verdict::Unchanged;  // Regression, Improvement, Changed or Unchanged

    // (head - base) / base; +infinity when base is 0 and head is not.
    double relative() const;
    // head - base, exact while it fits 64 signed bits (saturated beyond: use distance()).
    std::int64_t delta() const;
    // |head - base|, exact for any two counts; decreased() gives its sign.
    std::uint64_t distance() const { return head >= base ? head - base : base - head; }
    bool decreased() const { return head < base; }
};

// One benchmark, base vs head: its verdict and the metrics behind it.
struct BenchmarkComparison {
    std::string name;
    Verdict verdict = Verdict::Unchanged;
    std::optional<BenchmarkResult> base;
    std::optional<BenchmarkResult> head;
    std::vector<MetricChange> changes;  // cost, Ir, then other gated metrics (when measured)
    // For a regression or an improvement: the functions whose cost moved most (from the
    // per-function costs of both results; empty when either side has none).
    std::vector<FunctionChange> moved;
    // For a regression or an improvement of a benchmark that ran more than one process: the
    // processes whose cost moved.
    std::vector<ProcessChange> processes_moved;

    // The change of `metric`, or nullptr.
    const MetricChange* change(metrics::Metric metric) const;
    // The change that best explains the verdict: the largest regression or improvement,
    // else the cost change; nullptr when nothing was compared.
    const MetricChange* headline() const;
    // Whether the functions that moved are listed: a regression or an improvement.
    bool lists_moved() const;
    // Fills `moved` from both sides' functions (what compare_runs does; for results read
    // without functions, once they have them). Nothing unless lists_moved().
    void attribute_moved();
};

// Where one side of the comparison came from.
struct Side {
    std::string label;  // as named: a file, a run id, a git ref, "latest run"
    std::string run_id;
    std::string started;
    GitInfo git;
};

// How many benchmarks got each verdict.
struct Counts {
    std::size_t total = 0;
    std::size_t regressions = 0;
    std::size_t improvements = 0;
    std::size_t changed = 0;
    std::size_t unchanged = 0;
    std::size_t added = 0;
    std::size_t removed = 0;
    std::size_t failed = 0;
    std::size_t still_failing = 0;
    std::size_t fixed = 0;
};

// Where a pull request's base results came from (`cgbench pr`), for tools: "history" (stored
// runs reused, not built), "built" (built and measured in the job), or "mixed" (shards
// differ); the stored runs' ids; each shard's line as the notes say it.
struct BaseSource {
    std::string kind;
    std::vector<std::string> runs;
    std::vector<std::string> lines;
};

// The whole comparison: both sides, the rules, every benchmark; the model reporters render.
struct Comparison {
    Side base;
    Side head;
    Fingerprint fingerprint;               // HEAD's
    std::vector<std::string> differences;  // what made the runs incomparable (with --force)
    bool forced = false;
    bool fail_on_missing = false;
    std::vector<ThresholdRule> thresholds;  // the rules in effect, defaults first
    // The thresholds HEAD's results recorded (suite `threshold`, `run --threshold`), each
    // with how many benchmarks carry it: a layer between the default and `thresholds`.
    std::vector<std::pair<std::string, std::size_t>> recorded_thresholds;
    std::vector<BenchmarkComparison> benchmarks;  // HEAD's order, then removed ones
    std::vector<std::string> warnings;
    // What a reader must know to read the verdict right, e.g. why there is no baseline.
    std::vector<std::string> notes;
    std::optional<BaseSource> base_source;  // set by `cgbench pr` when it obtained a base
    bool has_baseline = true;  // false: every benchmark of HEAD is new (compare_to_nothing)

    Counts counts() const;
    // True when the benchmark's verdict fails the gate.
    bool fails_gate(const BenchmarkComparison& b) const;
    // True when nothing fails the gate.
    bool passed() const;
    // The regression with the largest relative change, or nullptr.
    const BenchmarkComparison* worst_regression() const;
    // 0 when the gate passed, 1 (kRegression) otherwise.
    ExitCode exit_code() const;
};

// How to compare: the thresholds and the gate's switches.
struct CompareOptions {
    ThresholdSet thresholds;
    bool force = false;            // compare despite fingerprint differences (warn loudly)
    bool fail_on_missing = false;  // a benchmark missing from HEAD fails the gate
};

// What makes `base` and `head` incomparable: fingerprint fields that change numbers, and
// per-benchmark tool or weights. Empty when comparable.
std::vector<std::string> incompatibilities(const RunResult& base, const RunResult& head);

// Side information of a run named `label`.
Side side_of(const RunResult& run, std::string label);

// HEAD with no baseline (a first pull request, a branch's first run): every benchmark is
// added, a failed one still fails the gate, and `why` becomes a note in every format.
Comparison compare_to_nothing(RunResult head, Side head_side, const CompareOptions& options,
                              std::string why);

// Compares `head` against `base`. Throws UsageError listing the differences when the runs
// are incomparable, unless options.force. The results move into the comparison: pass the
// runs with std::move when they are not needed afterwards.
Comparison compare_runs(RunResult base, Side base_side, RunResult head, Side head_side,
                        const CompareOptions& options);

}  // namespace cgbench::compare
