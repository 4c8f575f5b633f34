#include "history/steps.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "history/environment.hpp"

namespace cgbench::history {

namespace {

// The ok points of a line: their indices, in `out` (cleared first).
void ok_points(const Line& line, std::vector<std::size_t>& out) {
    out.clear();
    for (std::size_t i = 0; i < line.points.size(); ++i) {
        if (line.points[i].cost) out.push_back(i);
    }
}

// The quantiles of `v` that quantile_of asks for, in increasing order, without sorting all
// of `v`: each value is the one a full sort would put at its place (nth_element), found
// among the values not placed yet.
class OrderStatistics {
  public:
    explicit OrderStatistics(std::vector<double>& v) : v_(v) {}
    // The q-quantile of `v` sorted (linear interpolation); q no less than the last one.
    double quantile_of(double q) {
        const double at = q * static_cast<double>(v_.size() - 1);
        const auto lo = static_cast<std::size_t>(std::floor(at));
        const auto hi = std::min(lo + 1, v_.size() - 1);
        const double a = kth(lo);
        const double b = kth(hi);
        return a + (b - a) * (at - static_cast<double>(lo));
    }

  private:
    // The k-th smallest value; k no less than the last one asked for.
    double kth(std::size_t k) {
        if (k >= placed_) {
            std::nth_element(v_.begin() + static_cast<std::ptrdiff_t>(placed_),
                             v_.begin() + static_cast<std::ptrdiff_t>(k), v_.end());
            placed_ = k + 1;
        }
        return v_[k];
    }

    std::vector<double>& v_;
    std::size_t placed_ = 0;  // v_[0, placed_) hold the smallest values, each at its place
};

// How far an ok point is from the nearer of its two comparable neighbours, relative.
void neighbour_samples(const History& h, const Line& line, const std::vector<std::size_t>& ok,
                       const std::vector<std::size_t>& classes, std::vector<double>& out) {
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

namespace {

// wobble_bound with the ok points of each line (`ok`, parallel to `lines`) known, and the
// samples gathered in `samples` (cleared first).
WobbleBound wobble_of(const History& h, const std::vector<Line>& lines,
                      const std::vector<std::vector<std::size_t>>& ok,
                      const std::vector<std::size_t>& classes, std::vector<double>& samples) {
    samples.clear();
    for (std::size_t i = 0; i < lines.size(); ++i) {
        neighbour_samples(h, lines[i], ok[i], classes, samples);
        samples.insert(samples.end(), lines[i].repeats.begin(), lines[i].repeats.end());
    }
    WobbleBound out{0, samples.size()};
    if (samples.size() < kMinWobbleSamples) return out;
    OrderStatistics order(samples);
    const double q1 = order.quantile_of(0.25);
    const double q3 = order.quantile_of(0.75);
    out.bound = q3 + 3 * (q3 - q1);
    return out;
}

// find_steps with the line's ok points known.
LineSteps steps_of(const History& h, const Line& line, const std::vector<std::size_t>& ok,
                   const std::vector<std::size_t>& classes, const WobbleBound& wobble) {
    LineSteps out;
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
        if (!environment) {
            ++out.moves;
            out.within += within ? 1 : 0;
        }
        if (k + 1 < ok.size()) {
            const auto c = ok[k + 1];
            if (cls(c) == cls(a) && near(cost(c), cost(a), wobble.bound)) {
                if (!within) out.blips.push_back({a, b, change, environment});
                if (!environment) {
                    ++out.noise;  // undone by the next result
                    if (cls(c) == cls(b) && cost(c) != cost(b)) {
                        ++out.moves;  // the move back
                        ++out.noise;
                        out.within += near(cost(c), cost(b), wobble.bound) ? 1 : 0;
                    }
                }
                ++k;  // the move back belongs to the blip
                continue;
            }
        }
        out.noise += within ? 1 : 0;
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

}  // namespace

WobbleBound wobble_bound(const History& h, const std::vector<Line>& lines,
                         const std::vector<std::size_t>& classes) {
    std::vector<std::vector<std::size_t>> ok(lines.size());
    for (std::size_t i = 0; i < lines.size(); ++i)
        ok_points(lines[i], ok[i]);
    std::vector<double> samples;
    return wobble_of(h, lines, ok, classes, samples);
}

LineSteps find_steps(const History& h, const Line& line, const std::vector<std::size_t>& classes,
                     const WobbleBound& wobble) {
    std::vector<std::size_t> ok;
    ok_points(line, ok);
    return steps_of(h, line, ok, classes, wobble);
}

// Collects the steps of every benchmark into the events of one branch. Not file-local:
// StepFinder::State, a class the header declares, holds them.
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
            std::stable_sort(e.steps.begin(), e.steps.end(), [](const auto& a, const auto& b) {
                return a.benchmark < b.benchmark;
            });
        }
        return std::move(branch);
    }
};

struct StepFinder::State {
    const History& h;
    StepsOptions options;
    RunKeys keys;
    std::vector<BranchCollector> collectors;
    std::map<std::string, std::size_t, std::less<>> index;  // branch -> collector
    std::vector<std::vector<std::size_t>> ok;               // per line: its ok points
    std::vector<double> samples;                            // for the wobble bound

