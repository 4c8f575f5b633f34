#pragma once
// Finding Valgrind. Debian's /usr/bin/valgrind is a shell wrapper that injects
// LD_LIBRARY_PATH, GLIBCXX_FORCE_NEW and PWD, which makes counts depend on the working
// directory; cgbench runs the real binary next to it (valgrind.bin) instead.

#include <filesystem>
#include <string>
#include <tuple>

#include "exec/environment.hpp"
#include "exec/process.hpp"
#include "util/probe_cache.hpp"

namespace cgbench::valgrind {

struct Installation {
    std::filesystem::path launcher;  // what cgbench executes
    std::filesystem::path found;     // what PATH / CGBENCH_VALGRIND named
    bool bypassed_wrapper = false;   // launcher is the real binary behind a wrapper script
    bool is_wrapper = false;         // launcher itself is a script (could not bypass)
    std::string version;             // "3.19.0"

    // Whether `version` is at least major.minor, for feature checks (a part without digits counts as 0).
    bool at_least(int major, int minor) const;
};

// Locates Valgrind via $CGBENCH_VALGRIND or PATH (from `caller`) and asks its version (cached
// by the binary's identity). Throws EnvironmentError (exit 4) with the install hint when it
// is missing or does not run.
Installation locate_valgrind(const exec::EnvMap& caller, exec::ProcessRunner& runner,
                             const util::ProbeCache& cache = util::ProbeCache());

}  // namespace cgbench::valgrind
