#include "cli/history_support.hpp"

#include <fmt/format.h>

#include <set>

#include "base/errors.hpp"
#include "exec/environment.hpp"
#include "exec/process.hpp"
#include "history/lines.hpp"
#include "runner/git_info.hpp"
#include "util/strings.hpp"

namespace cgbench::cli {

std::vector<history::BranchSteps> explained_steps(history::HistoryBackend& store,
                                                  const history::History& h,
                                                  const history::StepsOptions& options) {
    auto branches = history::find_all_steps(h, options);
    explain_steps(store, h, branches);
    return branches;
}

void explain_steps(history::HistoryBackend& store, const history::History& h,
                   std::vector<history::BranchSteps>& branches) {
    // Every result read at once: a server answers one query, not two per step.
    std::vector<history::StoredResultAt> wanted;
    for (const auto& b : branches) {
        for (const auto& e : b.events) {
            for (const auto& s : e.steps) {
                wanted.push_back({&h.runs[s.before.run], s.before.position});
                wanted.push_back({&h.runs[s.after.run], s.after.position});
            }
        }
    }
    const auto read = store.result_reader()->read_all(wanted);
    std::size_t next = 0;
    for (auto& b : branches) {
        for (auto& e : b.events) {
            for (auto& s : e.steps) {
                const auto& before = read[next++];
                const auto& after = read[next++];
                if (before && after) s.explanation = history::explain_step(*before, *after);
            }
        }
    }
}

std::vector<std::size_t> runs_of(const std::vector<history::BranchSteps>& branches) {
    std::set<std::size_t> runs;
    for (const auto& b : branches) {
        for (const auto& e : b.events) {
            runs.insert(e.run);
            for (const auto& s : e.steps)
                runs.insert(s.before.run);
        }
        for (const auto& e : b.epochs)
            runs.insert(b.runs[e.first]);
    }
    return {runs.begin(), runs.end()};
}

history::Commits commit_subjects(const history::History& h, const std::vector<std::size_t>& runs,
                                 const Context& ctx) {
    history::Commits out;
    std::set<std::string> unknown;  // commits recorded without their subject
    for (const auto r : runs) {
        const auto& git = h.runs[r].git;
        if (!git.commit) continue;
        if (git.subject) {
            out[*git.commit] = {*git.subject, "", git.commit_time.value_or("")};
        } else {
            unknown.insert(*git.commit);
        }
    }
    for (const auto& c : out)
        unknown.erase(c.first);
    if (unknown.empty()) return out;
    auto read =
        runner::read_commits(ctx.cwd, {unknown.begin(), unknown.end()}, ctx.env, ctx.runner);
    out.merge(read);
    return out;
}

void unknown_benchmark(history::HistoryBackend& store, const std::string& name) {
    const auto names = store.benchmark_names();
    const std::vector<std::string_view> candidates(names.begin(), names.end());
    const auto near = util::closest(name, candidates, std::max<std::size_t>(2, name.size() / 3));
    throw UsageError(
        fmt::format("no results for benchmark '{}' in {}", util::printable(name), store.name()),
        near.empty() ? "`cgbench history` lists the runs; a name is what --name gave"
                     : fmt::format("did you mean '{}'?", util::printable(near)));
}

void check_branch(const history::History& h, const std::string& branch) {
    std::set<std::string> branches;
    for (const auto& r : h.runs)
        branches.insert(history::branch_of(r));
    if (branches.count(branch) != 0) return;
    std::vector<std::string> list;
    for (const auto& b : branches)
        list.push_back(util::printable(b));
    throw UsageError(fmt::format("no run was recorded on branch '{}'", util::printable(branch)),
                     "recorded branches: " + util::join(list, ", "));
}

}  // namespace cgbench::cli
