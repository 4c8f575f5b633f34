#include "history/order.hpp"

#include <algorithm>
#include <numeric>
#include <unordered_map>

#include "history/lines.hpp"
#include "util/time.hpp"

namespace cgbench::history {

namespace {

// What orders one run.
struct Key {
    std::optional<std::int64_t> time;    // commit time, seconds since the epoch
    std::optional<std::uint64_t> depth;  // place on its first-parent line
};

// Each run's key: the recorded facts, and places derived from a measured parent's.
std::vector<Key> keys_of(const History& h) {
    std::vector<Key> keys(h.runs.size());
    std::unordered_map<std::string_view, std::uint64_t> depth_of;            // commit -> place
    std::unordered_map<std::string_view, std::vector<std::size_t>> waiting;  // parent -> runs
    std::vector<std::size_t> known;
    for (std::size_t i = 0; i < h.runs.size(); ++i) {
        const auto& git = h.runs[i].git;
        if (git.commit_time) keys[i].time = util::parse_iso8601(*git.commit_time);
        if (!git.commit) continue;
        if (git.first_parent_depth) {
            keys[i].depth = git.first_parent_depth;
            depth_of.emplace(*git.commit, *git.first_parent_depth);
            known.push_back(i);
        } else if (!git.parents.empty()) {
            waiting[git.parents.front()].push_back(i);
        }
    }
    // A run read in a shallow clone whose first parent has a place is one further.
    while (!known.empty()) {
        const auto i = known.back();
        known.pop_back();
        const auto it = waiting.find(*h.runs[i].git.commit);
        if (it == waiting.end()) continue;
        const auto children = std::move(it->second);
        waiting.erase(it);
        for (const auto c : children) {
            keys[c].depth = *keys[i].depth + 1;
            if (depth_of.emplace(*h.runs[c].git.commit, *keys[c].depth).second) known.push_back(c);
        }
    }
    return keys;
}

// Reorders the runs of `order` (run indices by slot) that `chosen` accepts among the slots
// they hold, by `less`.
template <typename Chosen, typename Less>
void reorder_slots(std::vector<std::size_t>& order, const Chosen& chosen, const Less& less) {
    std::vector<std::size_t> slots;
    std::vector<std::size_t> runs;
    for (std::size_t s = 0; s < order.size(); ++s) {
        if (chosen(order[s])) {
            slots.push_back(s);
            runs.push_back(order[s]);
        }
    }
    std::stable_sort(runs.begin(), runs.end(), less);
    for (std::size_t k = 0; k < slots.size(); ++k)
        order[slots[k]] = runs[k];
}

// The branches whose clean runs, in order, cannot be one first-parent line.
void find_conflicts(const History& h, Ordering& out) {
    std::unordered_map<std::string, const Run*> last;  // branch -> its latest run with a place
    for (const auto& run : h.runs) {
        if (!on_lines(run) || !run.git.commit || !run.git.first_parent_depth) continue;
        const auto branch = branch_of(run);
        const auto [it, added] = last.emplace(branch, &run);
        if (added) continue;
        const Run& before = *it->second;
        it->second = &run;
        if (*before.git.commit == *run.git.commit) continue;
        const auto depth = *run.git.first_parent_depth;
        const auto previous = *before.git.first_parent_depth;
        const bool same = depth == previous;
        const bool stranger = depth == previous + 1 && !run.git.parents.empty() &&
                              run.git.parents.front() != *before.git.commit;
        if (!same && !stranger) continue;
        if (++out.conflict_count <= kListedConflicts) {
            out.conflicts.push_back({branch, *before.git.commit, *run.git.commit, depth, same});
        }
    }
}

}  // namespace

void order_runs(History& h) {
    const auto keys = keys_of(h);
    std::vector<std::size_t> order(h.runs.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    reorder_slots(
        order, [&](std::size_t i) { return keys[i].time.has_value(); },
        [&](std::size_t a, std::size_t b) { return *keys[a].time < *keys[b].time; });
    reorder_slots(
        order, [&](std::size_t i) { return keys[i].depth.has_value(); },
        [&](std::size_t a, std::size_t b) {
            if (*keys[a].depth != *keys[b].depth) return *keys[a].depth < *keys[b].depth;
            return keys[a].time.value_or(0) < keys[b].time.value_or(0);
        });
    Ordering o;
    o.done = true;
    for (std::size_t i = 0; i < keys.size(); ++i) {
        if (!h.runs[i].git.commit) continue;
        if (keys[i].depth) {
            ++o.ancestry;
        } else if (keys[i].time) {
            ++o.commit_time;
        } else {
            ++o.measured;
        }
    }
    std::vector<std::size_t> place(h.runs.size());  // old index -> new
    std::vector<Run> runs;
    runs.reserve(h.runs.size());
    for (const auto i : order) {
        place[i] = runs.size();
        runs.push_back(std::move(h.runs[i]));
    }
    h.runs = std::move(runs);
    for (auto& s : h.series) {
        for (auto& r : s.results)
            r.run = place[r.run];
        std::stable_sort(s.results.begin(), s.results.end(),
                         [](const Result& a, const Result& b) { return a.run < b.run; });
    }
    find_conflicts(h, o);
    h.ordering = std::move(o);
}

}  // namespace cgbench::history