    BranchCollector& collector(const std::string& branch) {
        auto [it, added] = index.emplace(branch, collectors.size());
        if (added) {
            collectors.emplace_back();
            collectors.back().branch.branch = branch;
            collectors.back().branch.is_default = branch == options.default_branch;
        }
        return collectors[it->second];
    }

    void add_line(const Series& series, const Line& line, const std::vector<std::size_t>& ok_,
                  const WobbleBound& wobble) {
        auto& c = collector(line.branch);
        c.add_runs(h, line);
        auto found = steps_of(h, line, ok_, keys.classes, wobble);
        c.branch.wobble_moves += found.within;
        c.branch.wobble.push_back({series.name, wobble, found.moves, found.noise});
        for (auto& s : found.steps) {
            if (s.label == Label::Wobble) {
                ++c.branch.wobble_steps;
                if (!options.include_wobble) continue;
            }
            c.add_step(h, {series.name, line.points[s.before], line.points[s.after], std::move(s),
                           wobble, std::nullopt});
        }
        c.branch.blip_count += found.blips.size();
        if (!options.list_blips) return;
        for (const auto& b : found.blips) {
            c.branch.blips.push_back({series.name, line.points[b.before], line.points[b.at], b});
        }
    }
};

StepFinder::StepFinder(const History& h, StepsOptions options)
    : state_(new State{h, std::move(options), run_keys(h), {}, {}, {}, {}}) {}

StepFinder::~StepFinder() = default;

void StepFinder::add(const Series& series) {
    auto& st = *state_;
    const auto lines = lines_of(st.h, series, st.keys, st.options.default_branch);
    st.ok.resize(std::max(st.ok.size(), lines.size()));
    for (std::size_t i = 0; i < lines.size(); ++i)
        ok_points(lines[i], st.ok[i]);
    const auto wobble = wobble_of(st.h, lines, st.ok, st.keys.classes, st.samples);
    for (std::size_t i = 0; i < lines.size(); ++i) {
        if (st.options.branch && lines[i].branch != *st.options.branch) continue;
        st.add_line(series, lines[i], st.ok[i], wobble);
    }
}

std::vector<BranchSteps> StepFinder::finish() {
    auto& st = *state_;
    std::vector<BranchSteps> out;
    for (auto& c : st.collectors)
        out.push_back(c.finish(st.h));
    // The default branch, then the others in the order they were first measured.
    std::stable_sort(out.begin(), out.end(), [](const BranchSteps& a, const BranchSteps& b) {
        if (a.is_default != b.is_default) return a.is_default;
        return !a.runs.empty() && !b.runs.empty() && a.runs.front() < b.runs.front();
    });
    return out;
}

std::vector<BranchSteps> find_all_steps(const History& h, const StepsOptions& options) {
    StepFinder finder(h, options);
    for (const auto& series : h.series)
        finder.add(series);
    return finder.finish();
}

}  // namespace cgbench::history
