// `cgbench run`: measure a program under Cachegrind, or its regions under Callgrind.

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <CLI/CLI.hpp>
#include <memory>

#include "cli/command.hpp"
#include "config/run_options.hpp"
#include "core/errors.hpp"
#include "core/result_json.hpp"
#include "exec/environment.hpp"
#include "exec/process.hpp"
#include "metrics/events.hpp"
#include "metrics/score.hpp"
#include "report/reporter.hpp"
#include "runner/run_pipeline.hpp"
#include "util/fs.hpp"
#include "util/probe_cache.hpp"
#include "util/strings.hpp"
#include "valgrind/installation.hpp"

namespace cgbench::cli {

namespace {

std::string run_help_footer() {
    std::string out = "Events (Cachegrind; JSON keys under \"events\"):\n";
    for (const auto& e : metrics::kEvents) {
        const char* when = e.source == metrics::EventSource::BranchSim ? " [--branch-sim]" : "";
        out += fmt::format("  {:<5} {}{}\n", e.name, e.description, when);
    }
    out += "\nCost: ram = ILmr+DLmr+DLmw; ll = I1mr+D1mr+D1mw - ram; l1 = Ir+Dr+Dw - ll - ram\n"
           "      cost = w_l1*l1 + w_ll*ll + w_ram*ram\n\nWeight presets (--weights):\n";
    for (const auto& p : metrics::weight_presets()) {
        out += fmt::format("  {:<12} {}\n", p.name, p.description);
    }
    out += "  L1,LL,RAM    three non-negative integers, e.g. 1,6,80\n\n"
           "Environment: CGBENCH_GEOMETRY, CGBENCH_WEIGHTS, CGBENCH_CPU_BASELINE, CGBENCH_TIMEOUT,\n"
           "CGBENCH_FORMAT set defaults that the options above override; CGBENCH_VALGRIND names\n"
           "the valgrind binary.\n\n";
    return out + exit_code_help();
}

void add_options(CLI::App& run, config::RunInput& in) {
    run.add_option("--name", in.name, "Benchmark name (default: program and arguments)");
    run.add_option("--geometry", in.geometry,
                   "Simulated caches: ci-default (I1=32768,8,64 D1=32768,8,64 LL=8388608,16,64) "
                   "or I1=SIZE,ASSOC,LINE,D1=...,LL=... [ci-default]");
    run.add_option("--weights", in.weights,
                   "Cost weights: pythonspeed, kcachegrind, ir, or L1,LL,RAM [pythonspeed]");
    run.add_option("--cpu-baseline", in.cpu_baseline,
                   "portable: the same glibc code paths on every x86-64 host; native: glibc "
                   "chooses for Valgrind's CPU [portable]");
    run.add_flag("--branch-sim", in.branch_sim, "Also simulate branch prediction (Bc Bcm Bi Bim)");
    run.add_option("--env", in.env,
                   "KEY=VALUE sets a variable for the program; KEY passes the caller's value. "
                   "Repeatable")
        ->expected(1)
        ->allow_extra_args(false)
        ->take_all();
    run.add_option("--cwd", in.cwd, "Run the program in this directory");
    run.add_option("--stdin", in.stdin_path, "Feed this file to the program's stdin [/dev/null]");
    run.add_option("--timeout", in.timeout, "Kill the program (and its process group) after SEC");
    run.add_option("--verify", in.verify,
                   "Measure N times; report any event that differs and exit 3 if one does")
        ->check(CLI::Range(1, 1000));
    run.add_option("-o,--out", in.out, "Write the result JSON here (atomically)");
    run.add_option("--keep-raw", in.keep_raw, "Keep Valgrind's output files in this directory");
    run.add_option("--format", in.format, "Output: console, json, markdown, junit [console]");
    run.add_flag("--show-output", in.show_output, "Copy the program's output to stderr");
    run.add_flag("--regions", in.regions,
                 "Measure the regions the program marks with <cgbench/cgbench.h> (under "
                 "Callgrind): one result per region, named NAME/REGION");
}

// The program and its arguments: everything from the first non-option argument on (as with
// env(1) or valgrind), or everything after "--". A "--" after the program name belongs to
// the program.
std::vector<std::string> program_arguments(const CLI::App& run, const GlobalOptions& global) {
    std::vector<std::string> command = run.remaining();
    if (!command.empty() && command.front().size() > 1 && command.front()[0] == '-') {
        throw UsageError(fmt::format("unknown option '{}'", util::printable(command.front())),
                         "see `cgbench run --help`; put -- before a program whose name starts "
                         "with -");
    }
    if (global.after_dashes) {
        if (!command.empty()) command.push_back("--");
        command.insert(command.end(), global.after_dashes->begin(), global.after_dashes->end());
    }
    return command;
}

int execute(const config::RunInput& in, const GlobalOptions& global) {
    const auto env = exec::current_environment();
    auto plan = config::plan_run(in, env);
    // Prove every output is writable before measuring.
    std::unique_ptr<util::AtomicFile> out_file;
    if (plan.out) out_file = std::make_unique<util::AtomicFile>(*plan.out);
    if (!plan.request.settings.keep_raw_dir.empty()) {
        util::ensure_writable_dir(plan.request.settings.keep_raw_dir, "--keep-raw directory");
    }
    exec::PosixProcessRunner runner;
    const auto inst = valgrind::locate_valgrind(env, runner,
                                                util::ProbeCache(plan.request.probe_cache_dir));
    spdlog::debug("valgrind {} at {}{}", inst.version, inst.launcher.string(),
                  inst.bypassed_wrapper ? " (bypassing the wrapper script)" : "");

    const RunResult run = runner::execute_run(plan.request, inst, runner, env);

    std::size_t ok = 0;
    const BenchmarkResult* first_failure = nullptr;
    for (const auto& b : run.benchmarks) {
        if (b.status == BenchStatus::Ok) {
            ++ok;
        } else if (first_failure == nullptr) {
            first_failure = &b;
        }
    }
    if (!(global.quiet && plan.format == report::Format::Console)) {
        report::RenderOptions ro{color_on_stdout(), global.verbose > 0};
        fmt::print("{}", report::make_run_reporter(plan.format)->render(run, ro));
        std::fflush(stdout);
    }
    // A result file holds at least one measurement; a run where everything failed leaves none.
    if (out_file && ok > 0) out_file->commit(to_json(run).dump(2) + "\n");
    if (first_failure != nullptr) {
        throw BenchmarkError(
            fmt::format("benchmark '{}' {}", util::printable(first_failure->name),
                        first_failure->error),
            !first_failure->spread.empty()
                ? "make the program deterministic (fixed seeds, no timers or thread races)"
            : first_failure->stderr_tail.empty()
                ? "fix the program or its arguments"
                : "see its stderr above; fix the program or its arguments");
    }
    return 0;
}

}  // namespace

Subcommand register_run(CLI::App& app, GlobalOptions& global) {
    auto* run = app.add_subcommand("run", "Measure a program under Cachegrind (or its regions "
                                          "under Callgrind):\n"
                                          "  cgbench run [OPTIONS] [--] PROGRAM [ARGS...]\n"
                                          "Options go before the program; everything after it "
                                          "is passed to the program.");
    run->prefix_command();
    add_global_flags(*run, global);
    run->footer(run_help_footer());
    auto input = std::make_shared<config::RunInput>();
    add_options(*run, *input);
    return {run, [input, run, &global] {
                input->command = program_arguments(*run, global);
                return execute(*input, global);
            }};
}

}  // namespace cgbench::cli
