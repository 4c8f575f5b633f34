#include "calibrate/native.hpp"

#include <fmt/format.h>
#include <sched.h>

#include "base/errors.hpp"
#include "exec/program.hpp"
#include "util/strings.hpp"

namespace cgbench::calibrate {

namespace {

std::string describe_failure(const exec::ProcessOutcome& o) {
    switch (o.how) {
        case exec::Termination::Exited:
            return fmt::format("exited with status {}", o.exit_code);
        case exec::Termination::Signaled:
            return "was killed by " + exec::describe_signal(o.signal);
        case exec::Termination::TimedOut:
            return "timed out";
        case exec::Termination::Limited:
            return "started too many processes";
        case exec::Termination::SpawnFailed:
            return fmt::format("could not be started ({})", o.spawn_step);
    }
    return "failed";
}

// The last line of `text` that is not empty, for error messages.
std::string last_line(const std::string& text) {
    const auto lines = util::split(util::trim(text), '\n');
    return lines.empty() ? std::string() : std::string(util::trim(lines.back()));
}

}  // namespace

std::optional<int> default_cpu() {
    cpu_set_t set;
    CPU_ZERO(&set);
    if (::sched_getaffinity(0, sizeof set, &set) != 0) return std::nullopt;
    for (int cpu = CPU_SETSIZE - 1; cpu >= 0; --cpu) {
        if (CPU_ISSET(cpu, &set)) return cpu;
    }
    return std::nullopt;
}

TimerProbe probe_timer(const std::filesystem::path& program, std::optional<int> cpu,
                       exec::ProcessRunner& runner) {
    exec::ProcessSpec spec;
    spec.argv = {program.string(), "probe"};
    if (cpu) {
        spec.argv.push_back("--cpu");
        spec.argv.push_back(std::to_string(*cpu));
    }
    spec.env = {"PATH=/usr/bin:/bin", "LANG=C.UTF-8"};
    spec.timeout_seconds = 30;
    const auto out = runner.run(spec);
    if (out.how != exec::Termination::Exited || out.exit_code != 0) {
        throw EnvironmentError(fmt::format("{} {}: {}", program.string(), describe_failure(out),
                                           last_line(out.stderr_tail)),
                               "rebuild or reinstall cgbench");
    }
    TimerProbe p;
    for (const auto line : util::split(out.stdout_tail, '\n')) {
        if (line == "timer cycles") p.cycles = true;
        if (util::starts_with(line, "timer cpu ")) p.cycles_unavailable = line.substr(10);
        if (line == "pin ok") p.pinned_cpu = cpu;
        if (util::starts_with(line, "pin failed ")) p.pin_failure = line.substr(11);
    }
    return p;
}

KernelProgramTimer::KernelProgramTimer(NativeSetup setup, exec::ProcessRunner& runner,
                                       exec::EnvMap caller)
    : setup_(std::move(setup)), runner_(runner), caller_(std::move(caller)) {}

std::vector<std::string> simulated_args(const Kernel& kernel, std::uint64_t steps, int warmups,
                                        int reps) {
    return {"run",
            kernel.kernel_args.at(0),
            kernel.kernel_args.at(1),
            std::to_string(steps),
            std::to_string(warmups),
            std::to_string(reps)};
}

exec::ProcessSpec KernelProgramTimer::spec_for(const Kernel& kernel, int warmups, int reps) const {
    exec::ProcessSpec spec;
    exec::EnvironmentSpec env;
    env.glibc_tunables = valgrind::glibc_tunables_for(setup_.cpu_baseline, setup_.geometry);
    env.underscore = setup_.program.string();
    std::vector<std::string> cpu_args;
    if (setup_.cpu) cpu_args = {"--cpu", std::to_string(*setup_.cpu)};
    spec.argv = {setup_.program.string()};
    if (kernel.suite) {
        const auto& b = *kernel.suite;
        const auto cwd = b.cwd.empty() ? std::filesystem::current_path() : b.cwd;
        const auto program =
            exec::resolve_program(b.command.front(), b.base_dir.empty() ? cwd : b.base_dir, caller_);
        spec.argv.insert(spec.argv.end(),
                         {"exec", std::to_string(warmups), std::to_string(reps)});
        spec.argv.insert(spec.argv.end(), cpu_args.begin(), cpu_args.end());
        spec.argv.push_back("--");
        spec.argv.push_back(program.path.string());
        spec.argv.insert(spec.argv.end(), b.command.begin() + 1, b.command.end());
        spec.cwd = cwd.string();
        spec.stdin_path = b.stdin_path;
        env.requests = b.env;
        spec.timeout_seconds = b.timeout_seconds;
    } else {
        auto args = simulated_args(kernel, setup_.steps, warmups, reps);
        spec.argv.insert(spec.argv.end(), args.begin(), args.end());
        spec.argv.push_back("--time");
        spec.argv.insert(spec.argv.end(), cpu_args.begin(), cpu_args.end());
        spec.timeout_seconds = setup_.timeout_seconds;
    }
    spec.env = exec::build_environment(env, caller_).entries;
    return spec;
}

std::vector<Sample> KernelProgramTimer::time(const Kernel& kernel, int warmups, int reps) {
    const auto out = runner_.run(spec_for(kernel, warmups, reps));
    std::vector<Sample> samples;
    std::string failed;
    for (const auto line : util::split(out.stdout_tail, '\n')) {
        if (auto s = parse_sample_line(line)) samples.push_back(*s);
        if (util::starts_with(line, "failed ")) failed = std::string(line.substr(7));
    }
    if (out.how != exec::Termination::Exited || out.exit_code != 0 || !failed.empty()) {
        const std::string why = !failed.empty() ? "failed natively (" + failed + ")"
                                                : "failed natively: it " + describe_failure(out);
        const auto detail = last_line(out.stderr_tail);
        throw BenchmarkError(fmt::format("calibration kernel '{}' {}{}", util::printable(kernel.name),
                                         why, detail.empty() ? "" : ": " + detail),
                             kernel.suite ? "fix the program or leave it out of --suite"
                                          : "rebuild or reinstall cgbench");
    }
    if (samples.size() != static_cast<std::size_t>(reps)) {
        throw EnvironmentError(
            fmt::format("calibration kernel '{}' reported {} timings instead of {}",
                        util::printable(kernel.name), samples.size(), reps),
            "a program that prints lines starting with 'sample ' confuses the timer; rebuild "
            "or reinstall cgbench");
    }
    return samples;
}

}  // namespace cgbench::calibrate
