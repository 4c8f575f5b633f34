#pragma once
// Finding the program to measure and giving it a path whose length does not depend on where
// the project is checked out. Measured here: `./prog` and `/a/long/checkout/path/prog` (same
// binary) give different counts, because the path lands on the program's initial stack.
//
// The program runs as <staging>/r/<parent-dir-name>/<file-name>, where `r` is a symlink to
// the program's grandparent directory. The last two path components are kept on purpose:
// argv[0] still names the program (busybox-style dispatch works), and lexical lookups one or
// two levels up still land in the real tree (a Python venv finds ../pyvenv.cfg, a tool finds
// ../share/...), while the length no longer depends on the checkout location.

#include <filesystem>
#include <string>

#include "exec/environment.hpp"

namespace cgbench::exec {

struct ResolvedProgram {
    std::string as_given;        // what the user typed: "./prog", "python3"
    std::filesystem::path path;  // absolute; the last component's symlinks kept
};

// Resolves `name` like execvp: with a '/' relative to `cwd`, otherwise through the caller's
// PATH. Throws UsageError (exit 2) when it is missing, a directory or not executable.
ResolvedProgram resolve_program(const std::string& name, const std::filesystem::path& cwd,
                                const EnvMap& caller);

// Creates the `r` link inside `staging` and returns the path to run the program by.
std::filesystem::path stage_program(const ResolvedProgram& program,
                                    const std::filesystem::path& staging);

}  // namespace cgbench::exec
