#include "history/stored_runs.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "base/errors.hpp"
#include "util/strings.hpp"

namespace cgbench::history {

namespace {

bool listed(const std::vector<std::string>& ids, std::string_view id) {
    return std::find(ids.begin(), ids.end(), id) != ids.end();
}

bool dirty(const GitInfo& git) {
    return git.dirty.value_or(false);
}

// The whole of the first of `found` not in `exclude`.
std::optional<RunResult> first_not_excluded(HistoryBackend& history,
                                            const std::vector<FoundRun>& found,
                                            const std::vector<std::string>& exclude,
                                            RunParts parts) {
    for (const auto& run : found) {
        if (!listed(exclude, run.id)) return history.load_run(run.handle, {}, parts);
    }
    return std::nullopt;
}

}  // namespace

void record_run(HistoryBackend& history, const RunResult& run) {
    const auto batch = history.begin_batch();
    if (batch->add(run)) {
        throw EnvironmentError(fmt::format("history database {} holds a run with id {} already",
                                           history.name(), util::printable(run.id)),
                               "pass --db with another path");
    }
    batch->commit();
}

std::optional<StoredCosts> latest_costs(HistoryBackend& history,
                                        const std::vector<std::string>& names) {
    const auto wanted = [&names](std::string_view name) {
        return std::find(names.begin(), names.end(), name) != names.end();
    };
    for (const auto& found : history.find_runs({})) {
        const auto run = history.load_run(found.handle, wanted, kNumbersOnly);
        // A shard run measured part of a split: it would change the balance of the shards
        // measured after it.
        if (!run || !run->shard.empty()) continue;
        StoredCosts out{run->id, {}};
        for (const auto& b : run->benchmarks) {
            if (b.status == BenchStatus::Ok) out.costs[b.name] = b.cost;
        }
        if (!out.costs.empty()) return out;
    }
    return std::nullopt;
}

std::optional<RunResult> run_by_id(HistoryBackend& history, std::string_view id, RunParts parts) {
    RunFilter filter;
    filter.id = std::string(id);
    filter.limit = 1;
    return first_not_excluded(history, history.find_runs(filter), {}, parts);
}

std::optional<RunResult> latest_run(HistoryBackend& history, RunParts parts,
                                    std::string_view exclude_id) {
    RunFilter filter;
    filter.limit = 2;  // ids are unique: at most one of them is `exclude_id`
    return first_not_excluded(history, history.find_runs(filter), {std::string(exclude_id)}, parts);
}

std::optional<RunResult> latest_run_at_commit(HistoryBackend& history, std::string_view commit,
                                              RunParts parts,
                                              const std::vector<std::string>& exclude) {
    RunFilter filter;
    filter.commit = std::string(commit);
    auto found = history.find_runs(filter);
    std::stable_partition(found.begin(), found.end(),
                          [](const FoundRun& r) { return !dirty(r.git); });
    return first_not_excluded(history, found, exclude, parts);
}

std::optional<RunResult> latest_run_on_branch(HistoryBackend& history, std::string_view branch,
                                              std::string_view fingerprint_key, RunParts parts,
                                              const std::vector<std::string>& exclude) {
    RunFilter filter;
    filter.branch = std::string(branch);
    filter.fingerprint_key = std::string(fingerprint_key);
    filter.clean_only = true;
    filter.limit = exclude.size() + 1;  // enough for one run outside `exclude`
    auto found = history.find_runs(filter);
    // `backfill` measures past commits after the fact: the previous run is the newest the
    // branch recorded itself, a backfilled one only when it has none.
    const auto backfilled = [](const FoundRun& r) { return r.recorded_by == kRecordedByBackfill; };
    const auto first = std::find_if(found.begin(), found.end(),
                                    [&](const FoundRun& r) { return !listed(exclude, r.id); });
    if (first != found.end() && backfilled(*first)) {
        filter.limit = SIZE_MAX;
        found = history.find_runs(filter);
        std::stable_partition(found.begin(), found.end(),
                              [&](const FoundRun& r) { return !backfilled(r); });
    }
    return first_not_excluded(history, found, exclude, parts);
}

RunResult complete_from_commit(HistoryBackend& history, RunResult anchor,
                               const std::vector<std::string>& exclude,
                               std::vector<std::string>& used, RunParts parts) {
    used.push_back(anchor.id);
    if (!anchor.git.commit) return anchor;
    RunFilter filter;
    filter.commit = *anchor.git.commit;
    filter.fingerprint_key = anchor.fingerprint.comparison_key();
    std::set<std::string, std::less<>> names;
    for (const auto& b : anchor.benchmarks)
        names.insert(b.name);
    const auto lacking = [&names](std::string_view name) { return names.count(name) == 0; };
    for (const auto& found : history.find_runs(filter)) {
        if (found.id == anchor.id || dirty(found.git) != dirty(anchor.git) ||
            listed(exclude, found.id)) {
            continue;
        }
        auto other = history.load_run(found.handle, lacking, parts);
        if (!other) continue;
        for (auto& b : other->benchmarks) {
            if (!names.insert(b.name).second) continue;  // a name twice in one run
            if (!listed(used, found.id)) used.push_back(found.id);
            anchor.benchmarks.push_back(std::move(b));
        }
    }
    return anchor;
}

std::optional<RunResult> clean_run_at_commit(HistoryBackend& history, std::string_view commit,
                                             RunParts parts) {
    RunFilter filter;
    filter.commit = std::string(commit);
    filter.clean_only = true;
    filter.limit = 1;
    auto anchor = first_not_excluded(history, history.find_runs(filter), {}, parts);
    if (!anchor) return std::nullopt;
    std::vector<std::string> used;
    return complete_from_commit(history, std::move(*anchor), {}, used, parts);
}

}  // namespace cgbench::history
