#pragma once
// Finding the program to measure and giving it a path whose length does not depend on where
// the project is checked out. Measured here: `./prog` and `/a/long/checkout/path/prog` (same
// binary) give different counts, because the path lands on the program's initial stack.
//
// The program runs as /tmp/cgbench/<H>/<parent-dir-name>/<file-name>, where <H> is a link to
// the program's grandparent directory (exec/staging.hpp: the same path in every run, job and
// for every user), padded with '_' so that "<H>/<parent-dir-name>" is always kStagedDirChars
// characters long (parent names up to 47 characters): the same binary under build/ and under
// cmake-build-release/ runs by paths of one length (measured before: up to +383 cost).
// The last two path components are kept on purpose:
// argv[0] still names the program (busybox-style dispatch works), and lexical lookups one or
// two levels up still land in the real tree (a Python venv finds ../pyvenv.cfg, a tool finds
// ../share/...), while the length no longer depends on the checkout location.

#include <filesystem>
#include <string>

#include "exec/environment.hpp"
#include "exec/staging.hpp"

namespace cgbench::exec {

// The length of "<link name>/<parent-dir-name>" in the staged path (when the parent's name
// leaves room for the link's 16 hex digits).
inline constexpr std::size_t kStagedDirChars = 64;

struct ResolvedProgram {
    std::string as_given;        // what the user typed: "./prog", "python3"
    std::filesystem::path path;  // absolute; the last component's symlinks kept
};

// Resolves `name` like execvp: with a '/' relative to `cwd`, otherwise through the caller's
// PATH. Throws UsageError (exit 2) when it is missing, a directory or not executable.
ResolvedProgram resolve_program(const std::string& name, const std::filesystem::path& cwd,
                                const EnvMap& caller);

// The program made reachable by its fixed-length path while the object lives.
class StagedProgram {
  public:
    // Throws EnvironmentError when the link cannot be made.
    explicit StagedProgram(const ResolvedProgram& program);
    // The path to run the program by: <link>/<parent-dir-name>/<file-name>.
    const std::filesystem::path& path() const { return path_; }
    // The link, "/tmp/cgbench/<H>", a prefix of path().
    const std::filesystem::path& link() const { return link_.path(); }

  private:
    ProgramLink link_;
    std::filesystem::path path_;
};

// Looks `name` up in a PATH string like execvp does; empty when not found.
std::filesystem::path search_path(const std::string& name, const std::string& path_var);

// A regular file the caller may execute.
bool is_executable_file(const std::filesystem::path& path);

// The directory the link of `program` points to: its grandparent (its parent for a program
// in the root directory), with the parent resolved.
std::filesystem::path link_target(const ResolvedProgram& program);

}  // namespace cgbench::exec
