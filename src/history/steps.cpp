#include "history/steps.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "history/environment.hpp"

namespace cgbench::history {

namespace {

// The ok points of a line: their indices.
std::vector<std::size_t> ok_points(const Line& line) {
    std::vector<std::size_t> out;
    out.reserve(line.points.size());
    for (std::size_t i = 0; i < line.points.size(); ++i) {
        if (line.points[i].cost) out.push_back(i);
    }
    return out;
}

// The q-quantile of sorted `v` (linear interpolation).
double quantile(const std::vector<double>& v, double q) {
    const double at = q * static_cast<double>(v.size() - 1);
    const auto lo = static_cast<std::size_t>(std::floor(at));
    const auto hi = std::min(lo + 1, v.size() - 1);
    return v[lo] + (v[hi] - v[lo]) * (at - static_cast<double>(lo));
}

// How far an ok point is from the nearer of its two comparable neighbours, relative.
void neighbour_samples(const History& h, const Line& line, const std::vector<std::size_t>& classes,
                       std::vector<double>& out) {
    const auto ok = ok_points(line);
    const auto cls = [&](std::size_t i) { return classes[h.runs[line.points[i].run].fingerprint]; };
    const auto cost = [&](std::size_t i) { return static_cast<double>(*line.points[i].cost); };
    for (std::size_t k = 1; k + 1 < ok.size(); ++k) {
        const auto a = ok[k - 1];
        const auto b = ok[k];
        const auto c = ok[k + 1];
        if (cls(a) != cls(b) || cls(b) != cls(c) || cost(b) == 0) continue;
        out.push_back(std::min(std::abs(cost(b) - cost(a)), std::abs(cost(b) - cost(c))) / cost(b));
    }
}

// Within `bound` of `level`, relative to it.
bool near(std::uint64_t value, std::uint64_t level, double bound) {
    if (value == level) return true;
    const double diff = std::abs(static_cast<double>(value) - static_cast<double>(level));
    return diff <= bound * static_cast<double>(level);
}

}  // namespace

std::string_view to_string(Label label) {
    switch (label) {
        case Label::Code:
            return "code";
        case Label::Environment:
            return "environment";
        case Label::Wobble:
            return "wobble";
    }
    return "code";
}

WobbleBound wobble_bound(const History& h, const std::vector<Line>& lines,
                         const std::vector<std::size_t>& classes) {
    std::vector<double> samples;
    for (const auto& line : lines) {
        neighbour_samples(h, line, classes, samples);
        samples.insert(samples.end(), line.repeats.begin(), line.repeats.end());
    }
    WobbleBound out{0, samples.size()};
    if (samples.size() < kMinWobbleSamples) return out;
    std::sort(samples.begin(), samples.end());
    const double q1 = quantile(samples, 0.25);
    const double q3 = quantile(samples, 0.75);
    out.bound = q3 + 3 * (q3 - q1);
    return out;
}

LineSteps find_steps(const History& h, const Line& line, const std::vector<std::size_t>& classes,
                     const WobbleBound& wobble) {
    LineSteps out;
    const auto ok = ok_points(line);
    const auto run = [&](std::size_t i) -> const Run& { return h.runs[line.points[i].run]; };
    const auto cls = [&](std::size_t i) { return classes[run(i).fingerprint]; };
    const auto cost = [&](std::size_t i) { return *line.points[i].cost; };
    for (std::size_t k = 1; k < ok.size(); ++k) {
        const auto a = ok[k - 1];
        const auto b = ok[k];
        if (cost(a) == cost(b) || cost(a) == 0) continue;  // nothing moved (or from nothing)
        const double change = (static_cast<double>(cost(b)) - static_cast<double>(cost(a))) /
                              static_cast<double>(cost(a));
        const bool environment = cls(a) != cls(b);
        const bool within = !environment && std::abs(change) <= wobble.bound;
        if (k + 1 < ok.size()) {
            const auto c = ok[k + 1];
            if (cls(c) == cls(a) && near(cost(c), cost(a), wobble.bound)) {
                if (!within) out.blips.push_back({a, b, change, environment});
                ++k;  // the move back belongs to the blip
                continue;
            }
        }
        Step s{a, b, change, Label::Code, {}, k + 1 == ok.size()};
        if (environment) {
            s.label = Label::Environment;
            s.environment = environment_changes(h.fingerprints[run(a).fingerprint],
                                                h.fingerprints[run(b).fingerprint]);
        } else if (within) {
            s.label = Label::Wobble;
        }
        out.steps.push_back(std::move(s));
    }
    return out;
}

namespace {

// Collects the steps of every benchmark into the events of one branch.
struct BranchCollector {
    BranchSteps branch;
    std::map<std::string, std::size_t, std::less<>> event_at;  // commit (or run id) -> event
    std::vector<char> measured;  // per run of the history: did it measure a point of ours

