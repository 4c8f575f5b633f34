#include "runner/gbench_list.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "base/errors.hpp"
#include "exec/program.hpp"
#include "runner/gbench.hpp"
#include "util/strings.hpp"

namespace cgbench::runner {

namespace fs = std::filesystem;

namespace {

// Listing takes milliseconds; a binary that hangs while registering is stopped after the
// benchmark's --timeout, or this without one.
constexpr double kListTimeoutSeconds = 60;

// Runs the binary natively with `args` after its own arguments; UsageError unless it exits 0.
exec::ProcessOutcome run_native(const BenchmarkSpec& spec, const exec::ResolvedProgram& program,
                                const std::vector<std::string>& args, exec::ProcessRunner& runner,
                                const exec::EnvMap& caller) {
    exec::ProcessSpec ps;
    ps.argv = {program.path.string()};
    ps.argv.insert(ps.argv.end(), spec.command.begin() + 1, spec.command.end());
    ps.argv.insert(ps.argv.end(), args.begin(), args.end());
    exec::EnvironmentSpec env;
    env.requests = spec.env;
    env.underscore = program.path.string();
    ps.env = exec::build_environment(env, caller).entries;
    ps.cwd = spec.cwd.empty() ? fs::current_path().string() : spec.cwd.string();
    ps.timeout_seconds = std::min(spec.timeout_seconds.value_or(kListTimeoutSeconds),
                                  kListTimeoutSeconds);
    ps.tail_bytes = 16 * 1024 * 1024;
    auto outcome = runner.run(ps);
    if (outcome.how != exec::Termination::Exited || outcome.exit_code != 0) {
        const auto err = util::trim(outcome.stderr_tail);
        throw UsageError(
            fmt::format("{} {} failed ({}){}", program.as_given, util::join(args, " "),
                        outcome.how == exec::Termination::Exited
                            ? fmt::format("exit status {}", outcome.exit_code)
                        : outcome.how == exec::Termination::TimedOut
                            ? fmt::format("timed out after {:.3g} s", *ps.timeout_seconds)
                            : std::string("killed"),
                        err.empty() ? std::string() : ": " + util::printable(err.substr(0, 200))),
            "run it by hand to see why; check its extra arguments");
    }
    return outcome;
}

}  // namespace

GbenchListing list_gbench(const BenchmarkSpec& spec, exec::ProcessRunner& runner,
                          const exec::EnvMap& caller) {
    const fs::path cwd = spec.cwd.empty() ? fs::current_path() : fs::absolute(spec.cwd);
    const auto program = exec::resolve_program(spec.command.front(),
                                               spec.base_dir.empty() ? cwd : spec.base_dir, caller);
    if (!is_gbench_binary(program.path)) {
        throw UsageError(
            fmt::format("{} is not a Google Benchmark binary (it neither links libbenchmark "
                        "nor holds its --benchmark_list_tests flag)",
                        program.as_given),
            "give --gbench a program built with Google Benchmark; measure other programs "
            "with `cgbench run -- PROGRAM`");
    }
    const std::string& filter = spec.gbench->filter;
    std::vector<std::string> args = {"--benchmark_list_tests=true"};
    if (!filter.empty()) args.push_back("--benchmark_filter=" + filter);
    GbenchListing listing;
    listing.benchmarks =
        parse_benchmark_list(run_native(spec, program, args, runner, caller).stdout_tail);
    if (listing.benchmarks.empty()) {
        throw UsageError(
            fmt::format("filter '{}' matches no benchmark in {}",
                        util::printable(filter.empty() ? "." : filter), program.as_given),
            fmt::format("`{} --benchmark_list_tests` shows them", program.as_given));
    }
    const auto help = run_native(spec, program, {"--help"}, runner, caller);
    listing.min_time = accepts_iteration_min_time(help.stdout_tail + help.stderr_tail) ? "1x" : "0";
    return listing;
}

std::vector<BenchmarkSpec> expand_gbench_target(const BenchmarkSpec& target,
                                                const GbenchListing& listing) {
    std::vector<BenchmarkSpec> specs;
    for (const auto& name : listing.benchmarks) {
        BenchmarkSpec spec = target;
        spec.name = target.name + "/" + name;
        spec.gbench->benchmark = name;
        spec.gbench->min_time = listing.min_time;
        specs.push_back(std::move(spec));
    }
    return specs;
}

}  // namespace cgbench::runner
