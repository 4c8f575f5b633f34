#include "valgrind/command.hpp"

namespace cgbench::valgrind {

std::vector<std::string> cachegrind_behaviour_args(const CachegrindOptions& o) {
    return {
        "--tool=cachegrind",
        o.cache_sim ? "--cache-sim=yes" : "--cache-sim=no",
        o.branch_sim ? "--branch-sim=yes" : "--branch-sim=no",
        // Threads take turns in a fixed order; no effect on single-threaded programs.
        "--fair-sched=yes",
    };
}

std::vector<std::string> cachegrind_command(const Installation& inst,
                                            const CachegrindOptions& options,
                                            const std::filesystem::path& out_file,
                                            const std::filesystem::path& log_file,
                                            const std::vector<std::string>& program_argv) {
    std::vector<std::string> argv = {inst.launcher.string()};
    for (auto& a : cachegrind_behaviour_args(options)) argv.push_back(std::move(a));
    for (auto& a : options.geometry.valgrind_args()) argv.push_back(std::move(a));
    argv.push_back("--cachegrind-out-file=" + out_file.string());
    argv.push_back("--log-file=" + log_file.string());
    argv.push_back("--");
    argv.insert(argv.end(), program_argv.begin(), program_argv.end());
    return argv;
}

}  // namespace cgbench::valgrind
