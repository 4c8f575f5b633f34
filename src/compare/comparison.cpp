#include "compare/comparison.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>

#include "util/strings.hpp"

namespace cgbench::compare {

namespace {

void judge(MetricChange& c) {
    const double rel = c.relative();
    if (c.threshold) {
        const Threshold& t = *c.threshold;
        if (c.head > c.base && rel > t.relative && c.head - c.base > t.absolute) {
            c.verdict = Verdict::Regression;
            return;
        }
        if (c.base > c.head && -rel > t.relative && c.base - c.head > t.absolute) {
            c.verdict = Verdict::Improvement;
            return;
        }
    }
    c.verdict = std::fabs(rel) >= kReportedChange ? Verdict::Changed : Verdict::Unchanged;
}

// The metrics every comparison shows, gated or not.
constexpr metrics::Metric kAlwaysShown[] = {metrics::Metric::cost(),
                                            metrics::Metric::event(metrics::Event::Ir)};

bool always_shown(metrics::Metric m) {
    return std::find(std::begin(kAlwaysShown), std::end(kAlwaysShown), m) != std::end(kAlwaysShown);
}

// Cost and Ir are always shown; every gated metric is judged. A gated metric that one side
// did not measure is reported once in `unmeasured`, by name: the warnings list them
// alphabetically.
std::vector<MetricChange> metric_changes(const BenchmarkResult& base, const BenchmarkResult& head,
                                         const ThresholdSet& thresholds,
                                         std::set<std::string_view>& unmeasured) {
    std::vector<std::pair<metrics::Metric, std::optional<Threshold>>> wanted;
    for (const auto& [metric, t] : thresholds.for_benchmark(head.name, head.threshold))
        wanted.emplace_back(metric, t);
    for (const auto shown : kAlwaysShown) {
        const bool listed = std::any_of(wanted.begin(), wanted.end(),
                                        [&](const auto& w) { return w.first == shown; });
        if (!listed) wanted.emplace_back(shown, std::nullopt);
    }
    std::stable_partition(wanted.begin(), wanted.end(),
                          [](const auto& w) { return always_shown(w.first); });
    std::vector<MetricChange> out;
    for (auto& [metric, threshold] : wanted) {
        const auto b = metric_value(base, metric);
        const auto h = metric_value(head, metric);
        if (!b || !h) {
            if (threshold) unmeasured.insert(metric.name());
            continue;
        }
        MetricChange c{metric, *b, *h, threshold, Verdict::Unchanged};
        judge(c);
        out.push_back(std::move(c));
    }
    return out;
}

Verdict overall(const std::vector<MetricChange>& changes) {
    for (const Verdict v : {Verdict::Regression, Verdict::Improvement, Verdict::Changed}) {
        if (std::any_of(changes.begin(), changes.end(),
                        [v](const auto& c) { return c.verdict == v; })) {
            return v;
        }
    }
    return Verdict::Unchanged;
}

// How many moved functions a comparison lists per benchmark.
constexpr std::size_t kMovedFunctions = 10;

BenchmarkComparison compare_pair(std::optional<BenchmarkResult> base_result,
                                 std::optional<BenchmarkResult> head_result,
                                 const ThresholdSet& thresholds,
                                 std::set<std::string_view>& unmeasured) {
    BenchmarkComparison out;
    out.base = std::move(base_result);
    out.head = std::move(head_result);
    const BenchmarkResult* base = out.base ? &*out.base : nullptr;
    const BenchmarkResult* head = out.head ? &*out.head : nullptr;
    out.name = (out.head ? *out.head : *out.base).name;  // one side is always there
    const bool base_ok = base != nullptr && base->status == BenchStatus::Ok;
    const bool head_ok = head != nullptr && head->status == BenchStatus::Ok;
    if (head == nullptr) {
        out.verdict = Verdict::Removed;
    } else if (!head_ok) {
        out.verdict = base != nullptr && !base_ok ? Verdict::StillFailing : Verdict::Failed;
    } else if (base == nullptr) {
        out.verdict = Verdict::Added;
    } else if (!base_ok) {
        out.verdict = Verdict::Fixed;
    } else {
        out.changes = metric_changes(*base, *head, thresholds, unmeasured);
        out.verdict = overall(out.changes);
        out.attribute_moved();
        if (out.lists_moved())
            out.processes_moved = attribute_process_change(*base, *head, kMovedFunctions);
    }
    return out;
}

// Name -> first benchmark of that name; later duplicates are reported.
using NameIndex = std::map<std::string_view, const BenchmarkResult*>;

NameIndex index_by_name(const RunResult& run, std::string_view side,
                        std::vector<std::string>& warnings) {
    NameIndex out;
    for (const auto& b : run.benchmarks) {
        if (!out.emplace(b.name, &b).second) {
            warnings.push_back(
                fmt::format("{} holds benchmark '{}' more than once; the first "
                            "one is compared",
                            side, util::printable(b.name)));
        }
    }
    return out;
}

// Which results are compared: (index in BASE, index in HEAD), in HEAD's order, then those
// only BASE has. Indexes, not pointers: the results move into the comparison afterwards
// (copying them doubled the time of a compare of 1,000 benchmarks with their functions).
using Index = std::optional<std::size_t>;
std::vector<std::pair<Index, Index>> pair_up(const RunResult& base, const RunResult& head,
                                             const NameIndex& bases, const NameIndex& heads) {
    std::vector<std::pair<Index, Index>> pairs;
    for (std::size_t i = 0; i < head.benchmarks.size(); ++i) {
        const auto& h = head.benchmarks[i];
        if (heads.at(h.name) != &h) continue;  // a duplicate, reported by index_by_name
        const auto it = bases.find(h.name);
        const Index b = it == bases.end()
                            ? Index()
                            : static_cast<std::size_t>(it->second - base.benchmarks.data());
        pairs.emplace_back(b, i);
    }
    for (std::size_t i = 0; i < base.benchmarks.size(); ++i) {
        const auto& b = base.benchmarks[i];
        if (bases.at(b.name) == &b && !heads.contains(b.name)) pairs.emplace_back(i, Index());
    }
    return pairs;
}

// The thresholds HEAD's results carry, each with how many benchmarks carry it; checked here
// so that a hand-edited result file fails with its benchmark named.
std::vector<std::pair<std::string, std::size_t>> recorded_thresholds(const RunResult& head) {
    std::vector<std::pair<std::string, std::size_t>> out;
    for (const auto& b : head.benchmarks) {
        const std::string text(util::trim(b.threshold));
        if (text.empty()) continue;
        const auto it = std::find_if(out.begin(), out.end(),
                                     [&text](const auto& r) { return r.first == text; });
        if (it != out.end()) {
            ++it->second;
            continue;
        }
        try {
            parse_threshold(text);
        } catch (const UsageError& e) {
            throw UsageError(fmt::format("HEAD's benchmark '{}' records a bad threshold: {}",
                                         util::printable(b.name), e.what()),
                             e.hint());
        }
        out.emplace_back(text, 1);
    }
    return out;
}

}  // namespace

std::string_view to_string(Verdict v) {
    switch (v) {
        case Verdict::Regression:
            return "regression";
        case Verdict::Improvement:
            return "improvement";
        case Verdict::Changed:
            return "changed";
        case Verdict::Unchanged:
            return "unchanged";
        case Verdict::Added:
            return "added";
        case Verdict::Removed:
            return "removed";
        case Verdict::Failed:
            return "failed";
        case Verdict::StillFailing:
            return "still failing";
        case Verdict::Fixed:
            return "fixed";
    }
    return "unchanged";
}

double MetricChange::relative() const {
    if (base == 0) return head == 0 ? 0.0 : std::numeric_limits<double>::infinity();
    return (static_cast<double>(head) - static_cast<double>(base)) / static_cast<double>(base);
}

std::int64_t MetricChange::delta() const {
    constexpr auto kMax = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
    const auto d = distance();
    if (!decreased())
        return d > kMax ? std::numeric_limits<std::int64_t>::max() : static_cast<std::int64_t>(d);
    // -(2^63) is the one magnitude beyond kMax that still fits.
    return d > kMax ? std::numeric_limits<std::int64_t>::min() : -static_cast<std::int64_t>(d);
}

const MetricChange* BenchmarkComparison::change(metrics::Metric metric) const {
    const auto it = std::find_if(changes.begin(), changes.end(),
                                 [metric](const auto& c) { return c.metric == metric; });
    return it == changes.end() ? nullptr : &*it;
}

bool BenchmarkComparison::lists_moved() const {
    return verdict == Verdict::Regression || verdict == Verdict::Improvement;
}

void BenchmarkComparison::attribute_moved() {
    if (!lists_moved() || !base || !head || base->functions.empty() || head->functions.empty())
        return;
    moved = attribute_change(*base, *head, kMovedFunctions);
}

const MetricChange* BenchmarkComparison::headline() const {
    const MetricChange* best = nullptr;
    for (const auto& c : changes) {
        if (c.verdict != verdict) continue;
        if (verdict == Verdict::Regression &&
            (best == nullptr || c.relative() > best->relative())) {
            best = &c;
        }
        if (verdict == Verdict::Improvement &&
            (best == nullptr || c.relative() < best->relative())) {
            best = &c;
        }
    }
    if (best != nullptr) return best;
    if (const auto* cost = change(metrics::Metric::cost())) return cost;
    return changes.empty() ? nullptr : &changes.front();
}

Counts Comparison::counts() const {
    Counts c;
    c.total = benchmarks.size();
    for (const auto& b : benchmarks) {
        switch (b.verdict) {
            case Verdict::Regression:
                ++c.regressions;
                break;
            case Verdict::Improvement:
                ++c.improvements;
                break;
            case Verdict::Changed:
                ++c.changed;
                break;
            case Verdict::Unchanged:
                ++c.unchanged;
                break;
            case Verdict::Added:
                ++c.added;
                break;
            case Verdict::Removed:
                ++c.removed;
                break;
            case Verdict::Failed:
                ++c.failed;
                break;
            case Verdict::StillFailing:
                ++c.still_failing;
                break;
            case Verdict::Fixed:
                ++c.fixed;
                break;
        }
    }
    return c;
}

bool Comparison::fails_gate(const BenchmarkComparison& b) const {
    return b.verdict == Verdict::Regression || b.verdict == Verdict::Failed ||
           (b.verdict == Verdict::Removed && fail_on_missing);
}

bool Comparison::passed() const {
    return std::none_of(benchmarks.begin(), benchmarks.end(),
                        [this](const auto& b) { return fails_gate(b); });
}

const BenchmarkComparison* Comparison::worst_regression() const {
    const BenchmarkComparison* worst = nullptr;
    for (const auto& b : benchmarks) {
        if (b.verdict != Verdict::Regression) continue;
        if (worst == nullptr || b.headline()->relative() > worst->headline()->relative()) {
            worst = &b;
        }
    }
    return worst;
}

ExitCode Comparison::exit_code() const {
    return passed() ? ExitCode::kOk : ExitCode::kRegression;
}

std::vector<std::string> incompatibilities(const RunResult& base, const RunResult& head) {
    std::vector<std::string> out = base.fingerprint.differences(head.fingerprint);
    std::vector<std::string> ignored;
    const auto heads = index_by_name(head, "HEAD", ignored);
    for (const auto& b : base.benchmarks) {
        const auto it = heads.find(b.name);
        if (it == heads.end()) continue;
        const BenchmarkResult& h = *it->second;
        if (b.tool != h.tool) {
            out.push_back(fmt::format(
                "benchmark '{}': tool {} vs {} (results of two tools are never compared; "
                "for regions, measure both with the same --region-tool)",
                util::printable(b.name), b.tool, h.tool));
        }
        if (b.weights.describe() != h.weights.describe() &&
            base.fingerprint.weights.describe() == head.fingerprint.weights.describe()) {
            out.push_back(fmt::format("benchmark '{}': weights {} vs {}", util::printable(b.name),
                                      b.weights.describe(), h.weights.describe()));
        }
    }
    return out;
}

Side side_of(const RunResult& run, std::string label) {
    return Side{std::move(label), run.id, run.started, run.git};
}

namespace {

// A verdict on a multi-threaded result can be chance: Valgrind's schedule of its threads, and
// so its counts, differ from run to run (BenchmarkResult::threads).
void warn_threaded(Comparison& out) {
    for (const auto& c : out.benchmarks) {
        if (!c.base || !c.head) continue;
        const int threads = std::max(c.base->threads, c.head->threads);
        if (threads <= 1) continue;
        const bool gated =
            std::any_of(c.changes.begin(), c.changes.end(),
                        [](const MetricChange& m) { return m.threshold.has_value(); });
        out.warnings.push_back(fmt::format(
            "{} ran {} threads: its counts are not repeatable, so its verdict ({}) can come "
            "from the thread schedule rather than the code{}",
            util::printable(c.name), threads, to_string(c.verdict),
            gated ? "" : " (it was not gated)"));
    }
}

// Pairs the benchmarks of both runs and judges each: the part of a comparison after the
// runs were found comparable.
void judge_all(Comparison& out, RunResult& base, RunResult& head, const CompareOptions& options) {
    out.fail_on_missing = options.fail_on_missing;
    out.thresholds = options.thresholds.rules();
    out.recorded_thresholds = recorded_thresholds(head);
    const auto bases = index_by_name(base, "BASE", out.warnings);
    const auto heads = index_by_name(head, "HEAD", out.warnings);
    const auto pairs = pair_up(base, head, bases, heads);
    const auto take = [](RunResult& run, Index i) {
        return i ? std::optional(std::move(run.benchmarks[*i])) : std::nullopt;
    };
    std::set<std::string_view> unmeasured;
    out.benchmarks.reserve(pairs.size());
    for (auto [b, h] : pairs) {
        // Two tools count differently (and Cachegrind simulates a region's caches alone,
        // Callgrind the whole program's): such results are never compared, --force or not.
        if (b && h && base.benchmarks[*b].tool != head.benchmarks[*h].tool) {
            out.warnings.push_back(fmt::format(
                "{} was measured with {} in BASE and {} in HEAD: results of two Valgrind tools "
                "are never compared, so it is reported as added",
                util::printable(head.benchmarks[*h].name), base.benchmarks[*b].tool,
                head.benchmarks[*h].tool));
            b.reset();
        }
        out.benchmarks.push_back(
            compare_pair(take(base, b), take(head, h), options.thresholds, unmeasured));
    }
    for (const auto& m : unmeasured) {
        out.warnings.push_back(
            fmt::format("a threshold names {}, which was not measured on "
                        "both sides; it was not checked",
                        m));
    }
    warn_threaded(out);
}

}  // namespace

Comparison compare_runs(RunResult base, Side base_side, RunResult head, Side head_side,
                        const CompareOptions& options) {
    Comparison out;
    out.base = std::move(base_side);
    out.head = std::move(head_side);
    out.fingerprint = head.fingerprint;
    out.differences = incompatibilities(base, head);
    if (!out.differences.empty() && !options.force) {
        throw UsageError(fmt::format("BASE and HEAD were measured differently: {}",
                                     util::join(out.differences, "; ")),
                         "measure both with the same settings and Valgrind, or pass --force "
                         "to compare anyway");
    }
    out.forced = !out.differences.empty();
    if (!base.fingerprint.loader_cache.empty() && !head.fingerprint.loader_cache.empty() &&
        base.fingerprint.loader_cache != head.fingerprint.loader_cache) {
        out.warnings.push_back(
            "BASE and HEAD ran with different dynamic loader caches (/etc/ld.so.cache: the "
            "machines' installed libraries differ): whole-program counts can differ by a few "
            "hundred instructions at start-up, tens of thousands for an interpreter such as "
            "Python; measure both on one machine to compare exactly");
    }
    // Named before judging, which moves the benchmarks out of `head`.
    auto hint = no_line_info_hint(without_line_info(head));
    judge_all(out, base, head, options);
    if (!hint.empty()) out.notes.push_back(std::move(hint));
    return out;
}

Comparison compare_to_nothing(RunResult head, Side head_side, const CompareOptions& options,
                              std::string why) {
    Comparison out;
    out.base = Side{"none", "", "", {}};
    out.head = std::move(head_side);
    out.fingerprint = head.fingerprint;
    out.has_baseline = false;
    out.notes.push_back(
        fmt::format("No baseline: {}; every benchmark is reported as added", std::move(why)));
    RunResult nothing;
    auto hint = no_line_info_hint(without_line_info(head));
    judge_all(out, nothing, head, options);
    if (!hint.empty()) out.notes.push_back(std::move(hint));
    return out;
}

}  // namespace cgbench::compare
