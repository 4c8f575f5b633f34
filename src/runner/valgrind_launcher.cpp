#include "runner/valgrind_launcher.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <mutex>

#include "base/errors.hpp"
#include "exec/program.hpp"
#include "exec/sandbox.hpp"
#include "exec/staging.hpp"
#include "util/fs.hpp"
#include "util/strings.hpp"
#include "valgrind/command.hpp"
#include "valgrind/cpu_baseline.hpp"

namespace cgbench::runner {

namespace fs = std::filesystem;

void throw_if_tmp_full() {
    // Valgrind keeps temporary files of its own in /tmp (the program's environment, which
    // it reads, has no TMPDIR).
    if (::access("/tmp", W_OK) != 0 && (errno == EROFS || errno == EACCES)) {
        throw EnvironmentError(fmt::format("/tmp is not writable ({}): Valgrind keeps its "
                                           "temporary files there",
                                           std::strerror(errno)),
                               "make /tmp writable (TMPDIR moves only cgbench's own files)");
    }
    constexpr std::uint64_t kEnough = 1 << 20;  // Valgrind's files of a small program
    const auto free = util::free_bytes("/tmp");
    if (!free || *free >= kEnough) return;
    throw EnvironmentError(
        fmt::format("/tmp is full ({} KiB free): Valgrind could not write its profile there",
                    *free / 1024),
        "free space in /tmp; cgbench stages every run there (fixed-length paths)");
}

ValgrindLauncher::ValgrindLauncher(valgrind::Installation inst, MeasureSettings settings,
                                   exec::ProcessRunner& runner, exec::EnvMap caller)
    : inst_(std::move(inst)),
      settings_(std::move(settings)),
      runner_(runner),
      caller_(std::move(caller)) {
    // What runs killed before their cleanup left behind (a CI job's SIGKILL).
    static std::once_flag cleaned;
    std::call_once(cleaned, [] {
        if (const int n = exec::clean_stale_staging(); n > 0) {
            spdlog::debug("removed {} staging entries left by killed runs", n);
        }
    });
}

std::pair<fs::path, exec::ResolvedProgram> ValgrindLauncher::locate(
    const BenchmarkSpec& spec) const {
    if (spec.command.empty()) {
        throw UsageError(fmt::format("benchmark '{}' has no command", util::printable(spec.name)));
    }
    const fs::path cwd = spec.cwd.empty() ? fs::current_path() : fs::absolute(spec.cwd);
    if (!spec.cwd.empty() && !fs::is_directory(cwd)) {
        throw UsageError(fmt::format("working directory {} of '{}' does not exist", cwd.string(),
                                     util::printable(spec.name)),
                         "fix the cwd setting");
    }
    const fs::path base = spec.base_dir.empty() ? cwd : spec.base_dir;
    return {cwd, exec::resolve_program(spec.command.front(), base, caller_)};
}

fs::path ValgrindLauncher::program_path(const BenchmarkSpec& spec) const {
    return locate(spec).second.path;
}

void ValgrindLauncher::check(const BenchmarkSpec& spec) const {
    locate(spec);
    std::error_code ec;
    if (spec.stdin_path.empty()) return;
    const auto status = fs::status(spec.stdin_path, ec);
    const std::string why = !fs::exists(status)                            ? "does not exist"
                            : fs::is_directory(status)                     ? "is a directory"
                            : ::access(spec.stdin_path.c_str(), R_OK) != 0 ? "is not readable"
                                                                           : "";
    if (!why.empty()) {
        throw UsageError(fmt::format("stdin file {} of '{}' {}", spec.stdin_path,
                                     util::printable(spec.name), why),
                         "fix the stdin setting: a file (or a device, a FIFO) to read");
    }
}

MeasureFacts ValgrindLauncher::facts() const {
    const std::lock_guard lock(facts_mutex_);
    return facts_;
}

void ValgrindLauncher::record_facts(int aslr_errno, std::size_t env_block_bytes,
                                    const std::vector<exec::EnvRequest>& env) {
    const auto loader = exec::loader_variables(env, caller_);
    const std::lock_guard lock(facts_mutex_);
    if (aslr_errno != 0) facts_.aslr_errno = aslr_errno;
    facts_.env_block_bytes = std::max(facts_.env_block_bytes, env_block_bytes);
    for (const auto& v : loader) {
        auto& all = facts_.loader_env;
        if (std::find(all.begin(), all.end(), v) == all.end()) {
            all.insert(std::upper_bound(all.begin(), all.end(), v), v);
        }
    }
}

std::vector<std::string> ValgrindLauncher::probe_environment(const BenchmarkSpec& spec) const {
    exec::EnvironmentSpec env;
    env.requests = spec.env;
    env.underscore = valgrind::dynamic_loader_path();
    env.glibc_tunables = valgrind::glibc_tunables_for(settings_.cpu_baseline, settings_.geometry);
    return exec::build_environment(env, caller_).entries;
}

namespace {

// The program's argv in `sandbox`: its staged path, its arguments, then `extra`.
std::vector<std::string> staged_argv(const BenchmarkSpec& spec, const exec::RunSandbox& sandbox,
                                     const std::vector<std::string>& extra) {
    std::vector<std::string> argv = {sandbox.program_path().string()};
    const auto args = sandbox.map_arguments({spec.command.begin() + 1, spec.command.end()});
    argv.insert(argv.end(), args.begin(), args.end());
    argv.insert(argv.end(), extra.begin(), extra.end());
    return sandbox.map_output(argv);
}

// The native run of `argv` in `sandbox` with environment `env`: what the warm-up runs, and
// what the Valgrind run wraps.
exec::ProcessSpec native_run(const BenchmarkSpec& spec, const exec::RunSandbox& sandbox,
                             std::vector<std::string> argv, std::vector<std::string> env) {
    exec::ProcessSpec ps;
    ps.argv = std::move(argv);
    ps.env = std::move(env);
    ps.cwd = sandbox.cwd();
    ps.sandbox = sandbox.mounts();
    ps.stdin_path = spec.stdin_path;
    ps.timeout_seconds = spec.timeout_seconds;
    return ps;
}

}  // namespace

exec::BuiltEnvironment ValgrindLauncher::environment(const BenchmarkSpec& spec,
                                                     const exec::RunSandbox& sandbox,
                                                     const std::vector<std::string>& argv,
                                                     BenchmarkResult& result) const {
    exec::EnvironmentSpec env_spec;
    env_spec.requests = spec.env;
    env_spec.underscore = sandbox.program_path().string();
    env_spec.glibc_tunables =
        valgrind::glibc_tunables_for(settings_.cpu_baseline, settings_.geometry);
    env_spec.argv = argv;
    env_spec.preload = sandbox.preload();
    env_spec.fixed = settings_.fixed.clock && settings_.fixed.random ? "clock,random"
                     : settings_.fixed.clock                         ? "clock"
                                                                     : "random";
    auto env = exec::build_environment(env_spec, caller_);
    if (env.over_budget) {
        result.warnings.push_back(fmt::format(
            "arguments and environment take {} bytes, over the {}-byte budget: counts now "
            "depend on their size",
            env.block_bytes, exec::kEnvBlockBudget));
    }
    return env;
}

Run ValgrindLauncher::launch(const BenchmarkSpec& spec, const LaunchRequest& request,
                             BenchmarkResult& result, int attempt) {
    const auto [cwd, program] = locate(spec);
    const exec::RunSandbox sandbox(program, cwd, request.staging, settings_.fixed);
    const std::string run_path = sandbox.program_path().string();
    const auto argv = staged_argv(spec, sandbox, request.extra_args);
    const auto env = environment(spec, sandbox, argv, result);

    Run run;
    run.files = {request.staging, request.options.tool};
    run.max_processes = spec.max_processes;
    run.names = {run_path, program.as_given, sandbox.link().string()};
    const std::string joined = util::join(argv, " ");
    run.cmd_lines = 1 + static_cast<std::size_t>(std::count(joined.begin(), joined.end(), '\n'));
    run.cmd_program = run_path;
    exec::ProcessSpec ps = native_run(spec, sandbox, argv, env.entries);
    if (attempt == 0 && !warm_up(spec, ps, result)) return run;

    ps.argv = valgrind::valgrind_command(inst_, request.options, run.files, argv);
    ps.echo_output = settings_.echo_output;
    ps.process_limit = exec::ProcessSpec::ProcessLimit{
        request.staging, std::string(valgrind::kLogPrefix), spec.max_processes};
    spdlog::debug("running: {}", util::shell_join(ps.argv));  // the host's paths
    spdlog::trace("environment: {}", util::shell_join(ps.env));
    ps.argv = sandbox.map_output(std::move(ps.argv));
    run.outcome = runner_.run(ps);
    run.root_pid = run.outcome.pid;
    record_facts(run.outcome.aslr_errno, env.block_bytes, spec.env);
    interpret(run, spec.timeout_seconds, result);
    return run;
}

}  // namespace cgbench::runner
