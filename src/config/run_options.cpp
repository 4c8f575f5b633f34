#include "config/run_options.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <thread>

#include "base/errors.hpp"
#include "ci/facts.hpp"
#include "config/benchmark_plan.hpp"
#include "config/suite.hpp"
#include "config/weights_file.hpp"
#include "util/hash.hpp"
#include "util/strings.hpp"

namespace cgbench::config {

namespace {

std::filesystem::path probe_cache_dir(const exec::EnvMap& env) {
    if (const auto it = env.find("XDG_CACHE_HOME"); it != env.end() && !it->second.empty()) {
        return std::filesystem::path(it->second) / "cgbench";
    }
    if (const auto it = env.find("HOME"); it != env.end() && !it->second.empty()) {
        return std::filesystem::path(it->second) / ".cache" / "cgbench";
    }
    return {};
}

int parse_jobs(const Layered& l) {
    const auto n = util::parse_u64(l.value);
    if (!n || *n < 1 || *n > 1024) {
        throw UsageError(
            fmt::format("invalid job count '{}' (from {})", util::printable(l.value), l.origin),
            "give how many benchmarks to run at once, e.g. -j 2");
    }
    return static_cast<int>(*n);
}

// A parallel CI job's position (GitLab's `parallel:`, Buildkite's `parallelism:`).
void apply_ci_node(Layered& shard, const exec::EnvMap& env) {
    if (auto s = ci::ci_shard(env)) shard = Layered{s->text, Source::Environment, s->origin};
}

}  // namespace

Layered layered_format(const std::optional<std::string>& format, const exec::EnvMap& env) {
    Layered l = layered_default("console");
    apply_env(l, env, "CGBENCH_FORMAT");
    apply(l, format, Source::CommandLine, "--format");
    return l;
}

RunSettings layer_run_settings(const RunInput& in, const exec::EnvMap& env, const Suite* suite) {
    RunSettings s;
    s.jobs = Layered{std::to_string(std::max(1U, std::thread::hardware_concurrency())),
                     Source::Default, "built-in: the number of cores"};
    if (suite != nullptr) {
        const auto from_suite = [&](Layered& l, const std::optional<SuiteValue>& v) {
            if (v) l = Layered{v->text, Source::SuiteDefaults, suite->origin(v->line)};
        };
        from_suite(s.geometry, suite->defaults.geometry);
        from_suite(s.weights, suite->defaults.weights);
        from_suite(s.cpu_baseline, suite->defaults.cpu_baseline);
        from_suite(s.branch_sim, suite->defaults.branch_sim);
        from_suite(s.region_tool, suite->defaults.region_tool);
        from_suite(s.fixed_clock, suite->defaults.fixed_clock);
        from_suite(s.fixed_random, suite->defaults.fixed_random);
    }
    const auto layer = [&](Layered& l, std::string_view var, const std::optional<std::string>& cli,
                           std::string flag) {
        if (!var.empty()) apply_env(l, env, var);
        apply(l, cli, Source::CommandLine, std::move(flag));
    };
    layer(s.geometry, "CGBENCH_GEOMETRY", in.geometry, "--geometry");
    layer(s.weights, "CGBENCH_WEIGHTS", in.weights, "--weights");
    layer(s.cpu_baseline, "CGBENCH_CPU_BASELINE", in.cpu_baseline, "--cpu-baseline");
    layer(s.branch_sim, "", in.branch_sim ? std::optional<std::string>("on") : std::nullopt,
          "--branch-sim");
    layer(s.region_tool, "CGBENCH_REGION_TOOL", in.region_tool, "--region-tool");
    const auto on = [](bool flag) {
        return flag ? std::optional<std::string>("on") : std::nullopt;
    };
    layer(s.fixed_clock, "", on(in.fixed_clock), "--fixed-clock");
    layer(s.fixed_random, "", on(in.fixed_random), "--fixed-random");
    s.format = layered_format(in.format, env);
    layer(s.jobs, "CGBENCH_JOBS", in.jobs, "-j");
    apply_ci_node(s.shard, env);
    layer(s.shard, "", in.shard, "--shard");
    return s;
}

namespace {

// The suite named by --suite, or found in the current directory when no program is given.
std::optional<Suite> find_suite(const RunInput& in) {
    if (in.suite) {
        if (in.gbench) {
            throw UsageError("give either --gbench or --suite, not both",
                             "put the binary into the suite as a [[gbench]] entry");
        }
        if (!in.command.empty()) {
            throw UsageError("give either a program or --suite, not both",
                             "put the program into the suite as a [[bench]] entry");
        }
        auto suite = load_suite(*in.suite);
        if (in.suite_dir) suite.dir = *in.suite_dir;
        return suite;
    }
    if (!in.command.empty() || in.gbench) return std::nullopt;
    const auto found = discover_suite();
    if (found.empty()) {
        throw UsageError("no program given",
                         "usage: cgbench run [OPTIONS] -- PROGRAM [ARGS...], or --suite FILE "
                         "(./cgbench.toml is used when present)");
    }
    return load_suite(found);
}

void plan_shard(RunPlan& plan, const RunInput& in) {
    const Layered& shard = plan.settings.shard;
    if (plan.suite.empty()) {
        if (in.shard) throw UsageError("--shard splits a suite", "use it with --suite FILE");
        if (in.filter && !in.gbench) {
            throw UsageError("--filter selects benchmarks of a suite or of a --gbench binary",
                             "use it with --suite FILE or --gbench BINARY");
        }
        plan.settings.shard = layered_default("");  // CI_NODE_* do not split one program
        return;
    }
    if (!shard.value.empty()) plan.shard = parse_shard(shard.value, shard.origin);
}

// Validates the run-wide settings of `plan` (layered already) into its request.
void plan_run_settings(RunPlan& plan, const RunInput& in, const exec::EnvMap& env) {
    if (in.verify < 1) throw UsageError("--verify needs a count of at least 1");
    auto& ms = plan.request.settings;
    ms.geometry = parse_layered(plan.settings.geometry, valgrind::parse_geometry);
    ms.branch_sim = plan.settings.branch_sim.value == "on";
    ms.weights = parse_layered(plan.settings.weights, [&](const std::string& w) {
        return metrics::with_branch_sim(resolve_weights(w), ms.branch_sim);
    });
    ms.cpu_baseline = parse_layered(plan.settings.cpu_baseline, valgrind::parse_cpu_baseline);
    ms.region_tool = parse_layered(plan.settings.region_tool, valgrind::parse_region_tool);
    ms.fixed = {plan.settings.fixed_clock.value == "on", plan.settings.fixed_random.value == "on"};
    ms.echo_output = in.show_output;
    if (in.keep_raw) ms.keep_raw_dir = *in.keep_raw;
    if (in.out) plan.out = *in.out;
    plan.request.jobs = parse_jobs(plan.settings.jobs);
    plan.db = resolve_db(in.db, env);
    plan.request.verify = in.verify;
    plan.request.probe_cache_dir = probe_cache_dir(env);
}

}  // namespace

RunSettings checked_run_settings(const RunInput& in, const exec::EnvMap& env) {
    RunPlan plan;
    plan.settings = layer_run_settings(in, env, nullptr);
    plan_run_settings(plan, in, env);
    plan_shard(plan, in);
    return plan.settings;
}

RunPlan plan_run(const RunInput& in, const exec::EnvMap& env) {
    const auto suite = find_suite(in);
    RunPlan plan;
    plan.settings = layer_run_settings(in, env, suite ? &*suite : nullptr);
    plan_run_settings(plan, in, env);
    if (suite) {
        plan.suite = suite->path;
        plan.suite_entries = suite->entries.size();
        plan.request.git_dir = suite->dir;  // the project the suite belongs to
        plan_suite_benchmarks(*suite, in, env, plan);
    } else {
        plan_single_benchmark(in, env, plan);
    }
    plan.suite_size = plan.request.benchmarks.size();
    plan_shard(plan, in);
    return plan;
}

void plan_new_verification(RunPlan& plan, const std::optional<std::vector<std::string>>& known,
                           int new_runs) {
    for (auto& spec : plan.request.benchmarks) {
        const bool is_new =
            !known || std::find(known->begin(), known->end(), spec.name) == known->end();
        if (is_new) spec.verify = std::max(spec.verify_new, new_runs);
    }
}

void apply_shard(RunPlan& plan, const std::optional<CostMap>& previous_costs, std::string balance) {
    if (!plan.shard) return;
    plan.shard_balance = previous_costs ? std::move(balance) : "names";
    std::vector<std::string> names;
    for (const auto& b : plan.request.benchmarks)
        names.push_back(b.name);
    plan.shard_suite = util::hex64(util::fnv1a64(util::join(names, "\n")));
    std::vector<runner::BenchmarkSpec> specs;
    std::vector<BenchmarkSettings> settings;
    for (const std::size_t i : shard_members(names, *plan.shard, previous_costs)) {
        specs.push_back(std::move(plan.request.benchmarks[i]));
        settings.push_back(std::move(plan.benchmark_settings[i]));
    }
    plan.request.benchmarks = std::move(specs);
    plan.benchmark_settings = std::move(settings);
}

}  // namespace cgbench::config
