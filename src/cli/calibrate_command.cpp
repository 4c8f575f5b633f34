// `cgbench calibrate`: how well does the cost track time on this machine? Times a sweep of
// kernels natively and under Cachegrind, fits weights, compares them with the presets.

#include <fmt/format.h>

#include <memory>

#include "base/errors.hpp"
#include "calibrate/plan.hpp"
#include "cli/cli11.hpp"
#include "cli/command.hpp"
#include "cli/progress.hpp"
#include "config/weights_file.hpp"
#include "exec/interrupt.hpp"
#include "report/calibration_report.hpp"
#include "util/fs.hpp"
#include "util/strings.hpp"

namespace cgbench::cli {

namespace {

std::string calibrate_help_footer() {
    return "The sweep: seed 002's memory-cache walk, linear and random, over working sets from\n"
           "1K to 256M (--sizes), and compute- and branch-bound loops; each kernel's loop is\n"
           "timed natively (pinned to one CPU, after a warm-up, median of --rounds x --repeat\n"
           "runs) and counted under Cachegrind (one loop: a run with it minus a run without).\n"
           "Weights L1/LL/RAM >= 0 are fitted by least squares on the times (--objective) and\n"
           "compared with pythonspeed (1/5/35) and kcachegrind (1/10/100), each scaled the\n"
           "same way: Pearson r, R², median absolute percentage error. More terms, each also\n"
           "fitted alone and all together: mispredicted conditional branches (--branch-sim,\n"
           "Bcm, which the presets weigh too), instructions (--ir-term), L2 hits (--l2, a\n"
           "second run with the L2 as LL). --programs SUITE times real programs the same way\n"
           "and tests every weight set on them with the sweep's scale: fitted on the sweep,\n"
           "never on them.\n"
           "Timings whose median is uncertain by more than --max-noise are refused (exit 4):\n"
           "calibrate on a quiet machine. `--out FILE` writes the fitted weights for\n"
           "`cgbench run --weights FILE` or a suite's `weights = \"FILE\"`.\n\n"
           "Environment: CGBENCH_GEOMETRY, CGBENCH_CPU_BASELINE, CGBENCH_JOBS, CGBENCH_TIMEOUT\n"
           "as for run; CGBENCH_KERNELS names the cgbench-kernels program.\n\n" +
           exit_code_help();
}

std::unique_ptr<runner::ProgressSink> progress_printer(const GlobalOptions& global,
                                                       std::size_t total) {
    return std::make_unique<ProgressPrinter>(progress_mode(global), total);
}

int execute(const calibrate::CalibrateInput& in, const Context& ctx) {
    const auto& format = chosen_format(in.format, report::Model::Calibration, "calibrate");
    const auto plan = calibrate::plan_calibration(in, ctx.env);
    for (const auto& why : plan.left_out)
        warn("left out " + why);
    // Every output is proven writable before minutes of measuring.
    std::unique_ptr<util::OutputFile> out, html, json;
    if (plan.out) out = std::make_unique<util::OutputFile>(*plan.out);
    if (plan.html) html = std::make_unique<util::OutputFile>(*plan.html);
    if (plan.json_file) json = std::make_unique<util::OutputFile>(*plan.json_file);
    if (const auto& dir = plan.simulated.settings.keep_raw_dir; !dir.empty()) {
        util::ensure_writable_dir(dir, "--keep-raw directory");
    }

    calibrate::SessionHooks hooks;
    hooks.progress = [&ctx](std::string_view, std::size_t total) {
        return progress_printer(ctx.global, total);
    };
    calibrate::Calibration c;
    try {
        c = calibrate::run_calibration(plan, ctx.env, ctx.runner, hooks);
    } catch (const calibrate::TooNoisy& e) {
        if (!ctx.global.quiet) {
            fmt::print(stderr, "{}",
                       report::render_timings_console(plan.kernels, e.timings(), plan.native.clock,
                                                      plan.max_noise));
        }
        throw;
    }
    exec::throw_if_interrupted();

    // Files first, then stdout: a closed pipe never costs the measurement. Weights that do
    // not fit the times are not written (the report and the pages show why).
    const auto unusable = calibrate::unusable_fit(c);
    if (html) html->commit(report::render_calibration_html(c));
    if (json) json->commit(report::render_calibration_json(c));
    if (out && !unusable) out->commit(config::format_weights_file(calibrate::weights_file(c)));
    const bool file_on_stdout =
        (out && out->is_stdout()) || (html && html->is_stdout()) || (json && json->is_stdout());
    const Stream stream = file_on_stdout ? Stream::Stderr : Stream::Stdout;
    if (!(ctx.global.quiet && format.terminal)) {
        const report::RenderOptions ro{!file_on_stdout && ctx.color, ctx.verbose()};
        print_out(format.calibration()->render(c, ro), stream);
    }
    if (!ctx.global.quiet && format.terminal) {
        std::string notes;
        if (out && unusable) {
            notes += fmt::format("\n{} was not written\n", out->target().string());
        } else if (out) {
            const bool branchy = c.fitted.mispredict > 0;
            notes += fmt::format(
                "\nwrote {}: use `cgbench run{} --weights {}`, or weights = \"{}\"{} "
                "in a suite's [defaults]\n",
                out->target().string(), branchy ? " --branch-sim" : "", out->target().string(),
                out->target().string(), branchy ? " and branch_sim = true" : "");
        } else {
            notes += "\n--out FILE writes the fitted weights for `cgbench run --weights FILE`\n";
        }
        for (const auto* f : {html.get(), json.get()}) {
            if (f != nullptr) notes += fmt::format("wrote {}\n", f->target().string());
        }
        print_out(notes, stream);
    }
    if (unusable && out) {
        throw EnvironmentError(
            fmt::format("{}: {} was not written", *unusable, out->target().string()),
            "calibrate with the default sizes and more --rounds or --repeat, "
            "on a quiet machine");
    }
    if (unusable) warn(*unusable + ": do not use these weights");
    return 0;
}

void add_options(CLI::App& cmd, calibrate::CalibrateInput& in) {
    cmd.add_option(
        "-o,--out", in.out,
        "Write the fitted weights to this file (a regular file atomically), for --weights FILE");
    cmd.add_option("--html", in.html,
                   "Write a self-contained HTML page: predicted against measured time, charts "
                   "and every kernel");
    cmd.add_option("--json", in.json,
                   "Also write the JSON document (every kernel's runs, hits and predictions) "
                   "to this file");
    add_format_option(cmd, in.format, report::Model::Calibration);
    cmd.add_option("--suite", in.suite,
                   "Also time the benchmarks of this suite file (whole programs; regions and "
                   "Google Benchmark entries are left out)");
    cmd.add_option("--programs", in.programs,
                   "Also time the whole programs of this suite, held out: every weight set is "
                   "tested on them, none fitted (bench/programs/cgbench.toml)");
    cmd.add_option("--filter", in.filter,
                   "Only the suite benchmarks whose name matches (RE2 syntax, searched anywhere "
                   "in the name)");
    cmd.add_option("--sizes", in.sizes,
                   "Working sets of the memory walks, e.g. 1K,64K,4M [1K,2K,...,256M]");
    // Checked as text: CLI11 would turn 99999999999999999999 into 2^64-1 and the message
    // would name a number nobody typed.
    cmd.add_option("--steps", in.steps, "Steps in each kernel's loop [2097152]")
        ->check(CLI::Validator(
            [](std::string& text) -> std::string {
                const auto n = util::parse_u64(text);
                if (n && *n >= calibrate::kMinSteps && *n <= calibrate::kMaxSteps) return {};
                return fmt::format("invalid --steps '{}' ({})", util::printable(text),
                                   calibrate::steps_hint());
            },
            "N"));
    cmd.add_option("--rounds", in.rounds, "Passes over all kernels, order alternating [3]")
        ->check(CLI::Range(1, 100));
    cmd.add_option("--repeat", in.repeat, "Timed loops per kernel in each round [5]")
        ->check(CLI::Range(1, 1000));
    cmd.add_option("--cpu", in.cpu,
                   "Pin native runs to this CPU, or none [the last CPU cgbench may use]");
    cmd.add_option("--clock", in.clock,
                   "auto (cycles when the CPU counter is available, else cpu), cycles, cpu "
                   "(CPU time) or wall [auto]");
    cmd.add_option("--max-noise", in.max_noise,
                   "Refuse (exit 4) when a kernel's median time is uncertain by more than "
                   "this [2%]");
    cmd.add_option("--objective", in.objective,
                   "What the fit minimises: absolute (squared errors of the times, the slowest "
                   "kernels count most) or relative (squared relative errors, every kernel "
                   "alike) [absolute]");
    cmd.add_flag("--ir-term", in.ir_term,
                 "Also fit a weight per instruction, shown for comparison (cgbench's cost has "
                 "no such term)");
    cmd.add_flag("--branch-sim", in.branch_sim,
                 "Simulate branch prediction: fit a weight per mispredicted conditional branch "
                 "(Bcm), and weigh them in the presets too");
    cmd.add_option("--l2", in.l2,
                   "Also fit an L2 level: run every kernel again with this cache as LL "
                   "(SIZE,ASSOC,LINE, e.g. 1048576,8,64); shown for comparison");
    cmd.add_option("--geometry", in.geometry, "Simulated caches, as for run [ci-default]");
    cmd.add_option("--cpu-baseline", in.cpu_baseline, "portable or native, as for run [portable]");
    cmd.add_option("-j,--jobs", in.jobs, "Valgrind runs at once [number of cores]");
    cmd.add_option("--timeout", in.timeout, "Kill a suite benchmark's run after SEC seconds");
    cmd.add_option("--keep-raw", in.keep_raw,
                   "Keep Valgrind's output files in this directory (a kernel's run without its\n"
                   "timed loop is KERNEL (setup).*)");
}

}  // namespace

Subcommand register_calibrate(CLI::App& app, GlobalOptions& global) {
    auto* cmd = app.add_subcommand(
        "calibrate",
        "Measure how well the cost tracks time on this machine, and fit weights:\n"
        "  cgbench calibrate [--out weights.toml] [--html calibration.html] [--suite FILE]");
    add_global_flags(*cmd, global);
    cmd->footer(calibrate_help_footer());
    auto input = std::make_shared<calibrate::CalibrateInput>();
    add_options(*cmd, *input);
    return {cmd, [input](const Context& ctx) { return execute(*input, ctx); }};
}

}  // namespace cgbench::cli
