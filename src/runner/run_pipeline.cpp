#include "runner/run_pipeline.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <future>

#include "exec/sandbox.hpp"
#include "exec/staging.hpp"
#include "runner/fingerprint.hpp"
#include "runner/git_info.hpp"
#include "runner/measurement.hpp"
#include "runner/measurer.hpp"
#include "runner/plausibility.hpp"
#include "util/elf.hpp"
#include "util/probe_cache.hpp"
#include "util/strings.hpp"
#include "util/time.hpp"

namespace cgbench::runner {

namespace {

// Marks `result` failed when its repeated measurements `runs` differ.
void check_repeatable(BenchmarkResult& result, const std::vector<BenchmarkResult>& runs) {
    result.runs = static_cast<int>(runs.size());
    result.spread = event_spread(runs);
    if (result.spread.empty()) return;
    const auto& s = result.spread.front();
    result.status = BenchStatus::Failed;
    result.error = fmt::format(
        "not repeatable: {} of {} runs differ ({} from {} to {}); see the spread table",
        result.spread.size() == 1 ? "an event" : fmt::format("{} events", result.spread.size()),
        result.runs, metrics::info(s.event).name, util::with_commas(s.min),
        util::with_commas(s.max));
}

// Measures `spec` `verify` times: its results (one, or one per region) from the first run,
// each checked against the same result of the other runs.
std::vector<BenchmarkResult> measure_verified(Measurer& m, const BenchmarkSpec& spec, int verify) {
    std::vector<std::vector<BenchmarkResult>> runs;
    for (int i = 0; i < std::max(verify, 1); ++i) {
        runs.push_back(m.measure_all(spec, i));
        for (const auto& r : runs.back()) {
            if (r.status != BenchStatus::Ok) return std::move(runs.back());
        }
    }
    std::vector<BenchmarkResult> results = std::move(runs.front());
    for (std::size_t k = 0; k < results.size(); ++k) {
        std::vector<BenchmarkResult> series = {results[k]};
        for (std::size_t i = 1; i < runs.size(); ++i) {
            if (runs[i].size() == results.size() && runs[i][k].name == results[k].name) {
                series.push_back(runs[i][k]);
                continue;
            }
            results[k].status = BenchStatus::Failed;
            results[k].error = fmt::format("not repeatable: run {} reached other regions", i + 1);
        }
        if (results[k].status == BenchStatus::Ok) check_repeatable(results[k], series);
    }
    return results;
}

// The fingerprint of a run of `request` by `measurer`, with glibc's selection probed as the
// first benchmark's environment sees it (cached).
Fingerprint fingerprint_of(const Measurer& measurer, const RunRequest& request,
                           const valgrind::Installation& inst, exec::ProcessRunner& runner) {
    const auto selection = request.benchmarks.empty()
                               ? valgrind::GlibcSelection{}
                               : valgrind::probe_glibc_selection(
                                     inst, measurer.probe_environment(request.benchmarks.front()),
                                     util::ProbeCache(request.probe_cache_dir), runner);
    return build_fingerprint(measurer, selection,
                             tool_options_of(request.benchmarks, request.settings, inst));
}

// Whether `program` is one the distribution installed (/usr/bin/sqlite3, /bin/sh): its
// missing debug info is not the user's to fix, so no result of it says so.
bool from_the_distribution(const std::filesystem::path& program) {
    const std::string path = program.lexically_normal().string();
    for (const char* dir : {"/usr/bin/", "/usr/sbin/", "/bin/", "/sbin/", "/usr/lib/", "/lib/",
                            "/usr/libexec/", "/usr/games/"}) {
        if (util::starts_with(path, dir)) return true;
    }
    return false;
}

// Marks the results of a program that is ELF without line information (built without -g,
// or stripped; not one the distribution installed) as having none (BenchmarkResult::line_info),
// whatever lines of other code (the loader, a libc with its debug symbols) were kept: its own files
// show as ???. A result belongs to the benchmark of its name, or whose name it extends
// ("ENTRY/REGION").
void note_programs_without_line_info(const std::vector<BenchmarkSpec>& specs,
                                     const std::vector<std::filesystem::path>& programs,
                                     std::vector<BenchmarkResult>& results) {
    for (auto& b : results) {
        if (!b.line_info) continue;  // not known (Callgrind) or already none
        for (std::size_t i = 0; i < specs.size() && i < programs.size(); ++i) {
            const auto& name = specs[i].name;
            if (b.name != name && !util::starts_with(b.name, name + "/")) continue;
            if (!from_the_distribution(programs[i]) &&
                util::elf_has_line_info(programs[i]) == false) {
                b.line_info = false;
            }
            break;
        }
    }
}

}  // namespace

std::string expected_key(const RunRequest& request, const valgrind::Installation& inst,
                         exec::ProcessRunner& runner, const exec::EnvMap& caller) {
    const Measurer measurer(inst, request.settings, runner, caller);
    auto f = fingerprint_of(measurer, request, inst, runner);
    // What measuring would add to the key: the loader variables the benchmarks set.
    for (const auto& spec : request.benchmarks) {
        for (auto& v : exec::loader_variables(spec.env, caller)) {
            auto& all = f.loader_env;
            if (std::find(all.begin(), all.end(), v) == all.end()) {
                all.insert(std::upper_bound(all.begin(), all.end(), v), std::move(v));
            }
        }
    }
    return f.comparison_key();
}

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
    spdlog::debug("isolation: {}{}", exec::isolation().describe(),
                  exec::isolation().namespaces ? "" : "; refused: " + exec::isolation().refused);
    std::vector<std::filesystem::path> programs;
    for (const auto& spec : request.benchmarks) {
        measurer.check(spec);  // fail before any run
        programs.push_back(measurer.program_path(spec));
    }
    // Git facts are read while the benchmarks run (their own runner: `runner` may be a fake
    // that is not thread-safe).
    auto git = std::async(std::launch::async, [&request, &caller] {
        exec::PosixProcessRunner git_runner;
        return read_git_info(
            request.git_dir.empty() ? std::filesystem::current_path() : request.git_dir, caller,
            git_runner);
    });
    run.benchmarks = run_scheduled(
        request.benchmarks, request.jobs,
        [&](const BenchmarkSpec& spec) {
            return measure_verified(measurer, spec, std::max(request.verify, spec.verify));
        },
        progress);
    flag_implausible(run.benchmarks);
    note_programs_without_line_info(request.benchmarks, programs, run.benchmarks);
    run.fingerprint = fingerprint_of(measurer, request, inst, runner);
    run.fingerprint.compilers = compilers_of(programs);
    run.git = git.get();
    if (!run.git.commit) {
        const auto dir =
            request.git_dir.empty() ? std::filesystem::current_path() : request.git_dir;
        if (auto warning = missing_git_warning(dir, caller)) run.warnings.push_back(*warning);
    }
    if (inst.is_wrapper) {
        run.warnings.push_back(fmt::format(
            "{} is a wrapper script and no real binary was found next to it; the variables it "
            "sets may change counts",
            inst.launcher.string()));
    }
    if (measurer.facts().aslr_errno != 0) {
        run.warnings.push_back(
            "ASLR could not be disabled (personality() refused, e.g. by a "
            "container's seccomp profile); Valgrind's fixed layout on 64-bit "
            "Linux keeps counts stable anyway");
    }
    if (const auto& iso = exec::isolation(); !iso.namespaces) {
        run.warnings.push_back(iso.warning());
        if (!exec::staging_note().empty()) run.warnings.push_back(exec::staging_note());
    }
    if (!measurer.facts().loader_env.empty()) {
        run.warnings.push_back(fmt::format(
            "--env set {}: the loader and glibc see them (Valgrind's own start-up too); the "
            "fingerprint records them, so only runs with the same values compare",
            util::join(measurer.facts().loader_env, " ")));
    }
    if (!run.fingerprint.selection.available) {
        run.warnings.push_back(
            "could not read glibc's CPU feature selection (ld.so "
            "--list-diagnostics needs glibc 2.33+); the fingerprint lacks it");
    }
    return run;
}

}  // namespace cgbench::runner
