// Measurer::score_processes: a whole program's result from the profiles of all its processes.

#include <fmt/format.h>

#include <algorithm>

#include "runner/function_costs.hpp"
#include "runner/measurer.hpp"
#include "runner/repeatability.hpp"
#include "util/strings.hpp"
#include "valgrind/cachegrind_parser.hpp"

namespace cgbench::runner {

namespace {

// Whether `p` is the started process still running the program cgbench started. Valgrind's
// log shows the command with spaces escaped ("\ ") and other bytes altered, so only the
// program's path, which cgbench staged, is compared.
bool runs_started_program(const TracedProcess& p, int root_pid, const std::string& program) {
    if (p.pid != root_pid) return false;
    std::string escaped;
    for (const char c : program) {
        if (c == ' ') escaped += '\\';
        escaped += c;
    }
    const std::string_view command = util::trim(p.log.command);
    return command == escaped || command.starts_with(escaped + ' ');
}

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

// Warnings and failures that concern the processes of an otherwise measured result.
void check_processes(const BenchmarkSpec& spec, const exec::ProcessOutcome& outcome,
                     const std::vector<TracedProcess>& traced, BenchmarkResult& result) {
    const auto& procs = result.processes;
    // Valgrind refuses to exec a setuid program: the process saw a failed exec, which is not
    // the program's behaviour (the native run exec'd it).
    for (std::size_t i = 0; i < traced.size(); ++i) {
        for (const auto& note : traced[i].log.notes) {
            if (note.find("Can't execute setuid") == std::string::npos) continue;
            result.status = BenchStatus::Failed;
            result.error = fmt::format(
                "{} could not run a setuid or setgid program under Valgrind ({}), so what "
                "was measured is a failed exec; measure the program without it",
                procs.empty() ? std::string("the program") : process_label(procs, i),
                util::printable(note));
            return;
        }
    }
    for (std::size_t i = 1; i < procs.size(); ++i) {
        if (!procs[i].signal || !is_crash_signal(*procs[i].signal) || spec.allow_child_crash) {
            continue;
        }
        result.status = BenchStatus::Failed;
        result.error =
            fmt::format("{} crashed: {} (pass --allow-child-crash if it is expected)",
                        process_label(procs, i), exec::describe_signal(*procs[i].signal));
        if (const auto why = undecodable_instruction({traced[i]}); !why.empty()) {
            result.error =
                fmt::format("{} was killed by {} from Valgrind: {}", process_label(procs, i),
                            exec::describe_signal(*procs[i].signal), why);
        }
        return;
    }
    if (outcome.unkillable_processes > 0) {
        result.status = BenchStatus::Failed;
        result.error = unkillable_error(outcome.unkillable_processes);
        return;
    }
    // Cachegrind copies a process's counts with it at fork: a child that does not exec holds
    // its parent's work up to the fork as well as its own, and the sum counts that work again
    // for each such child (a pre-forking program is charged its setup per worker).
    const auto forked = std::count_if(procs.begin(), procs.end(), [](const ProcessResult& p) {
        return p.forked && p.counted && p.profiled;
    });
    if (forked > 0) {
        result.warnings.push_back(fmt::format(
            "{} forked process(es) that did not exec are counted: each holds its parent's "
            "counts up to the fork (Valgrind copies them with the process), so what the parent "
            "did before forking is counted again for each; --processes main counts the program "
            "alone",
            forked));
    }
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

}  // namespace

void Measurer::score_processes(const BenchmarkSpec& spec, const RawOutput& raw,
                               BenchmarkResult& result) const {
    if (raw.root_pid == 0) return;  // never started (warm-up timed out)
    const auto traced = traced_processes(raw.files, raw.root_pid);
    auto procs = describe_processes(traced, spec.processes, raw.names, result.exit_code);
    if (procs.size() > 1) result.processes = procs;
    if (result.status == BenchStatus::Timeout || raw.outcome.how == exec::Termination::Limited) {
        const auto running = unprofiled(procs);
        if (!running.empty()) {
            result.error +=
                fmt::format("; {} still running: {}", running.size(), commands_of(procs, running));
        }
        return;
    }
    if (result.status != BenchStatus::Ok) return;

    std::size_t counted = 0;
    for (const auto& p : procs)
        counted += p.counted && p.profiled ? 1 : 0;
    // One counted process: only its top functions are needed. Several: all of each, so that
    // a function's cost is summed over every process before the top ones are picked.
    valgrind::ParseOptions options = top_function_options(settings_.weights);
    if (counted > 1) options = {.collect_functions = true, .collect_lines = true};
    options.watch = repeatability_function;
    valgrind::ProfileSum sum;
    std::vector<ProcessEvidence> evidence;
    std::vector<std::optional<std::size_t>> evidence_index(traced.size());
    for (std::size_t i = 0; i < traced.size(); ++i) {
        if (!procs[i].profiled) continue;
        auto these = procs[i].counted ? options : valgrind::ParseOptions{};
        // The started program's arguments are known: its `cmd:` header spans their lines.
        // Others' are not (nor those of what it exec'd into): theirs ends at the last
        // `events:` line.
        if (runs_started_program(traced[i], raw.root_pid, raw.cmd_program))
            these.cmd_lines = raw.cmd_lines;
        const auto parse = [&] {
            return valgrind::parse_cachegrind_file(traced[i].profile, these);
        };
        valgrind::Profile profile;
        if (i > 0 && raw.outcome.killed_leftovers) {
            // A process still running when the program ended is killed, maybe while it
            // wrote its profile at its own exit: a file cut short is no profile, and its
            // work is not counted (the warning says so), as for one killed before.
            try {
                profile = parse();
            } catch (const valgrind::ParseError&) {
                procs[i].profiled = false;
                continue;
            }
        } else {
            profile = parse_output(parse);
        }
        procs[i].events = profile.totals;
        procs[i].cost = metrics::cost(profile.totals, settings_.weights);
        if (!procs[i].counted) continue;
        evidence_index[i] = evidence.size();
        evidence.push_back({procs[i].command, std::move(profile.watched),
                            procs[i].parent ? evidence_index[*procs[i].parent] : std::nullopt,
                            traced[i].started_ns, traced[i].ended_ns, traced[i].log.threads});
        sum.add(std::move(profile));
    }
    if (procs.size() > 1) result.processes = procs;
    std::vector<bool> counts;
    for (const auto& p : procs)
        counts.push_back(p.counted);
    mark_threads(traced, counts, result);
    check_processes(spec, raw.outcome, traced, result);
    if (result.status != BenchStatus::Ok) return;
    score(sum.profile(), result);
    for (auto& w : repeatability_warnings(evidence, settings_.fixed))
        result.warnings.push_back(std::move(w));
}

}  // namespace cgbench::runner
