#include "config/run_options.hpp"

#include <fmt/format.h>

#include "core/errors.hpp"
#include "util/strings.hpp"

namespace cgbench::config {

namespace {

std::optional<double> parse_timeout(const Layered& t) {
    if (t.value.empty()) return std::nullopt;
    const auto v = util::parse_seconds(t.value);
    if (!v || *v <= 0) {
        throw UsageError(fmt::format("invalid timeout '{}' (from {})", util::printable(t.value),
                                     t.origin),
                         "give a positive number of seconds, e.g. --timeout 600");
    }
    return v;
}

std::filesystem::path probe_cache_dir(const exec::EnvMap& env) {
    if (const auto it = env.find("XDG_CACHE_HOME"); it != env.end() && !it->second.empty()) {
        return std::filesystem::path(it->second) / "cgbench";
    }
    if (const auto it = env.find("HOME"); it != env.end() && !it->second.empty()) {
        return std::filesystem::path(it->second) / ".cache" / "cgbench";
    }
    return {};
}

RunSettings layer_settings(const RunInput& in, const exec::EnvMap& env) {
    RunSettings s;
    const auto layer = [&](Layered& l, std::string_view var, const std::optional<std::string>& cli,
                           std::string flag) {
        apply_env(l, env, var);
        apply(l, cli, Source::CommandLine, std::move(flag));
    };
    layer(s.geometry, "CGBENCH_GEOMETRY", in.geometry, "--geometry");
    layer(s.weights, "CGBENCH_WEIGHTS", in.weights, "--weights");
    layer(s.cpu_baseline, "CGBENCH_CPU_BASELINE", in.cpu_baseline, "--cpu-baseline");
    layer(s.timeout, "CGBENCH_TIMEOUT", in.timeout, "--timeout");
    layer(s.format, "CGBENCH_FORMAT", in.format, "--format");
    return s;
}

}  // namespace

RunPlan plan_run(const RunInput& in, const exec::EnvMap& env) {
    if (in.command.empty()) {
        throw UsageError("no program given",
                         "usage: cgbench run [OPTIONS] -- PROGRAM [ARGS...]");
    }
    if (in.verify < 1) throw UsageError("--verify needs a count of at least 1");
    RunPlan plan;
    plan.settings = layer_settings(in, env);
    auto& ms = plan.request.settings;
    ms.geometry = valgrind::parse_geometry(plan.settings.geometry.value);
    ms.weights = metrics::parse_weights(plan.settings.weights.value);
    ms.cpu_baseline = valgrind::parse_cpu_baseline(plan.settings.cpu_baseline.value);
    ms.branch_sim = in.branch_sim;
    ms.echo_output = in.show_output;
    if (in.keep_raw) ms.keep_raw_dir = *in.keep_raw;
    plan.format = report::parse_format(plan.settings.format.value);
    if (in.out) plan.out = *in.out;

    runner::BenchmarkSpec spec;
    spec.command = in.command;
    spec.name = in.name ? *in.name : runner::default_benchmark_name(in.command);
    if (spec.name.empty()) throw UsageError("--name cannot be empty");
    if (in.cwd) spec.cwd = *in.cwd;
    if (in.stdin_path) spec.stdin_path = *in.stdin_path;
    for (const auto& e : in.env) spec.env.push_back(exec::parse_env_request(e));
    spec.timeout_seconds = parse_timeout(plan.settings.timeout);
    spec.regions = in.regions;
    plan.request.benchmarks.push_back(std::move(spec));
    plan.request.verify = in.verify;
    plan.request.probe_cache_dir = probe_cache_dir(env);
    return plan;
}

}  // namespace cgbench::config
