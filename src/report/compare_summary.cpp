#include "report/compare_summary.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "util/strings.hpp"

namespace cgbench::report {

using compare::BenchmarkComparison;
using compare::Comparison;
using compare::Verdict;

namespace {

std::string plural(std::size_t n, std::string_view word) {
    return fmt::format("{} {}{}", n, word, n == 1 ? "" : "s");
}

int severity(const Comparison& c, const BenchmarkComparison& b) {
    if (c.fails_gate(b)) return b.verdict == Verdict::Failed ? 0 : 1;
    switch (b.verdict) {
        case Verdict::Improvement:
            return 2;
        case Verdict::Changed:
            return 3;
        case Verdict::Removed:
            return 4;
        case Verdict::Added:
            return 5;
        case Verdict::Fixed:
            return 6;
        case Verdict::StillFailing:
            return 7;
        default:
            return 8;
    }
}

double size_of_change(const BenchmarkComparison& b) {
    const auto* h = b.headline();
    return h == nullptr ? 0.0 : std::fabs(h->relative());
}

std::string signed_count(const compare::MetricChange& c) {
    return (c.decreased() ? "-" : "+") + util::with_commas(c.distance());
}

}  // namespace

std::string summary_line(const Comparison& c, const TextStyle& style) {
    const auto n = c.counts();
    std::string head;
    if (n.regressions > 0) {
        const auto* worst = c.worst_regression();
        head = fmt::format("{} of {} got more expensive (worst: {} {})", n.regressions,
                           plural(n.total, "benchmark"), change_cell(*worst->headline()),
                           style(worst->name));
    } else {
        head = "No benchmark got more expensive";
    }
    std::vector<std::string> rest;
    const auto add = [&rest](std::size_t count, std::string_view what) {
        if (count > 0) rest.push_back(fmt::format("{} {}", count, what));
    };
    add(n.failed, "failed");
    add(c.fail_on_missing ? n.removed : 0, "missing");
    add(n.improvements, "improved");
    add(n.changed, "changed within thresholds");
    add(n.added, "added");
    add(c.fail_on_missing ? 0 : n.removed, "removed");
    add(n.fixed, "fixed");
    add(n.still_failing, "still failing");
    add(n.regressions == 0 ? n.unchanged : 0, "unchanged");
    return rest.empty() ? head : head + "; " + util::join(rest, ", ");
}

std::string gate_word(const Comparison& c) {
    return c.passed() ? "PASS" : "FAIL";
}

std::string change_cell(const compare::MetricChange& change) {
    if (std::isinf(change.relative())) return "new";
    return util::percent(change.relative());
}

std::string change_cell(const BenchmarkComparison& b, metrics::Metric metric) {
    const auto* c = b.change(metric);
    return c == nullptr ? "-" : change_cell(*c);
}

std::string value_cell(const std::optional<BenchmarkResult>& side, metrics::Metric metric) {
    if (!side) return "-";
    const auto v = metric_value(*side, metric);
    return v ? util::with_commas(*v) : "-";
}

std::string verdict_reason(const BenchmarkComparison& b) {
    switch (b.verdict) {
        case Verdict::Regression:
        case Verdict::Improvement: {
            std::vector<std::string> parts;
            for (const auto& c : b.changes) {
                if (c.verdict != b.verdict || !c.threshold) continue;
                std::string limit = fmt::format("{:.2f}%", c.threshold->relative * 100.0);
                if (c.threshold->absolute > 0) {
                    limit += " and " + util::with_commas(c.threshold->absolute);
                }
                parts.push_back(fmt::format("{} {} ({}) beyond {}", c.metric.name(), change_cell(c),
                                            signed_count(c), limit));
            }
            return util::join(parts, "; ");
        }
        case Verdict::Failed:
            return fmt::format("failed in HEAD: {}", util::printable(b.head->error));
        case Verdict::StillFailing:
            return "failed in BASE and HEAD";
        case Verdict::Fixed:
            return "failed in BASE, ok in HEAD";
        case Verdict::Added:
            return "only in HEAD";
        case Verdict::Removed:
            return "only in BASE";
        case Verdict::Changed:
            return "within thresholds";
        case Verdict::Unchanged:
            return "";
    }
    return "";
}

std::string verdict_label(const Comparison& c, const BenchmarkComparison& b) {
    std::string label(compare::to_string(b.verdict));
    if (!c.fails_gate(b)) return label;
    std::transform(label.begin(), label.end(), label.begin(),
                   [](unsigned char ch) { return static_cast<char>(std::toupper(ch)); });
    return label;
}

std::string side_description(const compare::Side& side) {
    std::vector<std::string> parts = {side.label};
    if (!side.run_id.empty() && side.label.find(side.run_id) == std::string::npos) {
        parts.push_back("run " + side.run_id);
    }
    if (side.git.commit && side.label.find(side.git.commit->substr(0, 10)) == std::string::npos) {
        parts.push_back("commit " + side.git.commit->substr(0, 10));
    }
    if (side.git.branch) parts.push_back("branch " + *side.git.branch);
    if (side.git.dirty.value_or(false)) parts.push_back("uncommitted changes");
    return util::join(parts, " · ");
}

std::string forced_warning(const Comparison& c) {
    if (!c.forced) return "";
    return fmt::format(
        "BASE and HEAD were measured differently and compared anyway (--force); "
        "the numbers may not be comparable: {}",
        util::join(c.differences, "; "));
}

std::string thresholds_description(const Comparison& c) {
    std::vector<std::pair<metrics::Metric, std::string>> global;  // metric -> description
    std::vector<std::string> scoped;
    for (const auto& r : c.thresholds) {
        const std::string text = fmt::format("{} {}", r.metric.name(), r.threshold.describe());
        if (!r.pattern.empty()) {
            scoped.push_back(fmt::format("{}: {}", r.pattern, text));
            continue;
        }
        const auto it = std::find_if(global.begin(), global.end(),
                                     [&r](const auto& g) { return g.first == r.metric; });
        if (it != global.end()) {
            it->second = text;
        } else {
            global.emplace_back(r.metric, text);
        }
    }
    std::vector<std::string> parts;
    for (const auto& [metric, text] : global)
        parts.push_back(text);
    for (const auto& [text, count] : c.recorded_thresholds) {
        parts.push_back(
            fmt::format("{} recorded for {} in HEAD", text, plural(count, "benchmark")));
    }
    parts.insert(parts.end(), scoped.begin(), scoped.end());
    return util::join(parts, "; ");
}

std::vector<const BenchmarkComparison*> notable(const Comparison& c) {
    std::vector<const BenchmarkComparison*> out;
    for (const auto& b : c.benchmarks) {
        if (b.verdict != Verdict::Unchanged) out.push_back(&b);
    }
    std::stable_sort(out.begin(), out.end(), [&c](const auto* x, const auto* y) {
        const int sx = severity(c, *x);
        const int sy = severity(c, *y);
        if (sx != sy) return sx < sy;
        return size_of_change(*x) > size_of_change(*y);
    });
    return out;
}

}  // namespace cgbench::report
