#include "valgrind/command.hpp"

namespace cgbench::valgrind {

std::string_view to_string(Tool tool) {
    return tool == Tool::Callgrind ? "callgrind" : "cachegrind";
}

std::vector<std::string> behaviour_args(const ToolOptions& o) {
    std::vector<std::string> args = {"--tool=" + std::string(to_string(o.tool))};
    if (o.tool == Tool::Callgrind) {
        // Nothing counts until the first region begins (include/cgbench/cgbench.h), unless
        // dumps at named functions split the run.
        args.emplace_back(o.dump_triggers.empty() ? "--collect-atstart=no"
                                                  : "--collect-atstart=yes");
        args.insert(args.end(), o.dump_triggers.begin(), o.dump_triggers.end());
    }
    args.emplace_back(o.cache_sim ? "--cache-sim=yes" : "--cache-sim=no");
    args.emplace_back(o.branch_sim ? "--branch-sim=yes" : "--branch-sim=no");
    // Threads take turns in a fixed order; no effect on single-threaded programs.
    args.emplace_back("--fair-sched=yes");
    return args;
}

std::vector<std::string> valgrind_command(const Installation& inst, const ToolOptions& options,
                                          const std::filesystem::path& out_file,
                                          const std::filesystem::path& log_file,
                                          const std::vector<std::string>& program_argv) {
    std::vector<std::string> argv = {inst.launcher.string()};
    for (auto& a : behaviour_args(options))
        argv.push_back(std::move(a));
    // Cachegrind always gets the geometry (it is part of every result); Callgrind needs it
    // only when it simulates caches.
    if (options.tool == Tool::Cachegrind || options.cache_sim) {
        for (auto& a : options.geometry.valgrind_args())
            argv.push_back(std::move(a));
    }
    argv.push_back("--" + std::string(to_string(options.tool)) + "-out-file=" + out_file.string());
    argv.push_back("--log-file=" + log_file.string());
    argv.push_back("--");
    argv.insert(argv.end(), program_argv.begin(), program_argv.end());
    return argv;
}

}  // namespace cgbench::valgrind
