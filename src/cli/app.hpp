#pragma once
// The command-line entry point: parse, dispatch to a subcommand, map errors to exit codes.

namespace cgbench::cli {

// Runs cgbench with the given arguments and returns the process exit code. The only place
// that catches cgbench::Error and turns it into a message and an exit code.
int main(int argc, char** argv);

}  // namespace cgbench::cli
