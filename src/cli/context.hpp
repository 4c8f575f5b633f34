#pragma once
// What every subcommand's action is given: the facts of the process cgbench runs in, read
// once in cli::main after parsing (and after the working directory was checked), the global
// options and the one process runner. Commands take these from the context, never from the
// process themselves, so each is read once and a command's inputs are in one place.

#include <ctime>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "exec/environment.hpp"
#include "exec/process.hpp"

namespace cgbench::cli {

// The options every command takes, before or after its name (add_global_flags).
struct GlobalOptions {
    bool quiet = false;
    int verbose = 0;
    // The arguments after the first "--" on the command line, which cgbench never parses
    // (for `run`: the program and its arguments). Empty optional: there was no "--".
    std::optional<std::vector<std::string>> after_dashes;
};

// The time now, in seconds since the epoch.
using Clock = std::function<std::time_t()>;

// Everything a command's action reads from outside its own options (see the top).
struct Context {
    GlobalOptions global;         // -q, -v and the arguments after "--"
    exec::EnvMap env;             // the caller's environment
    std::filesystem::path cwd;    // the working directory
    exec::ProcessRunner& runner;  // every process a command starts (git, Valgrind, builds)
    bool color = false;           // stdout is a terminal that takes colour
    Clock now;                    // for what a command dates (a page) or ages (prune)

    // -v or more was given.
    bool verbose() const { return global.verbose > 0; }
};

// The context of this process: its environment and working directory (which must exist),
// whether stdout takes colour (a terminal, NO_COLOR unset or empty, TERM not dumb), the
// system clock, with `global` and `runner`.
Context process_context(const GlobalOptions& global, exec::ProcessRunner& runner);

}  // namespace cgbench::cli
