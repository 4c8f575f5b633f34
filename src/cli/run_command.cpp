// `cgbench run`: measure a program, its regions or a Google Benchmark binary under Valgrind.

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <memory>

#include "access/history_url.hpp"
#include "base/errors.hpp"
#include "cli/cli11.hpp"
#include "cli/command.hpp"
#include "cli/progress.hpp"
#include "cli/report_outputs.hpp"
#include "config/gbench_plan.hpp"
#include "config/run_options.hpp"
#include "core/result_file.hpp"
#include "core/result_json.hpp"
#include "exec/environment.hpp"
#include "exec/interrupt.hpp"
#include "exec/process.hpp"
#include "history/stored_runs.hpp"
#include "metrics/events.hpp"
#include "metrics/score.hpp"
#include "report/reporter.hpp"
#include "runner/run_pipeline.hpp"
#include "util/fs.hpp"
#include "util/probe_cache.hpp"
#include "util/strings.hpp"
#include "valgrind/installation.hpp"

namespace cgbench::cli {

namespace fs = std::filesystem;

namespace {

std::string run_help_footer() {
    std::string out = "Events (Cachegrind; JSON keys under \"events\"):\n";
    for (const auto& e : metrics::kEvents) {
        const char* when = e.source == metrics::EventSource::BranchSim ? " [--branch-sim]" : "";
        out += fmt::format("  {:<5} {}{}\n", e.name, e.description, when);
    }
    out +=
        "\nCost: ram = ILmr+DLmr+DLmw; ll = I1mr+D1mr+D1mw - ram; l1 = Ir+Dr+Dw - ll - ram\n"
        "      cost = w_l1*l1 + w_ll*ll + w_ram*ram (+ w_mispredict*Bcm with --branch-sim)\n"
        "\nWeight presets (--weights):\n";
    for (const auto& p : metrics::weight_presets()) {
        out += fmt::format("  {:<12} {}\n", p.name, p.description);
        if (p.mispredict > 0) {
            out += fmt::format("  {:<12} with --branch-sim also {}*Bcm\n", "", p.mispredict);
        }
    }
    out +=
        "  L1,LL,RAM    three non-negative integers, e.g. 1,6,80; a fourth weighs\n"
        "               mispredicted conditional branches (--branch-sim), e.g. 1,6,80,20\n\n"
        "Suites: settings are layered built-in < suite [defaults] < [[bench]] entry <\n"
        "environment < command line (`cgbench config show` prints each value and its\n"
        "source). Paths in a suite are relative to its directory.\n\n"
        "Google Benchmark (--gbench BINARY, [[gbench]]): each benchmark runs in its own\n"
        "Callgrind process (one iteration, three repetitions); its result is the cost of one\n"
        "iteration of its measured loop in the last repetition, without start-up, setup\n"
        "before the loop, paused code (PauseTiming) or reporting. A filter matching nothing\n"
        "or a binary that is not a Google Benchmark binary exits 2; SkipWithError exits 3.\n\n"
        "Environment: CGBENCH_GEOMETRY, CGBENCH_WEIGHTS, CGBENCH_CPU_BASELINE, CGBENCH_TIMEOUT,\n"
        "CGBENCH_THRESHOLD, CGBENCH_JOBS, CGBENCH_FORMAT, CGBENCH_DB set defaults that the\n"
        "options above override; CI_NODE_INDEX/CI_NODE_TOTAL (GitLab parallel:) select a shard\n"
        "when --shard is not given; CGBENCH_VALGRIND names the valgrind binary.\n\n"
        "History: every run is stored in the database (--db, default .cgbench/history.db) in\n"
        "one transaction, failed benchmarks included; an interrupted run stores nothing.\n\n";
    return out + exit_code_help();
}

[[noreturn]] void throw_failures(const std::vector<const BenchmarkResult*>& failed,
                                 std::size_t total) {
    const bool unstable = std::any_of(failed.begin(), failed.end(),
                                      [](const BenchmarkResult* b) { return !b->spread.empty(); });
    const bool quiet_program = std::all_of(failed.begin(), failed.end(),
                                           [](const auto* b) { return b->stderr_tail.empty(); });
    const std::string hint =
        unstable        ? "make the program deterministic (fixed seeds, no timers or thread races)"
        : quiet_program ? "fix the program or its arguments"
                        : "see its stderr above; fix the program or its arguments";
    if (failed.size() == 1) {
        throw BenchmarkError(
            fmt::format("benchmark '{}' {}", util::printable(failed[0]->name), failed[0]->error),
            hint);
    }
    std::vector<std::string> parts;
    for (const auto* b : failed) {
        parts.push_back(fmt::format("'{}' {}", util::printable(b->name), b->error));
    }
    throw BenchmarkError(fmt::format("{} of {} benchmarks failed: {}", failed.size(), total,
                                     util::join(parts, "; ")),
                         hint);
}

}  // namespace

void add_run_options(CLI::App& run, config::RunInput& in) {
    run.add_option("--suite", in.suite,
                   "Run the benchmarks of this suite file (default: ./cgbench.toml when no "
                   "program is given)");
    run.add_option("--filter", in.filter,
                   "Only suite benchmarks whose name matches this regex (RE2 syntax, searched); "
                   "with --gbench, the binary's --benchmark_filter");
    run.add_option("-j,--jobs", in.jobs,
                   "Benchmarks measured at once; counts do not change [number of cores]");
    run.add_option("--shard", in.shard,
                   "Run shard K of N of the suite (K/N, 1-based), e.g. one job of a CI matrix");
    run.add_option("--threshold", in.threshold,
                   "The gate `compare` applies, recorded in the result: [GLOB:][METRIC=]REL%"
                   "[|ABS], e.g. 1% or cost=2%|100000 (cgbench config threshold)");
    run.add_option("--name", in.name, "Benchmark name (default: program and arguments)");
    run.add_option("--geometry", in.geometry,
                   "Simulated caches: ci-default (I1=32768,8,64 D1=32768,8,64 LL=8388608,16,64) "
                   "or I1=SIZE,ASSOC,LINE,D1=...,LL=... [ci-default]");
    run.add_option("--weights", in.weights,
                   "Cost weights: pythonspeed, kcachegrind, ir, or L1,LL,RAM [pythonspeed]");
    run.add_option("--cpu-baseline", in.cpu_baseline,
                   "portable: the same glibc code paths on every x86-64 host; native: glibc "
                   "chooses for Valgrind's CPU [portable]");
    run.add_flag("--branch-sim", in.branch_sim,
                 "Also simulate branch prediction (Bc Bcm Bi Bim); the cost weighs Bcm");
    run.add_flag("--fixed-clock", in.fixed_clock,
                 "Show the program a clock that starts at 2000-01-01 and advances 1 ms per "
                 "read (changes what it sees: for programs seeded or timed by the clock)");
    run.add_flag("--fixed-random", in.fixed_random,
                 "Show the program a fixed stream for getrandom, getentropy, arc4random and "
                 "/dev/urandom (changes what it sees: for programs seeded from entropy)");
    run.add_option("--env", in.env,
                   "KEY=VALUE sets a variable for the program; KEY passes the caller's value "
                   "(the program otherwise sees a fixed environment: LANG=C.UTF-8, TZ=UTC, "
                   "HOME=/nonexistent, PATH=/usr/local/bin:/usr/bin:/bin, hash seeds). "
                   "Repeatable")
        ->expected(1)
        ->allow_extra_args(false)
        ->take_all();
    run.add_option("--cwd", in.cwd, "Run the program in this directory");
    run.add_option("--stdin", in.stdin_path, "Feed this file to the program's stdin [/dev/null]");
    run.add_option("--timeout", in.timeout,
                   "Kill the program and every process it started after SEC");
    run.add_option("--processes", in.processes,
                   "Which processes count: tree (every process the program starts, forked or "
                   "exec'd, each with its own profile) or main (the started process and the "
                   "programs it execs into) [tree]");
    run.add_flag("--allow-child-crash", in.allow_child_crash,
                 "A child process killed by a fault (SIGSEGV, SIGABRT, ...) does not fail the "
                 "benchmark");
    run.add_option("--max-processes", in.max_processes,
                   "Stop a run that starts more processes than this (a fork bomb) [1000]");
    run.add_option("--warmup", in.warmup,
                   "Native runs before measuring, so first-run effects (Python's __pycache__, "
                   "caches in files) are settled; 0: none [1]");
    run.add_option("--verify", in.verify,
                   "Measure N times; report any event that differs and exit 3 if one does")
        ->check(CLI::Range(1, 1000));
    run.add_option("--verify-new", in.verify_new,
                   "Measure the benchmarks this result file lacks 3 times (or their suite "
                   "'verify'), as --verify does: new benchmarks are checked once (cgbench-pr "
                   "passes the base)");
    run.add_option("-o,--out", in.out, "Write the result JSON here (a regular file atomically)");
    add_report_option(run, in.reports, report::Model::Run, true);
    run.add_option("--keep-raw", in.keep_raw, "Keep Valgrind's output files in this directory");
    add_format_option(run, in.format, report::Model::Run);
    add_db_options(run, in.db);
    run.add_flag("--show-output", in.show_output, "Copy the program's output to stderr");
    run.add_option("--gbench", in.gbench,
                   "Measure each benchmark of this Google Benchmark binary on its own: cost "
                   "per iteration of its loop, named BINARY/BM_name (--filter: "
                   "--benchmark_filter; PROGRAM ARGS: extra arguments to the binary)");
    run.add_flag("--regions", in.regions,
                 "Measure the regions the program marks with <cgbench/cgbench.h>: one result "
                 "per region, named NAME/REGION (--region-tool)");
    run.add_option("--region-tool", in.region_tool,
                   "What measures regions: cachegrind (Valgrind 3.22 and later: a run per "
                   "region, only the region simulated), callgrind (one run, the whole program "
                   "simulated) or auto (cachegrind where it can) [auto]");
}

// The program and its arguments: everything from the first non-option argument on (as with
// env(1) or valgrind), or everything after "--". A "--" after the program name belongs to
// the program.
std::vector<std::string> program_arguments(const CLI::App& app, const GlobalOptions& global) {
    std::vector<std::string> command = app.remaining();
    if (!command.empty() && command.front().size() > 1 && command.front()[0] == '-') {
        const auto* parent = app.get_parent();
        const std::string name = parent != nullptr && parent->get_parent() != nullptr
                                     ? parent->get_name() + " " + app.get_name()
                                     : app.get_name();
        throw UsageError(fmt::format("unknown option '{}'", util::printable(command.front())),
                         fmt::format("see `cgbench {} --help`; put -- before a program whose "
                                     "name starts with -",
                                     name));
    }
    if (global.after_dashes) {
        if (!command.empty()) command.push_back("--");
        command.insert(command.end(), global.after_dashes->begin(), global.after_dashes->end());
    }
    return command;
}

namespace {

// Writes `json` where a run that could not be recorded is kept: beside the database, or else
// in the working directory. The file, or nullopt with the reason in `why`.
std::optional<fs::path> keep_unrecorded(const RunResult& run, const std::string& json,
                                        const std::optional<fs::path>& db_dir, std::string& why) {
    const std::string name = "unrecorded-" + util::file_safe(run.id) + ".json";
    const fs::path beside = db_dir && !db_dir->empty() ? *db_dir : fs::path(".");
    for (const auto& dir : {beside, fs::path(".")}) {
        try {
            util::write_file_atomic(dir / name, json);
            return dir / name;
        } catch (const Error& e) {
            why = e.what();
        }
    }
    return std::nullopt;
}

// Records `run` in `history`. When that fails (the lock held too long, a full disk, a damaged
// page) or is interrupted, the measurement is not lost: the error names the result file that
// holds it (`saved`, the --out file, or one written for the purpose) and `cgbench import`.
void record_or_keep(history::HistoryBackend& db, const RunResult& run, const fs::path* saved) {
    std::string why;
    const auto kept = [&]() -> std::string {
        const auto file = saved != nullptr ? std::optional(*saved)
                                           : keep_unrecorded(run, dump_json(to_json(run)) + "\n",
                                                             db.unrecorded_directory(), why);
        if (!file) return "the run is lost: it could not be kept in a file either (" + why + ")";
        return fmt::format("the run is kept in {} (`cgbench import {}` adds it)", file->string(),
                           util::shell_quote(file->string()));
    };
    try {
        history::record_run(db, run);
    } catch (const Interrupted&) {
        warn(fmt::format("interrupted before the run was recorded in {}; {}", db.name(), kept()));
        throw;
    } catch (const EnvironmentError& e) {
        throw EnvironmentError(fmt::format("{}; {}", e.what(), kept()),
                               e.hint().empty() ? "import it once the database is usable"
                                                : e.hint() + "; then import it");
    }
}

}  // namespace

int finish_run(const RunResult& run, const report::OutputFormat& format, util::OutputFile* out,
               history::HistoryBackend* history, const Context& ctx,
               std::vector<ReportOutput>* reports) {
    std::vector<const BenchmarkResult*> failed;
    for (const auto& b : run.benchmarks) {
        if (b.status != BenchStatus::Ok) failed.push_back(&b);
    }
    // Saved first, printed last: a closed or full stdout never costs the measurement.
    // A result file holds at least one measurement; a run where everything failed leaves none.
    // A benchmark that failed --verify was measured (its spread is the finding), so it counts.
    const bool measured = std::any_of(
        run.benchmarks.begin(), run.benchmarks.end(),
        [](const BenchmarkResult& b) { return b.status == BenchStatus::Ok || !b.spread.empty(); });
    const bool written = out != nullptr && measured;
    if (written) out->commit(dump_json(to_json(run)) + "\n");
    if (measured && reports != nullptr) write_reports(*reports, run, ctx.verbose());
    if (history != nullptr) {
        const fs::path saved = written && out->is_file() ? out->target() : fs::path();
        record_or_keep(*history, run, saved.empty() ? nullptr : &saved);
    }
    if (!(ctx.global.quiet && format.terminal)) {
        const bool on_stderr = out != nullptr && out->is_stdout();
        report::RenderOptions ro{!on_stderr && ctx.color, ctx.verbose()};
        print_out(format.run()->render(run, ro), on_stderr ? Stream::Stderr : Stream::Stdout);
    }
    if (!failed.empty()) throw_failures(failed, run.benchmarks.size());
    return 0;
}

namespace {

// New benchmarks are verified: those --verify-new's result file lacks (at least 3 runs), else
// those the history lacks (as many as their suite `verify` says).
void plan_verification(config::RunPlan& plan, const config::RunInput& input) {
    std::optional<std::vector<std::string>> known;
    if (input.verify_new) {
        known.emplace();
        for (const auto& b : read_result_file(*input.verify_new).benchmarks)
            known->push_back(b.name);
        config::plan_new_verification(plan, known, kNewBenchmarkRuns);
        return;
    }
    const bool asked = std::any_of(plan.request.benchmarks.begin(), plan.request.benchmarks.end(),
                                   [](const auto& b) { return b.verify_new > 1; });
    if (!asked) return;
    if (plan.db) {
        if (auto db = access::open_history(*plan.db, access::Access::Read)) {
            std::vector<std::string> names;
            for (const auto& b : plan.request.benchmarks)
                names.push_back(b.name);
            known.emplace();
            if (const auto stored = history::latest_costs(*db, names)) {
                for (const auto& [name, cost] : stored->costs)
                    known->push_back(name);
            }
        }
    }
    config::plan_new_verification(plan, known, 1);
}

}  // namespace

config::RunPlan plan_sharded_run(const config::RunInput& input, const Context& ctx) {
    auto plan = config::plan_run(input, ctx.env);
    config::expand_gbench(plan, [&ctx](const runner::BenchmarkSpec& spec) {
        return runner::list_gbench(spec, ctx.runner, ctx.env);
    });
    plan_verification(plan, input);
    if (!plan.shard) return plan;
    std::optional<history::StoredCosts> stored;
    if (plan.db) {
        if (auto db = access::open_history(*plan.db, access::Access::Read)) {
            std::vector<std::string> names;
            for (const auto& b : plan.request.benchmarks)
                names.push_back(b.name);
            stored = history::latest_costs(*db, names);
        }
    }
    if (stored) {
        config::apply_shard(plan, stored->costs, "history run " + stored->run_id);
    } else {
        config::apply_shard(plan, std::nullopt);
    }
    return plan;
}

namespace {

int execute(const config::RunInput& in, const Context& ctx) {
    const auto& format = run_format(in.format, ctx.env, "run");
    const auto plan = plan_sharded_run(in, ctx);
    if (plan.request.benchmarks.empty()) {
        warn(fmt::format("shard {} has no benchmarks (the suite selects {}); nothing to measure",
                         plan.shard->text(), plan.suite_size));
        return 0;
    }
    // Prove every output is writable before measuring.
    std::unique_ptr<util::OutputFile> out_file;
    if (plan.out) out_file = std::make_unique<util::OutputFile>(*plan.out);
    auto reports =
        open_reports(in.reports, report::Model::Run, "run", true,
                     plan.out ? std::vector{plan.out->string()} : std::vector<std::string>{});
    if (!plan.request.settings.keep_raw_dir.empty()) {
        util::ensure_writable_dir(plan.request.settings.keep_raw_dir, "--keep-raw directory");
    }
    const auto inst = valgrind::locate_valgrind(ctx.env, ctx.runner,
                                                util::ProbeCache(plan.request.probe_cache_dir));
    spdlog::debug("valgrind {} at {}{}", inst.version, inst.launcher.string(),
                  inst.bypassed_wrapper ? " (bypassing the wrapper script)" : "");
    // Opened (created, migrated, write-locked once) before measuring: exit 4 in milliseconds.
    const auto history = access::open_history_for_run(plan.db);

    RunResult run;
    {
        ProgressPrinter progress(
            plan.suite.empty() ? ProgressPrinter::Mode::Off : progress_mode(ctx.global),
            plan.request.benchmarks.size());
        run = runner::execute_run(plan.request, inst, ctx.runner, ctx.env, &progress);
    }
    if (plan.shard) {
        run.shard = plan.shard->text();
        run.shard_balance = plan.shard_balance;
        run.shard_suite = plan.shard_suite;
    }
    exec::throw_if_interrupted();  // a signal after the last benchmark still writes nothing

    return finish_run(run, format, out_file.get(), history.get(), ctx, &reports);
}

}  // namespace

Subcommand register_run(CLI::App& app, GlobalOptions& global) {
    auto* run = app.add_subcommand("run",
                                   "Measure a program, a suite, or the regions a program "
                                   "marks, under Cachegrind (regions below Valgrind 3.22 "
                                   "and Google Benchmark binaries under Callgrind):\n"
                                   "  cgbench run [OPTIONS] [--] PROGRAM [ARGS...]\n"
                                   "  cgbench run [OPTIONS] --gbench BINARY [ARGS...]\n"
                                   "  cgbench run [OPTIONS] [--suite cgbench.toml]\n"
                                   "Options go before the program; everything after it "
                                   "is passed to the program. Suite benchmarks run in "
                                   "parallel (-j) with the same counts as one by one.");
    run->prefix_command();
    add_global_flags(*run, global);
    run->footer(run_help_footer());
    auto input = std::make_shared<config::RunInput>();
    add_run_options(*run, *input);
    return {run, [input, run](const Context& ctx) {
                input->command = program_arguments(*run, ctx.global);
                return execute(*input, ctx);
            }};
}

}  // namespace cgbench::cli
