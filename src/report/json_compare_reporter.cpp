// JSON rendering of a comparison (schema "cgbench-compare/1"): the whole model, for tools.
// Keys are a contract like the result file's: add freely, never rename. The benchmarks come
// last, one compact object per line: a 1,000-benchmark report stays small, fast to write
// and easy to grep.

#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>

#include "compare/comparison.hpp"
#include "core/result_json.hpp"
#include "report/compare_summary.hpp"
#include "report/function_report.hpp"
#include "report/reporter.hpp"

namespace cgbench::report {

namespace {

using compare::BenchmarkComparison;
using compare::Comparison;
using ojson = nlohmann::ordered_json;

inline constexpr std::string_view kCompareSchema = "cgbench-compare/1";

ojson side_json(const compare::Side& s) {
    return ojson{{"label", s.label},
                 {"run_id", s.run_id},
                 {"started", s.started},
                 {"git",
                  {{"commit", json_or_null(s.git.commit)},
                   {"branch", json_or_null(s.git.branch)},
                   {"dirty", json_or_null(s.git.dirty)}}}};
}

ojson threshold_json(const compare::Threshold& t) {
    if (t.off) return "off";
    return ojson{{"relative", t.relative}, {"absolute", t.absolute}};
}

// head - base as a JSON number: exact, but for a decrease beyond 2^63 (counts no program
// reaches), which only a double can hold.
ojson delta_json(const compare::MetricChange& c) {
    if (!c.decreased()) return c.distance();
    if (c.distance() <= static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
        return -static_cast<std::int64_t>(c.distance());
    }
    return -static_cast<double>(c.distance());
}

ojson change_json(const compare::MetricChange& c) {
    ojson j{{"metric", std::string(c.metric.name())},
            {"base", c.base},
            {"head", c.head},
            {"delta", delta_json(c)},
            {"relative", nullptr},
            {"threshold", nullptr},
            {"verdict", std::string(compare::to_string(c.verdict))}};
    if (const double rel = c.relative(); std::isfinite(rel)) j["relative"] = rel;
    if (c.threshold) j["threshold"] = threshold_json(*c.threshold);
    return j;
}

ojson side_status(const std::optional<BenchmarkResult>& b) {
    if (!b) return nullptr;
    ojson j{{"status", std::string(to_string(b->status))}};
    j["cost"] = b->status == BenchStatus::Ok ? ojson(b->cost) : ojson();
    if (!b->error.empty()) j["error"] = b->error;
    return j;
}

ojson benchmark_json(const Comparison& c, const BenchmarkComparison& b) {
    ojson changes = ojson::array();
    for (const auto& m : b.changes)
        changes.push_back(change_json(m));
    ojson j{{"name", b.name},
            {"verdict", std::string(compare::to_string(b.verdict))},
            {"fails_gate", c.fails_gate(b)},
            {"reason", verdict_reason(b)},
            {"base", side_status(b.base)},
            {"head", side_status(b.head)},
            {"changes", std::move(changes)}};
    if (!b.moved.empty()) j["functions_moved"] = function_changes_json(b.moved);
    if (!b.processes_moved.empty()) {
        j["processes_moved"] = process_changes_json(b.processes_moved);
    }
    return j;
}

ojson summary_json(const Comparison& c) {
    const auto n = c.counts();
    return ojson{{"benchmarks", n.total},
                 {"regressions", n.regressions},
                 {"improvements", n.improvements},
                 {"changed", n.changed},
                 {"unchanged", n.unchanged},
                 {"added", n.added},
                 {"removed", n.removed},
                 {"failed", n.failed},
                 {"still_failing", n.still_failing},
                 {"fixed", n.fixed},
                 {"line", summary_line(c, [](std::string_view s) { return std::string(s); })}};
}

// Names are bytes from the command line: invalid UTF-8 becomes U+FFFD, never an error.
std::string dump(const ojson& j, int indent) {
    return dump_json(j, indent);
}

class JsonCompareReporter final : public CompareReporter {
  public:
    std::string render(const Comparison& c, const RenderOptions&) const override {
        ojson j;
        j["schema"] = std::string(kCompareSchema);
        j["passed"] = c.passed();
        j["exit_code"] = static_cast<int>(c.exit_code());
        j["base"] = side_json(c.base);
        j["head"] = side_json(c.head);
        j["fingerprint"] = to_json(c.fingerprint);
        j["fingerprint_differences"] = c.differences;
        j["forced"] = c.forced;
        if (c.forced) j["warning"] = forced_warning(c);
        ojson rules = ojson::array();
        for (const auto& r : c.thresholds) {
            rules.push_back({{"pattern", r.pattern.empty() ? ojson() : ojson(r.pattern)},
                             {"metric", std::string(r.metric.name())},
                             {"threshold", threshold_json(r.threshold)}});
        }
        j["thresholds"] = std::move(rules);
        ojson recorded = ojson::object();
        for (const auto& [text, count] : c.recorded_thresholds)
            recorded[text] = count;
        j["recorded_thresholds"] = std::move(recorded);
        j["has_baseline"] = c.has_baseline;
        j["notes"] = c.notes;
        j["base_source"] = c.base_source ? ojson{{"kind", c.base_source->kind},
                                                 {"runs", c.base_source->runs},
                                                 {"lines", c.base_source->lines}}
                                         : ojson();
        j["fail_on_missing"] = c.fail_on_missing;
        j["summary"] = summary_json(c);
        j["warnings"] = c.warnings;
        std::string out = dump(j, 2);
        out.erase(out.size() - 2);  // reopen the object: drop "\n}"
        out += ",\n  \"benchmarks\": [";
        for (std::size_t i = 0; i < c.benchmarks.size(); ++i) {
            out += (i == 0 ? "\n    " : ",\n    ") + dump(benchmark_json(c, c.benchmarks[i]), -1);
        }
        return out + (c.benchmarks.empty() ? "]\n}\n" : "\n  ]\n}\n");
    }
};

}  // namespace

std::unique_ptr<CompareReporter> make_json_compare_reporter() {
    return std::make_unique<JsonCompareReporter>();
}

}  // namespace cgbench::report
