#pragma once
// Setting the sandbox of exec/sandbox.hpp up: the namespaces, the id maps and the new root.
// The child's half runs after a fork-like clone of a multi-threaded cgbench, so it makes only
// async-signal-safe calls (system calls on prepared strings, no allocation).

#include <sys/types.h>

#include <cstddef>

namespace cgbench::exec {

// What the keeper builds in its namespaces, prepared before the clone. Paths are the host's,
// absolute and canonical; nullptr leaves a part out.
struct SandboxSetup {
    const char* program_dir = nullptr;  // bound at /cgbench/<program_name>
    const char* program_name = nullptr;
    const char* tree = nullptr;              // bound at /cgbench/tree
    const char* out_dir = nullptr;           // bound at /cgbench/out, writable
    const unsigned char* library = nullptr;  // the fixed-inputs library, written to
    std::size_t library_size = 0;            // /cgbench/lib/libcgbench-fixed.so
    bool fixed_random = false;               // /dev/urandom and /dev/random read a seeded stream
    int sync_fd = -1;  // cgbench sends one byte here once the id maps are written (a socket:
                       // with it come the mounts cgbench made, SandboxGrant::handover)
};

// The outer id a root caller's sandbox maps to uid/gid 0 when the project's tree is root's:
// one no account uses, so that the machine's files, owned by root, appear owned by the
// overflow id (65534) inside, as they do for every other caller.
inline constexpr unsigned kRootOuterId = 65533;

// cgbench's half, prepared before the clone: whose ids become 0 inside, and (root) the
// mounts cgbench clones itself and hands over. Paths are the host's; nullptr leaves one out.
struct SandboxGrant {
    bool identity = false;  // root without id-mapped mounts: every id onto itself
    unsigned uid = 0;       // the outer uid and gid of uid/gid 0 inside
    unsigned gid = 0;
    // Root: the parts are cloned here (open_tree) and sent with the go byte, since the
    // keeper, no longer root outside, may not reach them (/root, /tmp/cgbench-0 are 0700).
    // An id-mapped part shows root's files as the sandbox's uid 0 (and writes them as root).
    bool handover = false;
    const char* program_dir = nullptr;
    bool idmap_program = false;
    const char* tree = nullptr;
    bool idmap_tree = false;
    const char* out_dir = nullptr;  // always id-mapped
    // Root's tree: the top-level directories that may hold root's files (/root, /home, /tmp,
    // a CI workspace; not /usr, /etc, /var, ...) are id-mapped too, so what root's program
    // wrote there before stays its own.
    bool idmap_tops = false;
};

// Where the fixed-inputs library is in the sandbox.
inline constexpr const char* kSandboxLibrary = "/cgbench/lib/libcgbench-fixed.so";

// Starts a child in new user, pid, mount and uts namespaces; fork semantics (0 in the child,
// its pid in the parent, -1 with errno). The child is pid 1 of its pid namespace.
pid_t clone_sandboxed();

// cgbench's half: writes `child`'s id maps as `grant` says, makes and sends the mounts it
// hands over, and lets the child go ('M'; 'X' when a step failed). Returns 0, or the errno of
// the first step that failed with `*step` naming it.
int grant_sandbox(pid_t child, int sync_fd, const SandboxGrant& grant, const char** step);

// The child's half: waits for the id maps, then builds the new root and enters it (the
// working directory is its "/"). Returns 0, or the errno of the first step that failed with
// `*step` naming it. `*own_proc` says whether /proc is the pid namespace's own.
int enter_sandbox(const SandboxSetup& setup, const char** step, bool* own_proc);

}  // namespace cgbench::exec
