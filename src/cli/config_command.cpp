// `cgbench config show`: every effective setting, its value and the layer it came from
// (built-in < suite [defaults] < suite entry < environment < command line).

#include <fmt/format.h>

#include <memory>

#include "cli/cli11.hpp"
#include "cli/command.hpp"
#include "compare/threshold.hpp"
#include "config/suite.hpp"
#include "report/text_table.hpp"
#include "util/strings.hpp"

namespace cgbench::cli {

namespace {

std::string source_text(const config::Layered& l) {
    switch (l.source) {
        case config::Source::Default:
            return l.origin;
        case config::Source::SuiteDefaults:
            return "suite [defaults] (" + l.origin + ")";
        case config::Source::SuiteEntry:
            return "suite entry (" + l.origin + ")";
        case config::Source::Environment:
            return "environment (" + l.origin + ")";
        case config::Source::CommandLine:
            return "command line (" + l.origin + ")";
    }
    return l.origin;
}

report::TextTable settings_table() {
    return report::TextTable({{"setting", report::Align::Left},
                              {"value", report::Align::Left},
                              {"source", report::Align::Left}});
}

void add(report::TextTable& t, std::string name, const config::Layered& l,
         std::string_view when_empty = "-") {
    t.add_row({std::move(name),
               l.value.empty() ? std::string(when_empty) : util::printable(l.value),
               source_text(l)});
}

std::string run_wide(const config::RunSettings& s) {
    auto t = settings_table();
    add(t, "geometry", s.geometry);
    add(t, "weights", s.weights);
    add(t, "cpu_baseline", s.cpu_baseline);
    add(t, "branch_sim", s.branch_sim);
    add(t, "region_tool", s.region_tool);
    add(t, "fixed_clock", s.fixed_clock);
    add(t, "fixed_random", s.fixed_random);
    add(t, "jobs", s.jobs);
    add(t, "shard", s.shard, "all");
    add(t, "format", s.format);
    return "run (one value for the whole run):\n" + t.render(2);
}

std::string per_benchmark(const config::RunPlan& plan, std::size_t i) {
    const auto& b = plan.benchmark_settings[i];
    auto t = settings_table();
    add(t, "command", b.command);
    add(t, "cwd", b.cwd);
    add(t, "stdin", b.stdin_path);
    add(t, "timeout", b.timeout, "none");
    add(t, "threshold", b.threshold, "compare's default");
    add(t, "regions", b.regions);
    add(t, "gbench", b.gbench);
    add(t, "processes", b.processes);
    add(t, "allow_child_crash", b.allow_child_crash);
    add(t, "max_processes", b.max_processes);
    add(t, "warmup", b.warmup);
    add(t, "verify", b.verify);
    for (const auto& e : b.env)
        add(t, "env", e);
    return fmt::format("\n{}:\n{}", util::printable(plan.request.benchmarks[i].name), t.render(2));
}

int show(const config::RunInput& in, const Context& ctx) {
    const auto& env = ctx.env;
    run_format(in.format, env, "run");  // refused as `run` refuses it
    if (in.command.empty() && !in.suite && config::discover_suite().empty()) {
        print_out(
            fmt::format("no program and no suite (./{} not found): run-wide settings only\n\n{}",
                        config::kSuiteFileName, run_wide(config::checked_run_settings(in, env))));
        return 0;
    }
    const auto plan = plan_sharded_run(in, ctx);
    std::string out;
    if (!plan.suite.empty()) {
        out += fmt::format("suite {}: {} benchmark(s)", plan.suite.string(), plan.suite_entries);
        if (in.filter) out += fmt::format(", {} matching --filter", plan.suite_size);
        if (plan.shard) {
            out +=
                fmt::format(", {} in shard {}", plan.request.benchmarks.size(), plan.shard->text());
        }
        out += "\n\n";
    }
    out += run_wide(plan.settings);
    for (std::size_t i = 0; i < plan.request.benchmarks.size(); ++i)
        out += per_benchmark(plan, i);
    print_out(out);
    return 0;
}

// `cgbench config threshold SPEC...`: checks thresholds as every command reads them and
// prints the rules they make, lowest layer first (cgbench-pr checks its --threshold so).
int threshold(const std::vector<std::string>& specs, const exec::EnvMap& env) {
    report::TextTable t({{"benchmarks", report::Align::Left},
                         {"metric", report::Align::Left},
                         {"gate", report::Align::Left},
                         {"source", report::Align::Left}});
    const auto add_rules = [&t](std::string_view spec, const std::string& source) {
        for (const auto& r : compare::parse_threshold(spec)) {
            t.add_row({r.pattern.empty() ? "all" : util::printable(r.pattern),
                       std::string(r.metric.name()), r.threshold.describe(), source});
        }
    };
    const compare::ThresholdSet defaults;
    for (const auto& r : defaults.rules())
        t.add_row({"all", std::string(r.metric.name()), r.threshold.describe(), "built-in"});
    if (const auto it = env.find("CGBENCH_THRESHOLD"); it != env.end() && !it->second.empty()) {
        add_rules(it->second, "environment (CGBENCH_THRESHOLD)");
    }
    for (const auto& spec : specs)
        add_rules(spec, "argument '" + util::printable(spec) + "'");
    fmt::print("{}", t.render(0));
    return 0;
}

}  // namespace

Subcommand register_config(CLI::App& app, GlobalOptions& global) {
    auto* config = app.add_subcommand("config", "Inspect settings (`cgbench config show`)");
    config->require_subcommand(1);
    add_global_flags(*config, global);
    auto* show_cmd = config->add_subcommand(
        "show",
        "Print every effective setting of a run, its value and where it came from:\n"
        "  cgbench config show [RUN OPTIONS] [--suite FILE | [--] PROGRAM [ARGS...]]\n"
        "Layers, lowest first: built-in < suite [defaults] < suite [[bench]] entry <\n"
        "environment (CGBENCH_*) < command line. Takes the options of `cgbench run`.");
    show_cmd->prefix_command();
    add_global_flags(*show_cmd, global);
    show_cmd->footer(exit_code_help());
    auto input = std::make_shared<config::RunInput>();
    add_run_options(*show_cmd, *input);

    auto* threshold_cmd = config->add_subcommand(
        "threshold",
        "Check thresholds and print the rules they make:\n"
        "  cgbench config threshold [SPEC...]\n"
        "The grammar every command and the suite file read: [GLOB:][METRIC=]REL%[|ABS] or\n"
        "[GLOB:]METRIC=off, several separated by commas (METRIC defaults to cost).\n"
        "CGBENCH_THRESHOLD is shown when set. Exit 2 names the first bad part.");
    add_global_flags(*threshold_cmd, global);
    auto specs = std::make_shared<std::vector<std::string>>();
    threshold_cmd->add_option("SPEC", *specs, "A threshold, e.g. 2% or 'parse/*:Ir=0.5%|1000'");
    return {config, [input, show_cmd, threshold_cmd, specs](const Context& ctx) {
                if (threshold_cmd->parsed()) return threshold(*specs, ctx.env);
                input->command = program_arguments(*show_cmd, ctx.global);
                return show(*input, ctx);
            }};
}

}  // namespace cgbench::cli
