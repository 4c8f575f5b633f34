// WholeProgram: the whole program under Cachegrind, its result from the profiles of all its
// processes.

#include <fmt/format.h>

#include <algorithm>

#include "exec/staging.hpp"
#include "runner/function_costs.hpp"
#include "runner/measurement.hpp"
#include "runner/repeatability.hpp"
#include "util/strings.hpp"

namespace cgbench::runner {

namespace {

// The commands of the processes in `indices`, for a one-line message: each command once
// with how many ran it ("37 x ./bomb"), at most kShownCommands of them, each cut to
// kShownCommandBytes, so a fork bomb's thousand processes still give a short line.
std::string commands_of(const std::vector<ProcessResult>& processes,
                        const std::vector<std::size_t>& indices) {
    constexpr std::size_t kShownCommands = 5;
    constexpr std::size_t kShownCommandBytes = 200;
    std::vector<std::pair<std::string, std::size_t>> counted;  // in order of first appearance
    for (const auto i : indices) {
        const auto& command = processes[i].command;
        const auto it = std::find_if(counted.begin(), counted.end(),
                                     [&](const auto& c) { return c.first == command; });
        if (it == counted.end()) {
            counted.emplace_back(command, 1);
        } else {
            ++it->second;
        }
    }
    std::vector<std::string> shown;
    for (std::size_t k = 0; k < counted.size() && k < kShownCommands; ++k) {
        const auto& [command, n] = counted[k];
        auto text = util::printable(command.substr(0, kShownCommandBytes));
        if (command.size() > kShownCommandBytes) text += "…";
        shown.push_back(n > 1 ? fmt::format("{} x {}", n, text) : text);
    }
    if (counted.size() > kShownCommands) {
        shown.push_back(fmt::format("and {} other commands", counted.size() - kShownCommands));
    }
    return util::join(shown, ", ");
}

// Processes that wrote no profile (still running when the tree was killed, or killed with
// SIGKILL): their work is not in the result.
std::vector<std::size_t> unprofiled(const std::vector<ProcessResult>& processes) {
    std::vector<std::size_t> out;
    for (std::size_t i = 0; i < processes.size(); ++i) {
        if (!processes[i].profiled) out.push_back(i);
    }
    return out;
}

// Valgrind refuses to exec a setuid program: the process saw a failed exec, which is not the
// program's behaviour (the native run exec'd it). The failure's message, "" when none.
std::string setuid_refused_error(const std::vector<TracedProcess>& traced,
                                 const std::vector<ProcessResult>& procs) {
    for (std::size_t i = 0; i < traced.size(); ++i) {
        for (const auto& note : traced[i].log.notes) {
            if (note.find("Can't execute setuid") == std::string::npos) continue;
            return fmt::format(
                "{} could not run a setuid or setgid program under Valgrind ({}), so what "
                "was measured is a failed exec; measure the program without it",
                procs.empty() ? std::string("the program") : process_label(procs, i),
                util::printable(note));
        }
    }
    return {};
}

// The first child killed by a crash signal, unless `spec` allows it: by Valgrind when it
// could not decode an instruction, else by the child's own fault. "" when none.
std::string child_crash_error(const BenchmarkSpec& spec, const std::vector<TracedProcess>& traced,
                              const std::vector<ProcessResult>& procs) {
    if (spec.allow_child_crash) return {};
    for (std::size_t i = 1; i < procs.size(); ++i) {
        if (!procs[i].signal || !is_crash_signal(*procs[i].signal)) continue;
        const auto signal = exec::describe_signal(*procs[i].signal);
        if (const auto why = undecodable_instruction({traced[i]}); !why.empty()) {
            return fmt::format("{} was killed by {} from Valgrind: {}", process_label(procs, i),
                               signal, why);
        }
        return fmt::format("{} crashed: {} (pass --allow-child-crash if it is expected)",
                           process_label(procs, i), signal);
    }
    return {};
}

// Cachegrind copies a process's counts with it at fork: a child that does not exec holds
// its parent's work up to the fork as well as its own, and the sum counts that work again
// for each such child (a pre-forking program is charged its setup per worker).
void warn_forked_children(const std::vector<ProcessResult>& procs, BenchmarkResult& result) {
    const auto forked = std::count_if(procs.begin(), procs.end(), [](const ProcessResult& p) {
        return p.forked && p.counted && p.profiled;
    });
    if (forked == 0) return;
    result.warnings.push_back(fmt::format(
        "{} forked process(es) that did not exec are counted: each holds its parent's "
        "counts up to the fork (Valgrind copies them with the process), so what the parent "
        "did before forking is counted again for each; --processes main counts the program "
        "alone",
        forked));
}

// Processes whose work is not in the result: killed as leftovers, or ended without a profile.
void warn_uncounted_processes(const exec::ProcessOutcome& outcome,
                              const std::vector<ProcessResult>& procs, BenchmarkResult& result) {
    const auto lost = unprofiled(procs);
    if (outcome.leftover_processes > 0) {
        result.warnings.push_back(fmt::format(
            "{} process(es) outlived the program and were killed: their work is not counted{}",
            outcome.leftover_processes, lost.empty() ? "" : ": " + commands_of(procs, lost)));
    } else if (!lost.empty()) {
        result.warnings.push_back(
            fmt::format("{} process(es) ended without a profile (killed with SIGKILL?): their "
                        "work is not counted: {}",
                        lost.size(), commands_of(procs, lost)));
    }
}

// Warnings and failures that concern the processes of an otherwise measured result: the
// first failure found fails it; without one, the warnings are added.
void check_processes(const BenchmarkSpec& spec, const exec::ProcessOutcome& outcome,
                     const std::vector<TracedProcess>& traced, BenchmarkResult& result) {
    const auto& procs = result.processes;
    std::string failure = setuid_refused_error(traced, procs);
    if (failure.empty()) failure = child_crash_error(spec, traced, procs);
    if (failure.empty() && outcome.unkillable_processes > 0) {
        failure = unkillable_error(outcome.unkillable_processes);
    }
    if (!failure.empty()) {
        result.status = BenchStatus::Failed;
        result.error = std::move(failure);
        return;
    }
    warn_forked_children(procs, result);
    warn_uncounted_processes(outcome, procs, result);
}

// What the counted processes' profiles add up to, and what the repeatability warnings read.
struct ProcessSum {
    metrics::ProfileSum sum;
    std::vector<ProcessEvidence> evidence;
};

// Reads the profile of every profiled process of `traced` into `procs` (events, cost; one cut
// short: not profiled) and sums the counted ones.
ProcessSum sum_processes(const Launcher& launcher, const Run& run,
                         const std::vector<TracedProcess>& traced,
                         std::vector<ProcessResult>& procs) {
    const auto& weights = launcher.settings().weights;
    std::size_t counted = 0;
    for (const auto& p : procs)
        counted += p.counted && p.profiled ? 1 : 0;
    // One counted process: only its top functions are needed. Several: all of each, so that
    // a function's cost is summed over every process before the top ones are picked.
    metrics::ProfileRequest options = top_function_options(weights);
    if (counted > 1) options = {.collect_functions = true, .collect_lines = true};
    options.watch = repeatability_function;
    ProcessSum out;
    std::vector<std::optional<std::size_t>> evidence_index(traced.size());
    for (std::size_t i = 0; i < traced.size(); ++i) {
        if (!procs[i].profiled) continue;
        // A process still running when the program ended is killed, maybe while it wrote
        // its profile at its own exit: a file cut short is no profile, and its work is not
        // counted (the warning says so), as for one killed before.
        auto profile = launcher.process_profile(
            run, traced[i], procs[i].counted ? options : metrics::ProfileRequest{},
            i > 0 && run.outcome.killed_leftovers);
        if (!profile) {
            procs[i].profiled = false;
            continue;
        }
        procs[i].events = profile->totals;
        procs[i].cost = metrics::cost(profile->totals, weights);
        if (!procs[i].counted) continue;
        evidence_index[i] = out.evidence.size();
        out.evidence.push_back({procs[i].command, std::move(profile->watched),
                                procs[i].parent ? evidence_index[*procs[i].parent] : std::nullopt,
                                traced[i].started_ns, traced[i].ended_ns, traced[i].log.threads});
        out.sum.add(std::move(*profile));
    }
    return out;
}

// A whole program's result from the profiles of all its processes.
void score_processes(const Launcher& launcher, const BenchmarkSpec& spec, const Run& run,
                     BenchmarkResult& result) {
    if (run.root_pid == 0) return;  // never started (warm-up timed out)
    const auto traced = launcher.processes(run);
    auto procs = describe_processes(traced, spec.processes, run.names, result.exit_code);
    if (procs.size() > 1) result.processes = procs;
    if (result.status == BenchStatus::Timeout || run.outcome.how == exec::Termination::Limited) {
        const auto running = unprofiled(procs);
        if (!running.empty()) {
            result.error +=
                fmt::format("; {} still running: {}", running.size(), commands_of(procs, running));
        }
        return;
    }
    if (result.status != BenchStatus::Ok) return;
    ProcessSum sum = sum_processes(launcher, run, traced, procs);
    if (procs.size() > 1) result.processes = procs;
    std::vector<bool> counts;
    for (const auto& p : procs)
        counts.push_back(p.counted);
    mark_threads(traced, counts, result);
    check_processes(spec, run.outcome, traced, result);
    if (result.status != BenchStatus::Ok) return;
    const auto& settings = launcher.settings();
    score(sum.sum.profile(), settings.weights, result);
    for (auto& w : repeatability_warnings(sum.evidence, settings.fixed))
        result.warnings.push_back(std::move(w));
}

}  // namespace

valgrind::ToolOptions WholeProgram::options(const MeasureSettings& settings) const {
    return tool_options(settings, valgrind::Tool::Cachegrind);
}

std::vector<BenchmarkResult> WholeProgram::measure(Launcher& launcher, const BenchmarkSpec& spec,
                                                   int attempt) const {
    BenchmarkResult result = start_result(spec, valgrind::Tool::Cachegrind, launcher.settings());
    result.process_mode = spec.processes;
    const exec::OutputDir staging;
    const Run run =
        launcher.launch(spec, {options(launcher.settings()), {}, staging.path()}, result, attempt);
    score_processes(launcher, spec, run, result);
    launcher.keep_raw(spec, attempt, run, result);
    return {result};
}

}  // namespace cgbench::runner
