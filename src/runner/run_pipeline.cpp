#include "runner/run_pipeline.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <future>

#include "runner/fingerprint.hpp"
#include "runner/git_info.hpp"
#include "runner/measurer.hpp"
#include "util/probe_cache.hpp"
#include "util/strings.hpp"
#include "util/time.hpp"

namespace cgbench::runner {

namespace {

BenchmarkResult measure_verified(Measurer& m, const BenchmarkSpec& spec, int verify) {
    std::vector<BenchmarkResult> runs;
    for (int i = 0; i < std::max(verify, 1); ++i) {
        runs.push_back(m.measure(spec, i));
        if (runs.back().status != BenchStatus::Ok) return std::move(runs.back());
    }
    BenchmarkResult result = std::move(runs.front());
    result.runs = static_cast<int>(runs.size());
    result.spread = event_spread(runs);
    if (!result.spread.empty()) {
        const auto& s = result.spread.front();
        result.status = BenchStatus::Failed;
        result.error = fmt::format(
            "not repeatable: {} of {} runs differ ({} from {} to {}); see the spread table",
            result.spread.size() == 1 ? "an event" : fmt::format("{} events", result.spread.size()),
            result.runs, metrics::info(s.event).name, util::with_commas(s.min),
            util::with_commas(s.max));
    }
    return result;
}

}  // namespace

std::vector<EventSpread> event_spread(const std::vector<BenchmarkResult>& runs) {
    std::vector<EventSpread> out;
    if (runs.empty()) return out;
    for (const auto& e : metrics::kEvents) {
        if (!runs.front().events.has(e.id)) continue;
        EventSpread s{e.id, UINT64_MAX, 0};
        for (const auto& r : runs) {
            s.min = std::min(s.min, r.events.get(e.id));
            s.max = std::max(s.max, r.events.get(e.id));
        }
        if (s.min != s.max) out.push_back(s);
    }
    return out;
}

RunResult execute_run(const RunRequest& request, const valgrind::Installation& inst,
                      exec::ProcessRunner& runner, const exec::EnvMap& caller,
                      ProgressSink* progress) {
    RunResult run;
    run.id = util::new_run_id();
    run.started = util::now_iso8601();
    Measurer measurer(inst, request.settings, runner, caller);
    for (const auto& spec : request.benchmarks) measurer.check(spec);  // fail before any run
    // Git facts are read while the benchmarks run (their own runner: `runner` may be a fake
    // that is not thread-safe).
    auto git = std::async(std::launch::async, [&request, &caller] {
        exec::PosixProcessRunner git_runner;
        return read_git_info(request.git_dir.empty() ? std::filesystem::current_path()
                                                     : request.git_dir,
                             caller, git_runner);
    });
    run.benchmarks = run_scheduled(
        request.benchmarks, request.jobs,
        [&](const BenchmarkSpec& spec) { return measure_verified(measurer, spec, request.verify); },
        progress);
    const auto selection =
        request.benchmarks.empty()
            ? valgrind::GlibcSelection{}
            : valgrind::probe_glibc_selection(
                  inst, measurer.probe_environment(request.benchmarks.front()),
                  util::ProbeCache(request.probe_cache_dir), runner);
    run.fingerprint = build_fingerprint(measurer, selection);
    run.git = git.get();
    if (inst.is_wrapper) {
        run.warnings.push_back(fmt::format(
            "{} is a wrapper script and no real binary was found next to it; the variables it "
            "sets may change counts",
            inst.launcher.string()));
    }
    if (measurer.facts().aslr_errno != 0) {
        run.warnings.push_back("ASLR could not be disabled (personality() refused, e.g. by a "
                               "container's seccomp profile); Valgrind's fixed layout on 64-bit "
                               "Linux keeps counts stable anyway");
    }
    if (!selection.available) {
        run.warnings.push_back("could not read glibc's CPU feature selection (ld.so "
                               "--list-diagnostics needs glibc 2.33+); the fingerprint lacks it");
    }
    return run;
}

}  // namespace cgbench::runner
