#pragma once
// The environment a measured program sees. Environment size and layout move instruction and
// miss counts (measured: one byte more moves Ir by up to 600), so cgbench never passes the
// caller's environment through. It builds a fixed set of variables in a fixed order and pads
// argv+environment to a constant total size, so the program's initial stack sits at the same
// place whatever the CI runner, user name or checkout path.
//
// What the program sees: LANG=C.UTF-8, TZ=UTC, SHELL=/bin/sh (bash looks the user up in the
// passwd database when SHELL is unset), HOME=/nonexistent (the same for every user:
// Python, for one, puts ~/.local on sys.path), PYTHONHASHSEED=0, PERL_HASH_SEED=0 and
// PERL_PERTURB_KEYS=0 (hash order), PYTHONNOUSERSITE=1 (Python's user-site check asks for the
// uid, and a uid above 256 is a new int object: +357 Ir for uid 4242 against uid 0),
// PATH=/usr/local/bin:/usr/bin:/bin (Python decodes PATH at start-up, ~38 Ir per byte), `_`,
// and what --env adds. No USER, LOGNAME or TMPDIR (programs fall back to /tmp).
// `--env HOME` / `--env PATH` pass the caller's value; `--env PATH=...` sets another.
// The program itself is still found through the caller's PATH (exec/program.hpp).

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace cgbench::exec {

// A snapshot of a process environment (name -> value).
using EnvMap = std::map<std::string, std::string>;

// The current process's environment.
EnvMap current_environment();

// A user request: "KEY=VALUE" sets a variable, "KEY" passes the caller's value through.
struct EnvRequest {
    std::string name;
    std::optional<std::string> value;
};

// The variable that chooses the region a Cachegrind region run measures
// (include/cgbench/cgbench.h); cgbench sets it, --env cannot.
inline constexpr std::string_view kRegionVariable = "CGBENCH_REGION";

// Parses one --env argument. Throws UsageError for an invalid name, for the names cgbench
// manages (`_`, its pad, CGBENCH_REGION, CGBENCH_FIXED) and for Valgrind's own variables (VALGRIND_OPTS, VALGRIND_LIB,
// VALGRIND_LAUNCHER: they would change how Valgrind measures, unrecorded).
EnvRequest parse_env_request(const std::string& text);

// The loader and glibc variables among `requests` (LD_*, GLIBC_TUNABLES) as "NAME=VALUE",
// values passed through taken from `caller`: they change what runs, so the run records them.
std::vector<std::string> loader_variables(const std::vector<EnvRequest>& requests,
                                          const EnvMap& caller);

struct EnvironmentSpec {
    std::vector<EnvRequest> requests;  // from --env / suite files, in order
    std::string underscore;            // value of `_`: the program path as run
    std::string glibc_tunables;        // CPU baseline tunables; empty for `native`
    std::vector<std::string> argv;     // the program's argv, counted in the size budget
    // The fixed-inputs library to preload (before one --env sets), and what it fixes
    // (exec/fixed_inputs.hpp); empty: none.
    std::string preload;
    std::string fixed;
};

struct BuiltEnvironment {
    std::vector<std::string> entries;  // "KEY=VALUE", in the order the program sees them
    std::size_t block_bytes = 0;       // argv + environment strings including NULs
    bool over_budget = false;          // too large to pad to the standard size
};

// Total argv+environment bytes cgbench pads to. Larger environments are rounded up to the
// next 4 KiB step and reported, since their counts then depend on their size.
inline constexpr std::size_t kEnvBlockBudget = 8192;

// The PATH the program sees unless --env PATH says otherwise.
inline constexpr std::string_view kFixedPath = "/usr/local/bin:/usr/bin:/bin";

// Builds the environment. Throws UsageError when a pass-through request names a variable
// the caller does not have, or when a reserved name is set.
BuiltEnvironment build_environment(const EnvironmentSpec& spec, const EnvMap& caller);

}  // namespace cgbench::exec
