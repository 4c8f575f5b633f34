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
    const char* program_dir = nullptr;   // bound at /cgbench/<program_name>
    const char* program_name = nullptr;
    const char* tree = nullptr;          // bound at /cgbench/tree
    const char* out_dir = nullptr;       // bound at /cgbench/out, writable
    const unsigned char* library = nullptr;  // the fixed-inputs library, written to
    std::size_t library_size = 0;            // /cgbench/lib/libcgbench-fixed.so
    bool fixed_random = false;  // /dev/urandom and /dev/random read a seeded stream
    int sync_fd = -1;           // cgbench writes one byte here once the id maps are written
};

// Where the fixed-inputs library is in the sandbox.
inline constexpr const char* kSandboxLibrary = "/cgbench/lib/libcgbench-fixed.so";

// Starts a child in new user, pid, mount and uts namespaces; fork semantics (0 in the child,
// its pid in the parent, -1 with errno). The child is pid 1 of its pid namespace.
pid_t clone_sandboxed();

// cgbench's half: maps the caller to uid/gid 0 in `child`'s user namespace (root maps every
// id onto itself). False with errno set when the kernel refuses.
bool write_id_maps(pid_t child);

// The child's half: waits for the id maps, then builds the new root and enters it (the
// working directory is its "/"). Returns 0, or the errno of the first step that failed with
// `*step` naming it. `*own_proc` says whether /proc is the pid namespace's own.
int enter_sandbox(const SandboxSetup& setup, const char** step, bool* own_proc);

}  // namespace cgbench::exec
