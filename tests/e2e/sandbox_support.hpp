#pragma once
// Support for the sandbox tests (test_sandbox_e2e.cpp, test_hardening_sandbox_e2e.cpp): local
// users made inside a private mount namespace, cgbench run where the kernel refuses user
// namespaces, and the events and fingerprint of a run.

#include <sys/types.h>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "e2e/hardening.hpp"
#include "e2e/harness.hpp"

namespace cgbench::e2e {

// Why the kernel refuses this process a user and mount namespace (a chroot, a container's
// seccomp profile, user.max_user_namespaces=0), or nothing when it grants them. Asked of the
// kernel in a child process, not of cgbench, so a broken sandbox still fails its tests.
std::optional<std::string> kernel_refuses_namespaces();

// For a test that needs cgbench's sandbox: skips it, with the reason, where the kernel has none.
#define CGBENCH_NEEDS_NAMESPACES()                                                 \
    do {                                                                           \
        if (const auto why_refused = ::cgbench::e2e::kernel_refuses_namespaces())  \
            GTEST_SKIP() << "the kernel refuses namespaces here (" << *why_refused \
                         << "), so cgbench runs without its sandbox";              \
    } while (false)

// Users the tests create: last in the passwd file, like a user added after installation.
inline constexpr uid_t kVictimUid = 4301;
inline constexpr uid_t kAttackerUid = 4302;

// In a process that runs in a private mount namespace (in_private_tmpfs): puts copies of
// /etc/passwd and /etc/group with the users `cgb-victim` (kVictimUid) and `cgb-attacker`
// (kAttackerUid) appended over the real ones, in this namespace only. `scratch` is a
// directory of the namespace's own tmpfs to keep the copies in. Returns "" or what failed.
std::string add_test_users(const fs::path& scratch);

// A directory `path` (created, with its parents) owned by `uid` with mode `mode`.
bool make_owned_dir(const fs::path& path, uid_t uid, mode_t mode);

// The first benchmark's events and the fingerprint key of a `--format json` run's output;
// empty when the run failed or printed no document.
struct RunFacts {
    int exit_code = -1;
    nlohmann::json events;
    std::string key;
    std::string isolation;
    std::vector<std::string> warnings;  // the run's and the first benchmark's
    std::string err;
};
RunFacts run_facts(const Spawned& run);

// `cgbench run --no-db -q --format json ARGS...` spawned as `spawn` says.
RunFacts measure(const std::vector<std::string>& run_args, const Spawn& spawn = {});

// The same, through tests/programs/no_namespaces: the kernel refuses the user namespace.
RunFacts measure_without_namespaces(const std::vector<std::string>& run_args,
                                    const Spawn& spawn = {});

// The dynamic loader's cache (/etc/ld.so.cache) as it is now: its inode, size and time.
// Installing or removing a package with shared libraries rewrites it, and every dynamically
// linked program's counts move with it (ld.so's binary search of the cache: -40 Ir for
// `bash -c` after three packages were installed), on a shared machine at any moment.
std::string loader_cache_identity();

// Runs `body` (measurements compared with one another) again, up to 3 times in all, while the
// loader's cache changed during it: the comparison holds for one state of the machine.
template <class F>
auto with_unchanged_loader_cache(F body) -> decltype(body()) {
    for (int attempt = 1;; ++attempt) {
        const std::string before = loader_cache_identity();
        auto result = body();
        if (attempt == 3 || loader_cache_identity() == before) return result;
    }
}

// Whether any of `warnings` holds `text`.
bool mentions(const std::vector<std::string>& warnings, const std::string& text);

}  // namespace cgbench::e2e
