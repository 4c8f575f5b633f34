// `cgbench pr`: the base's run as the history holds it, when one can stand for a build. The
// rules (docs/reference/cgbench-pr.md, "Reusing the base's run"):
//   - a run of the merge base itself, of a clean work tree, not a bisect probe, not HEAD's own
//     run; the latest such, completed with the other runs of that commit (shards, one run per
//     benchmark) as `compare` completes a commit's run;
//   - under HEAD's fingerprint key (the same Valgrind, geometry, weights, CPU baseline...) and
//     with the same compilers as HEAD's build: those of every stored run a compared result
//     comes from (a sharded main records one run per shard), against HEAD's (a shard's among
//     them). HEAD is measured first, so both are known;
//   - holding an ok result for every benchmark HEAD measured that the base's suite file
//     defines: a benchmark the base lacks entirely is new (added); one the base defines but
//     the stored run lacks or records as failed means the stored run is not the whole base.

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "access/history_url.hpp"
#include "cli/pr.hpp"
#include "cli/worktree_run.hpp"
#include "config/shard.hpp"
#include "history/stored_runs.hpp"
#include "util/strings.hpp"

namespace cgbench::cli::pr {

namespace {

std::string short_commit(const std::string& commit) {
    return commit.substr(0, 10);
}

std::string compilers_text(const std::vector<std::string>& compilers) {
    if (compilers.empty()) return "no compiler cgbench can name";
    return util::printable(util::join(compilers, "; "));
}

// Why `stored` does not hold the base's result of each benchmark HEAD measured, or empty.
// `base_suite`: the suite file at the base (nullopt: no suite file, one program).
std::string coverage_gap(const RunResult& stored, const RunResult& head,
                         const std::optional<SuiteAtCommit>& base_suite) {
    std::map<std::string_view, const BenchmarkResult*> by_name;
    for (const auto& b : stored.benchmarks)
        by_name.emplace(b.name, &b);
    for (const auto& b : head.benchmarks) {
        const auto it = by_name.find(b.name);
        const auto name = util::printable(b.name);
        if (it != by_name.end()) {
            if (it->second->status == BenchStatus::Ok) continue;
            return fmt::format("it records '{}' as failed", name);
        }
        if (!base_suite || !base_suite->suite) {
            return fmt::format(
                "it lacks '{}', and the base's suite file cannot be read from git "
                "to tell whether that is new",
                name);
        }
        if (defined_by(*base_suite->suite, b.name)) {
            return fmt::format("it lacks '{}', which the base's suite file defines", name);
        }
    }
    return "";
}

// Whether the programs of `head` were built by `stored`, the compilers of the stored runs
// the compared results come from (both sorted): the same ones; for a shard, which measures
// some of the programs, each of its compilers.
bool same_compilers(const std::vector<std::string>& stored, const std::vector<std::string>& head,
                    bool shard) {
    if (!shard) return stored == head;
    return std::includes(stored.begin(), stored.end(), head.begin(), head.end());
}

// The benchmarks of `stored` shard `shard` compares: those the base, had it been built, would
// have measured in that shard. Both sides split their own suites by name (measure() runs
// without the history's costs), so this is the same split of the base's names: a benchmark
// the pull request removed stays in exactly one shard and the joined report lists it.
void keep_shard(RunResult& stored, const std::string& shard) {
    std::vector<std::string> names;
    for (const auto& b : stored.benchmarks)
        names.push_back(b.name);
    std::vector<BenchmarkResult> kept;
    for (const auto i :
         config::shard_members(names, config::parse_shard(shard, "--shard"), std::nullopt)) {
        kept.push_back(std::move(stored.benchmarks[i]));
    }
    stored.benchmarks = std::move(kept);
}

// The sorted compilers of the stored runs `used` (ids, of `found`) that hold a result of
// `stored`, which was completed from them: only those built what is compared.
std::vector<std::string> compilers_of(history::HistoryBackend& history,
                                      const std::vector<history::FoundRun>& found,
                                      const std::vector<std::string>& used,
                                      const RunResult& stored) {
    std::set<std::string, std::less<>> names;
    for (const auto& b : stored.benchmarks)
        names.insert(b.name);
    const auto compared = [&names](std::string_view name) { return names.count(name) > 0; };
    std::set<std::string> out;
    for (const auto& r : found) {
        if (std::find(used.begin(), used.end(), r.id) == used.end()) continue;
        const auto run = history.load_run(r.handle, compared, history::kNumbersOnly);
        if (!run || run->benchmarks.empty()) continue;
        out.insert(run->fingerprint.compilers.begin(), run->fingerprint.compilers.end());
    }
    return {out.begin(), out.end()};
}

// The latest clean run of the base under HEAD's key, with the others of its commit (the ids
// of those drawn on in `used`, every run of the commit in `found`); or why there is none.
std::optional<RunResult> stored_run_of(history::HistoryBackend& history, const MergeBase& base,
                                       const RunResult& head, std::string& why,
                                       std::vector<history::FoundRun>& found,
                                       std::vector<std::string>& used) {
    history::RunFilter filter;
    filter.commit = base.commit;
    filter.clean_only = true;
    const auto key = head.fingerprint.comparison_key();
    std::vector<std::string> exclude = {head.id};
    const history::FoundRun* anchor = nullptr;
    const history::FoundRun* measured_otherwise = nullptr;
    found = history.find_runs(filter);
    for (const auto& r : found) {
        if (r.recorded_by == kRecordedByBisect) exclude.push_back(r.id);
        if (r.recorded_by == kRecordedByBisect || r.id == head.id) continue;
        if (r.fingerprint_key != key) {
            if (measured_otherwise == nullptr) measured_otherwise = &r;
        } else if (anchor == nullptr) {
            anchor = &r;
        }
    }
    if (anchor == nullptr && measured_otherwise != nullptr) {
        const auto other = history.load_run(measured_otherwise->handle, {}, history::kNumbersOnly);
        const auto diffs =
            other ? other->fingerprint.differences(head.fingerprint) : std::vector<std::string>{};
        why = fmt::format(
            "its run {} was measured differently ({})", util::printable(measured_otherwise->id),
            util::printable(diffs.empty() ? "another fingerprint key" : util::join(diffs, "; ")));
        return std::nullopt;
    }
    if (anchor == nullptr) {
        why = fmt::format("the history holds no clean run of {}", short_commit(base.commit));
        return std::nullopt;
    }
    // The base's kept lines: `pr` annotates with them.
    auto first = history.load_run(anchor->handle, {}, history::SourceLines::Read);
    if (!first) {
        why = fmt::format("its run {} holds no results", util::printable(anchor->id));
        return std::nullopt;
    }
    return history::complete_from_commit(history, std::move(*first), exclude, used,
                                         history::SourceLines::Read);
}

// "main's run of 1a2b3c4d5e, recorded 2026-11-27T07:31:02Z"
std::string source_of(const RunResult& run, const MergeBase& base, std::size_t runs_used) {
    const auto whose = run.git.branch ? util::printable(*run.git.branch) + "'s run" : "the run";
    auto out = fmt::format("{} of {}, recorded {}", whose, short_commit(base.commit), run.started);
    if (runs_used > 1) out += fmt::format(" (completed from {} runs of that commit)", runs_used);
    return out;
}

}  // namespace

bool defined_by(const config::Suite& suite, std::string_view name) {
    return std::any_of(suite.entries.begin(), suite.entries.end(), [name](const auto& e) {
        return name == e.name || (util::starts_with(name, e.name) && name.size() > e.name.size() &&
                                  name[e.name.size()] == '/');
    });
}

StoredBase find_stored_base(const config::PrPlan& plan, const MergeBase& base,
                            const RunResult& head, const Context& ctx) {
    StoredBase out;
    if (!plan.reuse) {
        out.why_not = "--no-reuse";
        return out;
    }
    if (!plan.history) {
        out.why_not = "no --history to look its run up in";
        return out;
    }
    const auto history = access::open_history(*plan.history, access::Access::Read);
    if (!history) {
        out.why_not = fmt::format("{} holds no history", *plan.history);
        return out;
    }
    std::vector<history::FoundRun> found;
    std::vector<std::string> used;
    auto stored = stored_run_of(*history, base, head, out.why_not, found, used);
    if (!stored) return out;
    out.why_not = coverage_gap(*stored, head, suite_at(base.commit, plan.run, ctx));
    if (!out.why_not.empty()) return out;
    if (plan.shard) keep_shard(*stored, *plan.shard);
    const auto compilers = compilers_of(*history, found, used, *stored);
    if (!same_compilers(compilers, head.fingerprint.compilers, plan.shard.has_value())) {
        out.why_not =
            fmt::format("its programs were built by {}, HEAD's by {}", compilers_text(compilers),
                        compilers_text(head.fingerprint.compilers));
        return out;
    }
    out.source = source_of(*stored, base, used.size());
    out.runs = std::move(used);
    out.run = std::move(stored);
    return out;
}

}  // namespace cgbench::cli::pr
