#pragma once
// What every subcommand shares: global options, output helpers, the registration shape.

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace cgbench::cli {

struct GlobalOptions {
    bool quiet = false;
    int verbose = 0;
    // The arguments after the first "--" on the command line, which cgbench never parses
    // (for `run`: the program and its arguments). Empty optional: there was no "--".
    std::optional<std::vector<std::string>> after_dashes;
};

// A registered subcommand's action, run after parsing succeeded; returns the exit code.
using Action = std::function<int()>;

struct Subcommand {
    CLI::App* app;
    Action action;
};

// Adds -q/-v to `app`. Every subcommand calls it too, so the flags work before or after the
// subcommand name (CLI11's fallthrough would break `run`'s pass-through of program args).
void add_global_flags(CLI::App& app, GlobalOptions& global);

// True when stdout is a terminal and colour is allowed (NO_COLOR unset, TERM not dumb).
bool color_on_stdout();

// Prints a one-line warning to stderr ("cgbench: warning: ...").
void warn(const std::string& message);

// Help text shared by all subcommands: the exit codes.
std::string exit_code_help();

// Registers `cgbench run`.
Subcommand register_run(CLI::App& app, GlobalOptions& global);

// Registers `cgbench annotate`.
Subcommand register_annotate(CLI::App& app, GlobalOptions& global);

}  // namespace cgbench::cli