    void add_runs(const History& h, const Line& line) {
        ++branch.benchmarks;
        measured.resize(h.runs.size());
        for (const auto& p : line.points)
            measured[p.run] = 1;
    }

    void add_step(const History& h, BenchmarkStep step) {
        const auto& after = h.runs[step.after.run];
        const std::string key = after.git.commit ? *after.git.commit : "run " + after.id;
        auto [it, added] = event_at.emplace(key, branch.events.size());
        if (added) branch.events.push_back({step.after.run, {}});
        auto& event = branch.events[it->second];
        event.run = std::min(event.run, step.after.run);
        event.steps.push_back(std::move(step));
    }

    BranchSteps finish(const History& h) {
        std::set<std::string_view> commits;
        for (std::size_t r = 0; r < measured.size(); ++r) {
            if (measured[r] == 0) continue;
            branch.runs.push_back(r);
            if (h.runs[r].git.commit) commits.insert(*h.runs[r].git.commit);
        }
        branch.commits = commits.size();
        branch.epochs = epochs_of_runs(h, branch.runs);
        std::sort(branch.events.begin(), branch.events.end(),
                  [](const StepEvent& a, const StepEvent& b) { return a.run < b.run; });
        for (auto& e : branch.events) {
            std::stable_sort(e.steps.begin(), e.steps.end(),
                             [](const auto& a, const auto& b) { return a.benchmark < b.benchmark; });
        }
        return std::move(branch);
    }
};

}  // namespace

std::vector<BranchSteps> find_all_steps(const History& h, const StepsOptions& options) {
    const auto keys = run_keys(h);
    const auto& classes = keys.classes;
    std::vector<BranchCollector> collectors;
    std::map<std::string, std::size_t, std::less<>> index;
    for (const auto& series : h.series) {
        const auto lines = lines_of(h, series, keys, options.default_branch);
        const auto wobble = wobble_bound(h, lines, classes);
        for (const auto& line : lines) {
            if (options.branch && line.branch != *options.branch) continue;
            auto [it, added] = index.emplace(line.branch, collectors.size());
            if (added) {
                collectors.emplace_back();
                collectors.back().branch.branch = line.branch;
                collectors.back().branch.is_default = line.branch == options.default_branch;
            }
            auto& c = collectors[it->second];
            c.add_runs(h, line);
            auto found = find_steps(h, line, classes, wobble);
            for (auto& s : found.steps) {
                if (s.label == Label::Wobble) {
                    ++c.branch.wobble_steps;
                    if (!options.include_wobble) continue;
                }
                c.add_step(h, {series.name, line.points[s.before], line.points[s.after],
                               std::move(s), wobble, std::nullopt});
            }
            for (const auto& b : found.blips) {
                c.branch.blips.push_back(
                    {series.name, line.points[b.before], line.points[b.at], b});
            }
        }
    }
    std::vector<BranchSteps> out;
    for (auto& c : collectors)
        out.push_back(c.finish(h));
    // The default branch, then the others in the order they were first measured.
    std::stable_sort(out.begin(), out.end(), [](const BranchSteps& a, const BranchSteps& b) {
        if (a.is_default != b.is_default) return a.is_default;
        return !a.runs.empty() && !b.runs.empty() && a.runs.front() < b.runs.front();
    });
    return out;
}

}  // namespace cgbench::history
