#include "history/lines.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <unordered_map>
#include <utility>

#include "history/environment.hpp"

namespace cgbench::history {

namespace {

bool clean(const Run& r) {
    return !r.git.dirty.value_or(false);
}

// One line being built: a result repeating a commit already on the line in the same
// environment replaces that point (the latest measurement wins, in the first one's place),
// and how far the two were apart is kept as wobble evidence.
struct LineBuilder {
    static constexpr std::uint32_t kNone = UINT32_MAX;
    Line line;
    std::vector<std::uint32_t> at;  // per RunKeys slot: its point, or kNone

    void add(const RunKeys& keys, const Result& r) {
        const auto slot = keys.slot[r.run];
        if (slot == RunKeys::kNoCommit) {
            line.points.push_back(r);
            return;
        }
        if (at.empty()) at.assign(keys.slots, kNone);
        if (at[slot] == kNone) {
            at[slot] = static_cast<std::uint32_t>(line.points.size());
            line.points.push_back(r);
            return;
        }
        auto& old = line.points[at[slot]];
        if (old.cost && r.cost && *old.cost != *r.cost) {
            if (const auto c = relative_change(*old.cost, *r.cost)) {
                line.repeats.push_back(std::abs(*c));
            }
        }
        old = r;
    }
};

// The epochs of `n` items, item i measured by run `run_at(i)`.
template <typename RunAt>
std::vector<Epoch> epochs_by(const History& h, std::size_t n, const RunAt& run_at) {
    std::vector<Epoch> out;
    for (std::size_t i = 0; i < n; ++i) {
        const auto run = run_at(i);
        if (out.empty() || h.key_of(run_at(out.back().first)) != h.key_of(run)) {
            out.push_back({i, i, h.runs[run].fingerprint});
        } else {
            out.back().last = i;
        }
    }
    return out;
}

}  // namespace

std::string branch_of(const Run& run) {
    return run.git.branch && !run.git.branch->empty() ? *run.git.branch : std::string(kNoBranch);
}

bool is_probe(const Run& run) {
    return run.recorded_by == kRecordedByBisect;
}

bool on_lines(const Run& run) {
    return clean(run) && !is_probe(run);
}

std::vector<std::size_t> environment_classes(const History& h) {
    std::vector<std::size_t> out(h.fingerprints.size());
    for (std::size_t i = 0; i < h.fingerprints.size(); ++i) {
        out[i] = i;
        for (std::size_t j = 0; j < i; ++j) {
            if (out[j] == j && h.keys[j] == h.keys[i] &&
                same_environment(h.fingerprints[j], h.fingerprints[i])) {
                out[i] = j;
                break;
            }
        }
    }
    return out;
}

RunKeys run_keys(const History& h) {
    RunKeys k;
    k.classes = environment_classes(h);
    std::unordered_map<std::string_view, std::uint32_t> commits;
    std::unordered_map<std::uint64_t, std::uint32_t> slots;  // (commit, class) -> slot
    std::unordered_map<std::string, std::uint32_t> branches;
    for (const auto& run : h.runs) {
        if (run.git.commit) {
            const auto [it, added] = commits.emplace(*run.git.commit, commits.size());
            k.commit.push_back(it->second);
            const auto key = (static_cast<std::uint64_t>(it->second) << 32) |
                             static_cast<std::uint64_t>(k.classes[run.fingerprint]);
            const auto [slot, new_slot] = slots.emplace(key, k.slots);
            if (new_slot) ++k.slots;
            k.slot.push_back(slot->second);
        } else {
            k.commit.push_back(RunKeys::kNoCommit);
            k.slot.push_back(RunKeys::kNoCommit);
        }
        auto name = branch_of(run);
        const auto [it, added] = branches.emplace(name, k.branches.size());
        if (added) k.branches.push_back(std::move(name));
        k.branch.push_back(it->second);
    }
    return k;
}

std::vector<Result> dirty_results(const History& h, const Series& series) {
    std::vector<Result> out;
    for (const auto& r : series.results) {
        if (!clean(h.run_of(r)) && !is_probe(h.run_of(r))) out.push_back(r);
    }
    return out;
}

std::vector<Line> lines_of(const History& h, const Series& series, const RunKeys& keys,
                           std::string_view default_branch) {
    std::vector<LineBuilder> builders;
    std::vector<std::size_t> index(keys.branches.size(), SIZE_MAX);  // branch -> builder
    for (const auto& r : series.results) {
        if (!on_lines(h.runs[r.run])) continue;
        auto& b = index[keys.branch[r.run]];
        if (b == SIZE_MAX) {
            b = builders.size();
            builders.push_back({Line{keys.branches[keys.branch[r.run]], {}, {}}, {}});
            builders.back().line.points.reserve(series.results.size());
        }
        builders[b].add(keys, r);
    }
    std::vector<Line> lines;
    lines.reserve(builders.size());
    for (auto& b : builders)
        lines.push_back(std::move(b.line));
    std::stable_partition(lines.begin(), lines.end(),
                          [&](const Line& l) { return l.branch == default_branch; });
    return lines;
}

std::string default_branch(const History& h, const std::optional<std::string>& preferred) {
    if (preferred && !preferred->empty()) return *preferred;
    std::map<std::string, std::size_t> runs;
    for (const auto& r : h.runs) {
        if (r.git.branch && !r.git.branch->empty() && on_lines(r)) ++runs[*r.git.branch];
    }
    for (const char* usual : {"main", "master"}) {
        if (runs.count(usual) != 0) return usual;
    }
    std::string best;
    std::size_t most = 0;
    for (const auto& [branch, n] : runs) {
        if (n > most) {
            best = branch;
            most = n;
        }
    }
    return best;
}

std::vector<Epoch> epochs_of(const History& h, const std::vector<Result>& points) {
    return epochs_by(h, points.size(), [&](std::size_t i) { return points[i].run; });
}

std::vector<Epoch> epochs_of_runs(const History& h, const std::vector<std::size_t>& runs) {
    return epochs_by(h, runs.size(), [&](std::size_t i) { return runs[i]; });
}

std::vector<std::optional<double>> changes_of(const History& h, const std::vector<Result>& points) {
    std::vector<std::optional<double>> out(points.size());
    const auto epochs = epochs_of(h, points);
    for (const auto& e : epochs) {
        const Result* previous = nullptr;
        for (std::size_t i = e.first; i <= e.last; ++i) {
            if (!points[i].cost) continue;
            if (previous != nullptr) out[i] = relative_change(*previous->cost, *points[i].cost);
            previous = &points[i];
        }
    }
    return out;
}

std::optional<double> relative_change(std::uint64_t before, std::uint64_t after) {
    if (before == 0) return std::nullopt;
    return (static_cast<double>(after) - static_cast<double>(before)) /
           static_cast<double>(before);
}

}  // namespace cgbench::history
