#include "access/run_ref.hpp"

#include <fmt/format.h>

#include <map>
#include <system_error>

#include "base/errors.hpp"
#include "core/result_file.hpp"
#include "core/result_json.hpp"
#include "history/stored_runs.hpp"
#include "util/strings.hpp"

namespace cgbench::access {

namespace fs = std::filesystem;

namespace {

std::string short_commit(std::string_view commit) {
    return std::string(commit.substr(0, 10));
}

}  // namespace

RunResolver::RunResolver(std::optional<history::HistorySource> db, fs::path git_dir,
                         const exec::EnvMap& caller, exec::ProcessRunner& runner,
                         history::RunParts parts)
    : db_(std::move(db)), git_(std::move(git_dir), caller, runner), parts_(parts) {}

history::HistoryBackend* RunResolver::history_if_present() {
    if (!opened_) {
        opened_ = true;
        if (db_) history_ = db_->open();
    }
    return history_.get();
}

history::HistoryBackend& RunResolver::history(std::string_view wanted_for) {
    if (auto* h = history_if_present()) return *h;
    if (!db_) {
        throw UsageError(fmt::format("{} needs the history database, and --no-db was given",
                                     util::printable(wanted_for)),
                         "name result files instead, or drop --no-db");
    }
    throw UsageError(fmt::format("{}: there is no history database at {}",
                                 util::printable(wanted_for), db_->name),
                     "record runs with `cgbench run` first, pass --db PATH, or name result files");
}

ResolvedRun RunResolver::completed(RunResult anchor, const std::string& label,
                                   std::vector<std::string> notes,
                                   const std::vector<std::string>& exclude) {
    ResolvedRun out;
    out.run = history::complete_from_commit(history(label), std::move(anchor), exclude, out.run_ids,
                                            parts_);
    if (out.run_ids.size() > 1) notes.push_back(fmt::format("{} runs", out.run_ids.size()));
    out.label = notes.empty() ? label : fmt::format("{} ({})", label, util::join(notes, ", "));
    if (out.run.git.dirty.value_or(false)) {
        out.warnings.push_back(
            fmt::format("{}: run {} was measured with uncommitted changes", out.label, out.run.id));
    }
    return out;
}

ResolvedRun RunResolver::at_commit(const std::string& commit, const std::string& label,
                                   const std::vector<std::string>& exclude) {
    auto run = history::latest_run_at_commit(history(label), commit, parts_, exclude);
    if (!run) {
        throw UsageError(fmt::format("no run recorded at commit {} ({}) in {}",
                                     short_commit(commit), util::printable(label), db_->name),
                         "check out that commit and run `cgbench run` there, or name a run id "
                         "or a result file");
    }
    return completed(std::move(*run), label, {short_commit(commit)}, exclude);
}

ResolvedRun RunResolver::resolve(const std::string& ref, const std::vector<std::string>& exclude) {
    std::error_code ec;
    if (fs::is_regular_file(ref, ec)) return ResolvedRun{read_result_file(ref), ref, {}, {}};
    if (util::starts_with(ref, kRunPrefix)) return by_id(ref.substr(kRunPrefix.size()));
    std::optional<RunResult> stored;
    if (auto* h = history_if_present()) stored = history::run_by_id(*h, ref, parts_);
    const auto known = commits_.find(ref);
    const auto commit = known != commits_.end() ? known->second : git_.commits({ref}).front();
    // An imported run may carry any id, a tag's or a branch's too: which one is meant is
    // never guessed.
    if (stored && commit) {
        throw UsageError(
            fmt::format("'{}' names both run {} in {} and the git ref {} (commit {})",
                        util::printable(ref), util::printable(ref), db_->name, util::printable(ref),
                        short_commit(*commit)),
            fmt::format("write {}{} for the stored run, or the commit ({}) or the full ref "
                        "(refs/tags/..., refs/heads/...) for the git ref",
                        kRunPrefix, util::printable(ref), short_commit(*commit)));
    }
    if (stored) return ResolvedRun{std::move(*stored), "run " + ref, {}, {ref}};
    if (commit) return at_commit(*commit, ref, exclude);
    const std::string db =
        db_ ? fmt::format("a run id in {}", db_->name) : std::string("a run id (--no-db)");
    throw UsageError(
        fmt::format("'{}' is neither a result file, {}, nor a git ref", util::printable(ref), db),
        "list stored runs with `cgbench history`, or pass a file written by "
        "`cgbench run --out`");
}

void RunResolver::look_up(const std::vector<std::string>& refs) {
    std::vector<std::string> asked;
    for (const auto& ref : refs) {
        std::error_code ec;
        if (commits_.count(ref) == 0 && !fs::is_regular_file(ref, ec) &&
            !util::starts_with(ref, kRunPrefix)) {
            asked.push_back(ref);
        }
    }
    if (asked.empty()) return;
    const auto found = git_.commits(asked);
    for (std::size_t i = 0; i < asked.size(); ++i)
        commits_[asked[i]] = found[i];
}

ResolvedRun RunResolver::by_id(const std::string& id) {
    auto& h = history(std::string(kRunPrefix) + id);
    if (auto run = history::run_by_id(h, id, parts_))
        return ResolvedRun{std::move(*run), "run " + id, {}, {id}};
    throw UsageError(fmt::format("there is no run {} in {}", util::printable(id), db_->name),
                     "list stored runs with `cgbench history`");
}

ResolvedRun RunResolver::latest() {
    auto run = history::latest_run(history("the latest run"), parts_);
    if (!run) {
        throw UsageError(fmt::format("the history database {} holds no runs", db_->name),
                         "record one with `cgbench run`, or name result files");
    }
    return completed(std::move(*run), "latest run", {}, {});
}

// HEAD already on BRANCH is its own merge base: the base is another run at that commit, and
// without one the usual "no run at commit" would not say why.
void RunResolver::refuse_head_on_base_branch(const std::string& commit, const std::string& branch,
                                             const std::vector<std::string>& exclude) {
    if (history::latest_run_at_commit(history("the merge base"), commit, history::kNumbersOnly,
                                      exclude)) {
        return;
    }
    throw UsageError(
        fmt::format("HEAD ({}) is on {}, so it is its own merge base, and no other run is recorded "
                    "at it in {}",
                    short_commit(commit), util::printable(branch), db_->name),
        "compare with the previous run of the branch (--previous), or name BASE explicitly");
}

ResolvedRun RunResolver::at_merge_base(const ResolvedRun& head,
                                       const std::optional<std::string>& base_branch) {
    auto head_commit = head.run.git.commit;
    if (!head_commit) head_commit = git_.run({"rev-parse", "HEAD"});
    if (!head_commit) {
        throw UsageError(
            "cannot find a merge base: HEAD's run has no git commit and this is "
            "not a git checkout",
            "name BASE explicitly: a result file, a run id or a git ref");
    }
    const std::vector<std::string> candidates =
        base_branch ? std::vector<std::string>{*base_branch}
                    : std::vector<std::string>{"main", "master", "origin/main", "origin/master"};
    for (const auto& branch : candidates) {
        if (const auto base = git_.run({"merge-base", "--end-of-options", *head_commit, branch})) {
            if (*base == *head_commit) refuse_head_on_base_branch(*base, branch, head.run_ids);
            return at_commit(*base, fmt::format("merge base with {}", branch), head.run_ids);
        }
    }
    throw UsageError(
        fmt::format("cannot find the merge base of {} with {}", short_commit(*head_commit),
                    base_branch ? util::printable(*base_branch) : std::string("main or master")),
        "pass --base-branch NAME, or name BASE explicitly");
}

std::optional<ResolvedRun> RunResolver::previous_on_branch(const ResolvedRun& head) {
    const auto& branch = head.run.git.branch;
    if (!branch || branch->empty()) {
        throw UsageError(
            fmt::format("{} names no git branch, so it has no previous run",
                        util::printable(head.label)),
            "measure on a branch, or set CGBENCH_BRANCH to the branch name in a detached "
            "checkout");
    }
    if (!db_) {
        throw UsageError("--previous needs the history database, and --no-db was given",
                         "pass --db PATH");
    }
    auto* h = history_if_present();
    if (h == nullptr) return std::nullopt;
    auto run = history::latest_run_on_branch(
        *h, *branch, head.run.fingerprint.comparison_key(), parts_,
        head.run_ids.empty() ? std::vector{head.run.id} : head.run_ids);
    if (!run) return std::nullopt;
    const std::string label = fmt::format("previous run of {}", util::printable(*branch));
    std::vector<std::string> notes;
    if (run->git.commit) notes.push_back(short_commit(*run->git.commit));
    return completed(std::move(*run), label, std::move(notes), head.run_ids);
}

void RunResolver::read_functions(const ResolvedRun& run,
                                 const std::vector<BenchmarkResult*>& results) {
    if (parts_.functions == history::KeptFunctions::Read || run.run_ids.empty()) return;
    std::map<std::string_view, BenchmarkResult*> left;  // by name
    for (auto* b : results)
        left.emplace(b->name, b);
    const auto wanted = [&left](std::string_view name) { return left.count(name) > 0; };
    auto& h = history("the functions of " + run.label);
    for (const auto& id : run.run_ids) {
        if (left.empty()) return;
        history::RunFilter filter;
        filter.id = id;
        filter.limit = 1;
        const auto found = h.find_runs(filter);
        if (found.empty()) continue;
        auto stored = h.load_run(found.front().handle, wanted,
                                 {history::SourceLines::Skip, history::KeptFunctions::Read});
        if (!stored) continue;
        for (auto& b : stored->benchmarks) {
            const auto it = left.find(b.name);
            if (it == left.end()) continue;  // taken from an earlier run, or a name twice
            it->second->functions = std::move(b.functions);
            left.erase(it);
        }
    }
}

}  // namespace cgbench::access
