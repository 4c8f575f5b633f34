// How a Valgrind run ended, as a result's status and error: ValgrindLauncher::interpret,
// no_profile and the native warm-up runs.

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>

#include "base/errors.hpp"
#include "runner/valgrind_launcher.hpp"
#include "util/fs.hpp"
#include "util/strings.hpp"

namespace cgbench::runner {

namespace fs = std::filesystem;

namespace {

// The last `max_lines` non-empty lines of a text.
std::string last_lines(std::string_view text, std::size_t max_lines) {
    text = util::trim(text);
    std::size_t pos = text.size();
    for (std::size_t n = 0; n < max_lines && pos > 0; ++n) {
        const auto nl = text.rfind('\n', pos - 1);
        pos = nl == std::string_view::npos ? 0 : nl;
    }
    return std::string(util::trim(text.substr(pos)));
}

// Valgrind's own complaint ("valgrind: ./x: bad interpreter ..."), if its stderr holds one.
std::string valgrind_complaint(std::string_view stderr_text) {
    for (const auto line : util::split(stderr_text, '\n')) {
        if (util::starts_with(line, "valgrind: ")) return std::string(line);
    }
    return {};
}

// The error of a run stopped at its timeout (`limit`, which the message names: the wall
// time the kill took is a little longer). `phase` says which run, `file` what it executes.
std::string timeout_error(const exec::ProcessOutcome& outcome, std::optional<double> limit,
                          std::string_view phase, const std::string& file) {
    const double seconds = limit.value_or(outcome.wall_seconds);
    if (outcome.stdin_unwritten) {
        return fmt::format(
            "timed out after {:.3g} s{} waiting for a writer of its stdin FIFO: nothing wrote to "
            "it or closed it (start the writer first: every run, the warm-up too, opens it anew)",
            seconds, phase.empty() ? "" : fmt::format(" {}", phase));
    }
    if (outcome.started) {
        return fmt::format("timed out after {:.3g} s{}; everything it started was killed", seconds,
                           phase.empty() ? "" : fmt::format(" {}, before measuring", phase));
    }
    return fmt::format(
        "timed out after {:.3g} s{} before {} started: its exec (or the sandbox's setup) never "
        "returned, as on a hung file system or under a seccomp supervisor that holds the call; "
        "everything it started was killed; check the file system {} is on and what intercepts "
        "system calls on this machine",
        seconds, phase.empty() ? "" : fmt::format(" {}", phase), file, file);
}

// Valgrind's notes about the processes of `run`, for an error message ("" when none).
std::string valgrind_notes(const Run& run) {
    std::vector<std::string> notes;
    for (const auto& p : traced_processes(run.files, run.root_pid)) {
        for (const auto& n : p.log.notes) {
            if (std::find(notes.begin(), notes.end(), n) == notes.end()) notes.push_back(n);
        }
    }
    return util::join(notes, "; ");
}

// The error of a run whose process tree outgrew its limit and was killed.
std::string process_limit_error(const Run& run) {
    return fmt::format(
        "started more than {} processes (a fork bomb, or a loop of short-lived children?); "
        "everything it started was killed after {:.3g} s",
        run.max_processes, run.outcome.wall_seconds);
}

// The error of a run killed by a signal: Valgrind's own SIGILL on an instruction it could not
// decode is told apart from the program's.
std::string killed_error(const Run& run) {
    std::string error = "killed by " + exec::describe_signal(run.outcome.signal);
    if (const auto why = undecodable_instruction(traced_processes(run.files, run.root_pid));
        !why.empty()) {
        error += " from Valgrind, not from the program: " + why;
    }
    return error;
}

// A run that never started: its working directory could not be entered (UsageError), or
// Valgrind (`launcher`) could not be started or executed (EnvironmentError).
[[noreturn]] void throw_spawn_failed(const exec::ProcessOutcome& outcome, const std::string& name,
                                     const std::string& launcher) {
    if (outcome.spawn_step == "chdir") {
        throw UsageError(fmt::format("cannot enter the working directory of '{}': {}",
                                     util::printable(name), std::strerror(outcome.spawn_errno)));
    }
    throw EnvironmentError(
        fmt::format("cannot {} {}: {}", outcome.spawn_step == "fork" ? "start" : "execute",
                    launcher, std::strerror(outcome.spawn_errno)),
        "reinstall valgrind or set CGBENCH_VALGRIND");
}

}  // namespace

bool ValgrindLauncher::warm_up(const BenchmarkSpec& spec, const exec::ProcessSpec& native,
                               BenchmarkResult& result) {
    for (int i = 0; i < spec.warmup; ++i) {
        const auto outcome = runner_.run(native);
        if (outcome.how == exec::Termination::TimedOut) {
            result.status = BenchStatus::Timeout;
            result.wall_seconds = outcome.wall_seconds;
            result.error = timeout_error(outcome, native.timeout_seconds,
                                         "in its native warm-up run (--warmup)",
                                         util::printable(spec.command.front()));
            return false;
        }
        if (outcome.how == exec::Termination::SpawnFailed) return true;  // reported by the run
        if (outcome.unkillable_processes > 0) {
            result.status = BenchStatus::Failed;
            result.error = unkillable_error(outcome.unkillable_processes) + " (native warm-up run)";
            return false;
        }
    }
    return true;
}

void ValgrindLauncher::interpret(const Run& run, std::optional<double> limit,
                                 BenchmarkResult& result) const {
    using exec::Termination;
    const auto& outcome = run.outcome;
    result.wall_seconds = outcome.wall_seconds;
    result.stderr_tail = last_lines(outcome.stderr_tail, 20);
    switch (outcome.how) {
        case Termination::SpawnFailed:
            throw_spawn_failed(outcome, result.name, inst_.launcher.string());
        case Termination::TimedOut:
            result.status = BenchStatus::Timeout;
            result.error = timeout_error(outcome, limit, "", inst_.launcher.string());
            return;
        case Termination::Limited:
            result.status = BenchStatus::Failed;
            result.error = process_limit_error(run);
            return;
        case Termination::Signaled:
            result.status = BenchStatus::Failed;
            result.signal = outcome.signal;
            result.error = killed_error(run);
            return;
        case Termination::Exited:
            interpret_exit(run, result);
            return;
    }
}

void ValgrindLauncher::interpret_exit(const Run& run, BenchmarkResult& result) const {
    const auto& outcome = run.outcome;
    result.exit_code = outcome.exit_code;
    std::error_code ec;
    if (!fs::exists(run.out_file(), ec)) {
        throw_if_tmp_full();
        no_profile(run, result);
        return;
    }
    if (outcome.exit_code != 0) {
        result.status = BenchStatus::Failed;
        result.error = fmt::format("exited with status {}", outcome.exit_code);
        if (const std::string notes = valgrind_notes(run); !notes.empty()) {
            result.error += " (valgrind: " + util::printable(notes) + ")";
        }
    }
}

void ValgrindLauncher::no_profile(const Run& run, BenchmarkResult& result) const {
    std::error_code ec;
    if (!fs::exists(run.log_file(), ec)) {
        // Valgrind stopped before the program ran: its message is on stderr.
        const std::string complaint = valgrind_complaint(run.outcome.stderr_tail);
        if (util::starts_with(complaint, "valgrind: " + run.names.link)) {
            throw UsageError(
                fmt::format("'{}' cannot be executed: {}", util::printable(result.command.front()),
                            complaint.substr(complaint.find(": ", 10) + 2)),
                "check its #! line or that it is a program for this machine");
        }
        throw EnvironmentError(
            fmt::format("valgrind exited with status {} before starting the program: {}",
                        run.outcome.exit_code,
                        util::printable(complaint.empty() ? last_lines(run.outcome.stderr_tail, 3)
                                                          : complaint)),
            fmt::format("run `valgrind --tool={} true` to check the installation", result.tool));
    }
    const auto log = [&] {
        try {
            return valgrind::parse_process_log(util::read_file(run.log_file()));
        } catch (const Error&) {
            return valgrind::ProcessLog{};
        }
    }();
    const std::string notes = valgrind_notes(run);
    result.status = BenchStatus::Failed;
    result.error = fmt::format(
        "valgrind wrote no profile for the started process (pid {}, last running '{}'), "
        "although it exited with status {}{}",
        run.root_pid, util::printable(run.names.display(log.command)), run.outcome.exit_code,
        notes.empty() ? std::string(": the program's last exec was not followed")
                      : ": " + util::printable(notes));
}

}  // namespace cgbench::runner
