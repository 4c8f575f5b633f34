#pragma once
// The measured program's private view of the machine. Where the kernel allows it (an
// unprivileged user namespace, or root's), every run gets namespaces of its own:
//
// - user: the caller is uid 0, gid 0 ("root", first in every /etc/passwd) inside, whoever
//   runs cgbench, so programs that look their user up (bash without SHELL, sqlite3, Python's
//   user site) do the same work for every user. Only that one id is mapped, for root too, so
//   the machine's files appear owned by the overflow id (65534) for every caller (Python
//   makes an int object for each id above 256 it stats: +7,168 Ir for `python3 -c pass`
//   when root saw them as 0). Root's sandbox maps 0 to the owner of the project's tree, or to
//   kRootOuterId when root owns it; root's own files (the tree, its programs, Valgrind's
//   output) are then id-mapped mounts that show them as uid 0 and keep them writable;
// - pid: the program is pid 2 (the keeper is pid 1), in every run; /proc is the namespace's;
// - uts: the host name is "cgbench";
// - mount: a root of its own (a private tmpfs holding binds of the machine's top-level
//   directories), with cgbench's staging at /cgbench, which nothing outside can see:
//     /cgbench/<P>/DIR/NAME   the program (<P> binds its grandparent directory; "<P>/DIR" is
//                             always kStagedDirChars characters, as in exec/program.hpp)
//     /cgbench/tree           the project: the git checkout holding the working directory
//                             (its top level), or the working directory itself outside git
//     /cgbench/out            Valgrind's output directory (the host's private OutputDir)
//   The program starts in its working directory's place under /cgbench/tree, and arguments
//   naming files of the tree are passed by their /cgbench/tree path, so a script, its data
//   files, getcwd() and sys.path[0] read the same in every checkout and in cgbench-pr's base
//   worktree.
// Valgrind runs inside. Nothing is shared between runs or users, so nothing another user
// does can stop, slow or change a run; when the keeper (pid 1) ends, the kernel kills every
// process in the namespace, so nothing outlives the measurement.
//
// Where namespaces are refused (Docker's default seccomp profile, Ubuntu's AppArmor rule for
// unprivileged user namespaces, a kernel without them), programs run from the caller's
// private staging directory (exec/staging.hpp) and the isolation says what still leaks.

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "exec/program.hpp"

namespace cgbench::exec {

inline constexpr std::string_view kSandboxStaging = "/cgbench";
inline constexpr std::string_view kSandboxTree = "/cgbench/tree";
inline constexpr std::string_view kSandboxOut = "/cgbench/out";
inline constexpr std::string_view kSandboxHostName = "cgbench";

// How runs are isolated on this machine, found once per process by setting a sandbox up.
struct Isolation {
    bool namespaces = false;
    bool own_proc = false;  // the pid namespace has a /proc of its own (else the host's)
    std::string refused;    // without namespaces: the step the kernel refused and why
    // Root where id-mapped mounts are refused: root's ids map onto themselves, and the
    // machine's files show as root's (counts differ from another user's).
    bool root_identity = false;
    // For the fingerprint: "namespaces (uid 0, pid 2, /cgbench)" or what stands instead.
    std::string describe() const;
    // The run warning when namespaces are refused: what still reaches the counts. Empty
    // with namespaces.
    std::string warning() const;
};

// The isolation of this process's runs (probed on first use; thread-safe).
const Isolation& isolation();

// What opt-in determinism a run asks for (--fixed-clock, --fixed-random).
struct FixedInputs {
    bool clock = false;
    bool random = false;
    bool any() const { return clock || random; }
    // "clock", "random", "clock, random" or "".
    std::string describe() const;
};

// What the keeper sets up in the namespaces of one run (host paths).
struct SandboxMounts {
    std::filesystem::path program_dir;  // bound at /cgbench/<program_name>
    std::string program_name;
    std::filesystem::path tree;     // bound at /cgbench/tree
    std::filesystem::path out_dir;  // bound at /cgbench/out, writable
    FixedInputs fixed;              // the library (and, with random, the seeded devices)
    // Whose ids become 0 inside and how root's parts are mounted (SandboxGrant).
    bool identity = false;
    unsigned uid = 0, gid = 0;
    bool handover = false, idmap_program = false, idmap_tree = false, idmap_tops = false;
};

// One run's view: where the program, its working directory and its files are, as the
// program sees them. Without namespaces the program is staged through a ProgramLink and
// everything else is the host's.
class RunSandbox {
  public:
    // `out_dir`: the measurement's private Valgrind output directory. Throws as
    // StagedProgram without namespaces.
    RunSandbox(const ResolvedProgram& program, const std::filesystem::path& cwd,
               const std::filesystem::path& out_dir, FixedInputs fixed);
    RunSandbox(const RunSandbox&) = delete;
    RunSandbox& operator=(const RunSandbox&) = delete;

    // The path the program runs by, and the prefix of it that messages hide ("...").
    const std::filesystem::path& program_path() const { return program_path_; }
    const std::filesystem::path& link() const { return link_; }
    // The working directory as the program sees it.
    const std::string& cwd() const { return cwd_; }
    // `args` (the program's arguments) with each one that names a file or directory of the
    // tree (by an absolute path, or a relative one with a '/' or naming a regular file)
    // given by its /cgbench/tree path; a relative path leaving the tree becomes absolute.
    // Unchanged without namespaces.
    std::vector<std::string> map_arguments(const std::vector<std::string>& args) const;
    // `command` with the host output directory replaced by /cgbench/out wherever it occurs
    // (Valgrind's --log-file, a Google Benchmark report). Unchanged without namespaces.
    std::vector<std::string> map_output(std::vector<std::string> command) const;
    // The mounts for ProcessSpec::sandbox; nullopt without namespaces.
    std::optional<SandboxMounts> mounts() const;
    // The LD_PRELOAD value that loads the fixed-inputs library, "" when none is asked for.
    std::string preload() const;

  private:
    std::optional<StagedProgram> staged_;
    std::optional<SandboxMounts> mounts_;
    std::filesystem::path program_path_;
    std::filesystem::path link_;
    std::filesystem::path host_cwd_;
    std::string cwd_;
    FixedInputs fixed_;
};

// The project tree of working directory `cwd`: the nearest directory holding `.git` (a
// checkout or a worktree), else `cwd` itself.
std::filesystem::path project_tree(const std::filesystem::path& cwd);

// The name <P> of the program's grandparent under /cgbench for a program whose parent
// directory is named `parent` ("" for a program whose grandparent is its parent): "program"
// padded with '_' so that "<P>/DIR" is kStagedDirChars characters.
std::string sandbox_program_name(std::string_view parent);

}  // namespace cgbench::exec
