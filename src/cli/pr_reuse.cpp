// `cgbench pr`: the base's run as the history holds it, when one can stand for a build. The
// rules (docs/reference/cgbench-pr.md, "Reusing the base's run"):
//   - a run of the merge base itself, of a clean work tree, not a bisect probe, not HEAD's own
//     run; the latest such, completed with the other runs of that commit (shards, one run per
//     benchmark) as `compare` completes a commit's run;
//   - under HEAD's fingerprint key (the same Valgrind, geometry, weights, CPU baseline...) and
//     with the same compilers as HEAD's build (a shard's among them): HEAD is measured first,
//     so both are known;
//   - holding an ok result for every benchmark HEAD measured that the base's suite file
//     defines: a benchmark the base lacks entirely is new (added); one the base defines but
//     the stored run lacks or records as failed means the stored run is not the whole base.

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "access/history_url.hpp"
#include "cli/pr.hpp"
#include "cli/worktree_run.hpp"
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

// Whether the programs of `head` were built by the compilers of `stored` (both sorted): the
// same ones; for a shard, which measures some of the programs, each of its compilers.
bool same_compilers(const std::vector<std::string>& stored, const std::vector<std::string>& head,
                    bool shard) {
    if (!shard) return stored == head;
    return std::includes(stored.begin(), stored.end(), head.begin(), head.end());
}

// The benchmarks of `stored` a shard compares: those HEAD's shard measured.
void keep_shard(RunResult& stored, const RunResult& head) {
    std::set<std::string_view> names;
    for (const auto& b : head.benchmarks)
        names.insert(b.name);
    const auto outside = [&names](const BenchmarkResult& b) { return names.count(b.name) == 0; };
    stored.benchmarks.erase(
        std::remove_if(stored.benchmarks.begin(), stored.benchmarks.end(), outside),
        stored.benchmarks.end());
}

// The latest clean run of the base under HEAD's key, with the others of its commit; or why
// there is none.
std::optional<RunResult> stored_run_of(history::HistoryBackend& history, const MergeBase& base,
                                       const RunResult& head, std::string& why,
                                       std::size_t& runs_used) {
    history::RunFilter filter;
    filter.commit = base.commit;
    filter.clean_only = true;
    const auto key = head.fingerprint.comparison_key();
    std::vector<std::string> exclude = {head.id};
    const history::FoundRun* anchor = nullptr;
    const history::FoundRun* measured_otherwise = nullptr;
    const auto found = history.find_runs(filter);
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
        const auto other = history.load_run(measured_otherwise->handle, {});
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
    auto first = history.load_run(anchor->handle, {});
    if (!first) {
        why = fmt::format("its run {} holds no results", util::printable(anchor->id));
        return std::nullopt;
    }
    std::vector<std::string> used;
    auto run = history::complete_from_commit(history, std::move(*first), exclude, used);
    runs_used = used.size();
    return run;
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
    const auto history = access::open_history(plan.history->string(), access::Access::Read);
    if (!history) {
        out.why_not = fmt::format("{} holds no history", util::printable(plan.history->string()));
        return out;
    }
    std::size_t runs_used = 0;
    auto stored = stored_run_of(*history, base, head, out.why_not, runs_used);
    if (!stored) return out;
    if (!same_compilers(stored->fingerprint.compilers, head.fingerprint.compilers,
                        plan.shard.has_value())) {
        out.why_not = fmt::format("its programs were built by {}, HEAD's by {}",
                                  compilers_text(stored->fingerprint.compilers),
                                  compilers_text(head.fingerprint.compilers));
        return out;
    }
    out.why_not = coverage_gap(*stored, head, suite_at(base.commit, plan.run, ctx));
    if (!out.why_not.empty()) return out;
    if (plan.shard) keep_shard(*stored, head);
    out.source = source_of(*stored, base, runs_used);
    out.run = std::move(stored);
    return out;
}

}  // namespace cgbench::cli::pr
