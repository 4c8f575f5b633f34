#include "cli/bisect_oracle.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "base/errors.hpp"
#include "cli/command.hpp"
#include "cli/worktree_run.hpp"
#include "history/stored_runs.hpp"
#include "runner/run_pipeline.hpp"
#include "util/probe_cache.hpp"
#include "util/strings.hpp"

namespace cgbench::cli {

namespace fs = std::filesystem;

namespace {

// The benchmark that moved most against GOOD, as "search/1M +13.56%".
std::string headline(const compare::Comparison& c) {
    const compare::MetricChange* most = nullptr;
    std::string name;
    for (const auto& b : c.benchmarks) {
        const auto* cost = b.change(metrics::Metric::cost());
        if (cost == nullptr) continue;
        if (most == nullptr || std::abs(cost->relative()) > std::abs(most->relative())) {
            most = cost;
            name = b.name;
        }
    }
    if (most == nullptr || most->base == most->head) return "the same as good";
    return fmt::format("{} {} vs good", util::printable(name),
                       util::precise_percent(most->relative()));
}

history::Verdict verdict_of(const compare::Comparison& c) {
    bool moved = false;
    for (const auto& b : c.benchmarks) {
        switch (b.verdict) {
            case compare::Verdict::Regression:
            case compare::Verdict::Improvement:
                moved = true;
                break;
            case compare::Verdict::Failed:
            case compare::Verdict::StillFailing:
            case compare::Verdict::Removed:
            case compare::Verdict::Added:
                return history::Verdict::Skip;  // nothing to judge by at this commit
            default:
                break;
        }
    }
    return moved ? history::Verdict::Moved : history::Verdict::Unmoved;
}

std::string last_line(std::string_view text) {
    text = util::trim(text);
    const auto nl = text.rfind('\n');
    return util::printable(nl == std::string_view::npos ? text : text.substr(nl + 1));
}

}  // namespace

BisectOracle::BisectOracle(BisectSetup setup, history::HistoryBackend* history, const Context& ctx)
    : setup_(std::move(setup)), history_(history), ctx_(ctx) {}

BisectOracle::~BisectOracle() = default;

RunResult BisectOracle::only_judged(RunResult run) const {
    auto& b = run.benchmarks;
    b.erase(std::remove_if(
                b.begin(), b.end(),
                [this](const BenchmarkResult& r) { return setup_.names.count(r.name) == 0; }),
            b.end());
    return run;
}

std::optional<RunResult> BisectOracle::stored_at(const std::string& commit) {
    if (history_ == nullptr) return std::nullopt;
    auto run = history::clean_run_at_commit(*history_, commit, history::SourceLines::Skip);
    if (!run) return std::nullopt;
    auto judged = only_judged(std::move(*run));
    if (judged.benchmarks.size() < setup_.names.size()) return std::nullopt;  // not all there
    return judged;
}

std::optional<RunResult> BisectOracle::measure(const std::string& commit,
                                               report::BisectProbe& probe) {
    const auto started = std::chrono::steady_clock::now();
    if (!worktree_) {
        worktree_ = std::make_unique<runner::Worktree>(ctx_.cwd, ctx_.env, ctx_.runner);
    }
    const auto elapsed = [&] {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    };
    // A commit its own suite cannot measure is not built.
    if (auto problem = suite_problem_at(commit, setup_.run, setup_.suite, ctx_)) {
        probe.source = "cannot measure";
        probe.detail = std::move(*problem);
        probe.seconds = elapsed();
        return std::nullopt;
    }
    worktree_->checkout(commit);
    const auto here = worktree_->map(ctx_.cwd);
    const auto build = runner::run_build(setup_.build, here, ctx_.env, ctx_.runner, ctx_.verbose(),
                                         setup_.build_timeout);
    if (!build.ok) {
        probe.source = "build failed";
        const auto tail = last_line(build.log_tail);
        probe.detail = build.what + (build.timed_out ? " (--build-timeout)" : "") +
                       (tail.empty() ? "" : ": " + tail);
        probe.seconds = elapsed();
        return std::nullopt;
    }
    // What is measured must be the commit judged: a build that checks out another (or
    // resets the worktree) would have that commit's numbers reported as this one's.
    if (const auto head = worktree_->head(); head != commit) {
        probe.source = "cannot measure";
        std::error_code ec;
        probe.detail =
            !fs::exists(here, ec)
                ? fmt::format("the build removed the worktree's directory {}", here.string())
                : fmt::format(
                      "the build moved the worktree from {} to {} (a build must not "
                      "check out another commit)",
                      commit.substr(0, 12),
                      head.empty() ? "an unknown commit" : head.substr(0, 12));
        probe.seconds = elapsed();
        return std::nullopt;
    }
    auto input = input_in_worktree(setup_.run, *worktree_, setup_.suite, ctx_);
    input.db.disabled = true;
    RunResult run;
    try {
        auto plan = plan_sharded_run(input, ctx_);
        plan.request.git_dir = worktree_->root();
        if (!valgrind_) {
            valgrind_ = valgrind::locate_valgrind(ctx_.env, ctx_.runner,
                                                  util::ProbeCache(plan.request.probe_cache_dir));
        }
        run = runner::execute_run(plan.request, *valgrind_, ctx_.runner, ctx_.env, nullptr);
    } catch (const UsageError& e) {  // the suite or a program does not exist at this commit
        probe.source = "cannot measure";
        probe.detail = e.what();
        probe.seconds = elapsed();
        return std::nullopt;
    }
    // A probe: on no branch, and on no line of the history.
    as_measured_in_checkout(run, *worktree_, kRecordedByBisect, std::nullopt);
    if (history_ != nullptr) history::record_run(*history_, run);
    probe.source = "measured";
    probe.seconds = elapsed();
    ++measured_;
    return run;
}

std::optional<BisectOracle::Measurement> BisectOracle::results_at(const std::string& commit,
                                                                  bool fresh,
                                                                  report::BisectProbe& probe) {
    if (const auto it = measurements_.find(commit);
        it != measurements_.end() && (!fresh || !it->second.stored)) {
        return it->second;
    }
    if (!fresh) {
        if (auto s = stored_at(commit)) {
            ++from_history_;
            probe.source = "history";
            return measurements_[commit] = {std::move(*s), true};
        }
    }
    auto r = measure(commit, probe);
    if (!r) return std::nullopt;
    return measurements_[commit] = {only_judged(std::move(*r)), false};
}

const RunResult* BisectOracle::good_under(const std::string& key, bool here) {
    if (const auto it = good_.find(key); it != good_.end()) return &it->second;
    report::BisectProbe probe{good_commit_, "", history::Verdict::Unmoved, "good", 0};
    std::optional<Measurement> m;
    if (auto s = stored_at(good_commit_); s && s->fingerprint.comparison_key() == key) {
        ++from_history_;
        probe.source = "history";
        m = Measurement{std::move(*s), true};
        measurements_[good_commit_] = *m;
    } else if (here) {
        m = results_at(good_commit_, true, probe);
        if (!m) {
            probes_.push_back(probe);
            throw BenchmarkError(fmt::format("GOOD ({}) cannot be measured: {}",
                                             good_commit_.substr(0, 12), probe.detail),
                                 "fix the build command or pick a GOOD commit that builds");
        }
    }
    if (!m || m->run.fingerprint.comparison_key() != key) return nullptr;
    probes_.push_back(probe);
    return &(good_[key] = std::move(m->run));
}

history::Verdict BisectOracle::judge(const std::string& commit) {
    report::BisectProbe probe{commit, "", std::nullopt, "", 0};
    auto m = results_at(commit, false, probe);
    const RunResult* good =
        m ? good_under(m->run.fingerprint.comparison_key(), !m->stored) : nullptr;
    if (m && !good && m->stored) {  // stored under a fingerprint GOOD has no result for
        m = results_at(commit, true, probe);
        if (m) good = good_under(m->run.fingerprint.comparison_key(), true);
    }
    if (!m || !good) {
        probe.verdict = history::Verdict::Skip;
        probes_.push_back(probe);
        return history::Verdict::Skip;
    }
    const auto c = compare::compare_runs(*good, compare::side_of(*good, "good"), m->run,
                                         compare::side_of(m->run, commit), setup_.gate);
    probe.verdict = verdict_of(c);
    probe.detail =
        probe.verdict == history::Verdict::Skip ? "a benchmark failed or is missing" : headline(c);
    probes_.push_back(probe);
    return *probe.verdict;
}

compare::Comparison BisectOracle::change(const std::string& before, const std::string& after) {
    report::BisectProbe unused;
    auto a = results_at(before, false, unused);
    auto b = results_at(after, false, unused);
    // Both sides measured alike: a stored result and one measured here differ in the paths of
    // the checkout (function files, a few instructions of start-up) and maybe in fingerprint.
    if (a && b && a->stored != b->stored) {
        const std::string& stale = a->stored ? before : after;
        report::BisectProbe probe{stale, "", std::nullopt,
                                  "measured here like the other side of the change", 0};
        (a->stored ? a : b) = results_at(stale, true, probe);
        probes_.push_back(probe);
    }
    if (a && b && a->run.fingerprint.comparison_key() != b->run.fingerprint.comparison_key()) {
        for (const auto* commit : {&before, &after}) {
            report::BisectProbe probe{*commit, "", std::nullopt,
                                      "measured here: the two sides had other fingerprints", 0};
            (commit == &before ? a : b) = results_at(*commit, true, probe);
            probes_.push_back(probe);
        }
    }
    if (!a || !b) {
        throw BenchmarkError("the commits on either side of the change cannot be measured alike",
                             "measure them with `cgbench run` and compare them");
    }
    auto options = setup_.gate;
    options.force = false;
    return compare::compare_runs(a->run, compare::side_of(a->run, before), b->run,
                                 compare::side_of(b->run, after), options);
}

}  // namespace cgbench::cli
