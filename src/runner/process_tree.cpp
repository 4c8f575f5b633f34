#include "runner/process_tree.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <signal.h>
#include <sys/stat.h>

#include <algorithm>
#include <map>

#include "base/errors.hpp"
#include "util/fs.hpp"
#include "util/strings.hpp"

namespace cgbench::runner {

namespace fs = std::filesystem;

namespace {

void replace_all(std::string& text, std::string_view from, std::string_view to) {
    if (from.empty()) return;
    for (auto at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) {
        text.replace(at, from.size(), to);
    }
}

}  // namespace

std::vector<TracedProcess> traced_processes(const valgrind::OutputFiles& files, int root_pid) {
    std::map<int, TracedProcess> by_pid;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(files.dir, ec)) {
        const auto pid = files.log_pid(entry.path().filename().string());
        if (!pid) continue;
        TracedProcess p;
        p.pid = *pid;
        p.log_file = entry.path();
        try {
            p.log = valgrind::parse_process_log(util::read_file(entry.path()));
        } catch (const Error&) {
        }
        if (fs::exists(files.out_file(*pid), ec)) p.profile = files.out_file(*pid);
        struct statx st {};
        if (::statx(AT_FDCWD, entry.path().c_str(), 0, STATX_BTIME | STATX_MTIME, &st) == 0 &&
            (st.stx_mask & STATX_BTIME) != 0) {
            const auto ns = [](const statx_timestamp& t) {
                return static_cast<std::int64_t>(t.tv_sec) * 1'000'000'000 + t.tv_nsec;
            };
            p.started_ns = ns(st.stx_btime);
            p.ended_ns = ns(st.stx_mtime);
        }
        by_pid.emplace(*pid, std::move(p));
    }
    std::map<int, std::vector<int>> children;  // pid order within each parent
    for (const auto& [pid, p] : by_pid) {
        if (pid != root_pid && p.log.parent_pid && by_pid.count(*p.log.parent_pid)) {
            children[*p.log.parent_pid].push_back(pid);
        }
    }
    std::vector<TracedProcess> out;
    std::vector<int> stack;
    if (by_pid.count(root_pid)) stack.push_back(root_pid);
    while (!stack.empty()) {
        const int pid = stack.back();
        stack.pop_back();
        out.push_back(std::move(by_pid.at(pid)));
        by_pid.erase(pid);
        const auto& kids = children[pid];
        stack.insert(stack.end(), kids.rbegin(), kids.rend());
    }
    for (auto& [pid, p] : by_pid)
        out.push_back(std::move(p));  // not reachable from the root
    return out;
}

std::string CommandNames::display(std::string_view command) const {
    std::string out(command);
    replace_all(out, staged, as_given);
    replace_all(out, link, "...");
    return out;
}

std::vector<ProcessResult> describe_processes(const std::vector<TracedProcess>& traced,
                                              ProcessMode mode, const CommandNames& names,
                                              std::optional<int> root_exit_code) {
    std::map<int, std::size_t> index_of;
    std::vector<ProcessResult> out;
    for (std::size_t i = 0; i < traced.size(); ++i) {
        const auto& t = traced[i];
        index_of[t.pid] = i;
        ProcessResult p;
        p.command = names.display(t.log.command);
        if (i > 0 && t.log.parent_pid) {
            if (const auto it = index_of.find(*t.log.parent_pid); it != index_of.end()) {
                p.parent = it->second;
                p.forked = traced[it->second].log.command == t.log.command;
            }
        }
        p.counted = mode == ProcessMode::Tree || i == 0;
        p.profiled = !t.profile.empty();
        p.signal = t.log.fatal_signal;
        if (i == 0 && !p.signal) p.exit_code = root_exit_code;
        out.push_back(std::move(p));
    }
    return out;
}

void mark_threads(const std::vector<TracedProcess>& traced, const std::vector<bool>& counted,
                  BenchmarkResult& result) {
    int most = 0;
    int preemptions = 0;
    for (std::size_t i = 0; i < traced.size(); ++i) {
        if (!counted.empty() && (i >= counted.size() || !counted[i])) continue;
        most = std::max(most, traced[i].log.threads);
        if (traced[i].log.threads > 1) preemptions += traced[i].log.preemptions;
    }
    result.threads = most;
    if (most <= 1) return;
    if (preemptions > 0) {
        result.warnings.push_back(fmt::format(
            "ran {} threads, and Valgrind switched between them {} time(s) mid-work, in an "
            "order the host's scheduler chose: these counts are not repeatable (a gate on them "
            "can fire by chance; see --verify)",
            most, preemptions));
        return;
    }
    result.warnings.push_back(fmt::format(
        "ran {} threads: which one runs after another waits (a lock, a join, a system call) "
        "is the kernel's choice, so these counts are not repeatable (a gate on them can fire "
        "by chance; see --verify)",
        most));
}

std::string undecodable_instruction(const std::vector<TracedProcess>& traced) {
    for (const auto& p : traced) {
        if (!p.log.unhandled_instruction.empty()) {
            return "Valgrind cannot run an instruction of " + util::printable(p.log.command) +
                   ": " + valgrind::describe_unhandled_instruction(p.log.unhandled_instruction);
        }
    }
    return {};
}

std::string unkillable_error(int count) {
    return fmt::format(
        "left {} process(es) running that cgbench may not kill (a setuid program it started?); "
        "they were not waited for, and run on; without namespaces cgbench cannot stop what "
        "runs as another user (allow user namespaces: docs/sandbox.md)",
        count);
}

bool is_crash_signal(int signo) {
    switch (signo) {
        case SIGSEGV:
        case SIGBUS:
        case SIGILL:
        case SIGFPE:
        case SIGABRT:
        case SIGSYS:
        case SIGTRAP:
            return true;
        default:
            return false;
    }
}

std::string process_label(const std::vector<ProcessResult>& processes, std::size_t index) {
    return fmt::format("process {} ({})", index + 1, util::printable(processes[index].command));
}

}  // namespace cgbench::runner
