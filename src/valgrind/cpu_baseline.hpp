#pragma once
// The CPU that glibc believes it runs on. Valgrind shows the program a canned CPUID chosen by
// host class (3.19: Haswell for AVX2 hosts, Sandy Bridge, i5-670, Opteron) and glibc picks
// its memcpy/strlen/... variants from it, so the same binary counts differently on different
// hosts. `portable` masks every feature glibc can be told to ignore and pins its cache-size
// tuning to the simulated geometry, so every x86-64 host class runs the same SSE2 code;
// `native` leaves glibc's choice alone.

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "exec/environment.hpp"
#include "exec/process.hpp"
#include "util/probe_cache.hpp"
#include "valgrind/cpu_arch.hpp"
#include "valgrind/geometry.hpp"
#include "valgrind/installation.hpp"

namespace cgbench::valgrind {

enum class CpuBaseline { Portable, Native };

// Parses "portable" or "native"; throws UsageError otherwise.
CpuBaseline parse_cpu_baseline(std::string_view text);
std::string_view to_string(CpuBaseline b);

// The version of the system's glibc ("2.41"), which the measured programs run on: the one
// cgbench runs on, or for a static cgbench the one its loader names. Read once.
std::string system_glibc_version();

// The GLIBC_TUNABLES value for a baseline (empty for native) on glibc `glibc_version` and
// `arch`. x86-64: glibc >= 2.33 names; from 2.40 on also pins memset's non-temporal
// threshold. AArch64: the generic CPU model. Another architecture: nothing to pin (empty).
std::string glibc_tunables_for(CpuBaseline baseline, const Geometry& geometry,
                               std::string_view glibc_version = system_glibc_version(),
                               CpuArch arch = build_arch());

// What glibc selected, as read from `ld.so --list-diagnostics` under Valgrind (x86-64's or
// AArch64's keys).
struct GlibcSelection {
    bool available = false;     // false when the probe could not run (glibc < 2.33, ...)
    std::string glibc_version;  // "2.36"
    std::string platform;       // dl_platform: "haswell", "x86_64", ...
    std::string usable;         // maskable CPU features glibc may use: "SSE2 SSSE3 AVX2 ..."
    std::string preferred;      // preference bits that are set: "Fast_Rep_String ..."
    std::string tuning;         // cache sizes and string-op thresholds glibc derived
    std::string id;             // hash of all of the above: equal ids, equal selection
};

// Parses the diagnostics text (pure; for tests).
GlibcSelection parse_diagnostics(std::string_view text);

// Runs the probe with `env` (the benchmark's environment) under `inst`, cached by Valgrind,
// ld.so, host CPU and tunables.
GlibcSelection probe_glibc_selection(const Installation& inst, const std::vector<std::string>& env,
                                     const util::ProbeCache& cache, exec::ProcessRunner& runner);

// The path of the dynamic loader cgbench itself runs with (PT_INTERP), e.g.
// /lib64/ld-linux-x86-64.so.2; for a static build, the system's loader for this
// architecture, which the measured programs use (empty when there is none).
std::string dynamic_loader_path();

}  // namespace cgbench::valgrind
