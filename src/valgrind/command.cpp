#include "valgrind/command.hpp"

#include <fmt/format.h>

#include "base/errors.hpp"
#include "util/strings.hpp"

namespace cgbench::valgrind {

namespace fs = std::filesystem;

std::string_view to_string(Tool tool) {
    return tool == Tool::Callgrind ? "callgrind" : "cachegrind";
}

RegionTool parse_region_tool(std::string_view text) {
    for (const auto t : {RegionTool::Auto, RegionTool::Cachegrind, RegionTool::Callgrind}) {
        if (to_string(t) == text) return t;
    }
    throw UsageError(fmt::format("invalid region tool '{}'", util::printable(text)),
                     "give auto (Cachegrind on Valgrind 3.22 and later, else Callgrind), "
                     "cachegrind or callgrind");
}

std::string_view to_string(RegionTool tool) {
    switch (tool) {
        case RegionTool::Cachegrind:
            return "cachegrind";
        case RegionTool::Callgrind:
            return "callgrind";
        case RegionTool::Auto:
            break;
    }
    return "auto";
}

Tool region_tool(RegionTool choice, const Installation& inst) {
    const bool can = inst.at_least(kCachegrindRegionsMajor, kCachegrindRegionsMinor);
    if (choice == RegionTool::Callgrind || (choice == RegionTool::Auto && !can)) {
        return Tool::Callgrind;
    }
    if (!can) {
        throw EnvironmentError(
            fmt::format("region tool cachegrind needs Valgrind {}.{} or later (this is {})",
                        kCachegrindRegionsMajor, kCachegrindRegionsMinor, inst.version),
            "use --region-tool auto or callgrind, or install a newer Valgrind");
    }
    return Tool::Cachegrind;
}

std::vector<std::string> behaviour_args(const ToolOptions& o) {
    std::vector<std::string> args = {"--tool=" + std::string(to_string(o.tool))};
    // Regions under Cachegrind: nothing is simulated until the program's start request.
    if (o.tool == Tool::Cachegrind && !o.instr_at_start) args.emplace_back("--instr-at-start=no");
    if (o.tool == Tool::Callgrind) {
        // Nothing counts until the first region begins (include/cgbench/cgbench.h), unless
        // dumps at named functions split the run.
        args.emplace_back(o.dump_triggers.empty() && !o.collect_at_start ? "--collect-atstart=no"
                                                                         : "--collect-atstart=yes");
        args.insert(args.end(), o.dump_triggers.begin(), o.dump_triggers.end());
    }
    args.emplace_back(o.cache_sim ? "--cache-sim=yes" : "--cache-sim=no");
    args.emplace_back(o.branch_sim ? "--branch-sim=yes" : "--branch-sim=no");
    // Threads take turns round-robin instead of racing for Valgrind's lock. This does not make
    // a multi-threaded program's counts repeat (measured: bench/threads.sh, 10 of 10 runs
    // differ; no scheduler option does), and such results are marked (`threads`); single-
    // threaded programs are not affected.
    args.emplace_back("--fair-sched=yes");
    args.emplace_back("--trace-children=yes");
    return args;
}

fs::path OutputFiles::out_file(int pid) const {
    return dir / fmt::format("{}.out.{}", to_string(tool), pid);
}

fs::path OutputFiles::log_file(int pid) const {
    return dir / fmt::format("{}{}", kLogPrefix, pid);
}

std::string OutputFiles::out_template() const {
    return (dir / fmt::format("{}.out.%p", to_string(tool))).string();
}

std::string OutputFiles::log_template() const {
    return (dir / fmt::format("{}%p", kLogPrefix)).string();
}

namespace {

std::optional<int> pid_after(std::string_view name, std::string_view prefix) {
    if (!name.starts_with(prefix) || name.size() == prefix.size()) return std::nullopt;
    int pid = 0;
    for (const char c : name.substr(prefix.size())) {
        if (c < '0' || c > '9' || pid > 100000000) return std::nullopt;
        pid = pid * 10 + (c - '0');
    }
    return pid;
}

}  // namespace

std::optional<int> OutputFiles::log_pid(std::string_view file_name) const {
    return pid_after(file_name, kLogPrefix);
}

std::optional<int> OutputFiles::out_pid(std::string_view file_name) const {
    return pid_after(file_name, fmt::format("{}.out.", to_string(tool)));
}

std::vector<std::string> valgrind_command(const Installation& inst, const ToolOptions& options,
                                          const OutputFiles& files,
                                          const std::vector<std::string>& program_argv) {
    // Only this command line configures Valgrind: no ~/.valgrindrc, ./.valgrindrc or
    // VALGRIND_OPTS of whoever runs cgbench.
    std::vector<std::string> argv = {inst.launcher.string(), "--command-line-only=yes"};
    for (auto& a : behaviour_args(options))
        argv.push_back(std::move(a));
    // Cachegrind always gets the geometry (it is part of every result); Callgrind needs it
    // only when it simulates caches.
    if (options.tool == Tool::Cachegrind || options.cache_sim) {
        for (auto& a : options.geometry.valgrind_args())
            argv.push_back(std::move(a));
    }
    argv.push_back("--" + std::string(to_string(options.tool)) +
                   "-out-file=" + files.out_template());
    argv.push_back("--log-file=" + files.log_template());
    // The log then names every thread a process starts (process_log.hpp): how cgbench knows a
    // result came from several threads and is not repeatable. It prints to the log only; the
    // counts are the same with and without it.
    argv.push_back("--trace-sched=yes");
    // No gdbserver: it makes a file /tmp/vgdb-pipe-*-<pid>-by-<user>-on-<host> in the shared
    // /tmp, and in the sandbox every program is pid 2, so two runs at once would collide
    // (another user's file made a run fail). It serves debuggers only; counts do not change.
    argv.push_back("--vgdb=no");
    argv.push_back("--");
    argv.insert(argv.end(), program_argv.begin(), program_argv.end());
    return argv;
}

}  // namespace cgbench::valgrind
