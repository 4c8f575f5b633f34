#pragma once
// What every subcommand shares: global options, output helpers, the registration shape.

#include <functional>
#include <string>

namespace CLI {
class App;
}

namespace cgbench::cli {

struct GlobalOptions {
    bool quiet = false;
    int verbose = 0;
};

// A registered subcommand's action, run after parsing succeeded; returns the exit code.
using Action = std::function<int()>;

struct Subcommand {
    CLI::App* app;
    Action action;
};

// True when stdout is a terminal and colour is allowed (NO_COLOR unset, TERM not dumb).
bool color_on_stdout();

// Prints a one-line warning to stderr ("cgbench: warning: ...").
void warn(const std::string& message);

// Help text shared by all subcommands: the exit codes.
std::string exit_code_help();

// Registers `cgbench run`.
Subcommand register_run(CLI::App& app, const GlobalOptions& global);

}  // namespace cgbench::cli
