#pragma once
// The CPU architecture cgbench measures: the one it was built for, since Valgrind runs
// programs of its own architecture. Each pins glibc's choice of string functions its own way:
// x86-64 by masking CPUID features and cache sizes (cpu_baseline.cpp), AArch64 by naming the
// CPU model "generic", which turns off the per-model variants glibc picks from MIDR_EL1.

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>

namespace cgbench::valgrind {

enum class CpuArch { X86_64, AArch64, Other };

// The architecture this cgbench was compiled for.
CpuArch build_arch();

// "x86_64", "aarch64" (as `uname -m` names them; the fingerprint's `arch`), "unknown".
std::string_view arch_name(CpuArch arch);

// AArch64's portable GLIBC_TUNABLES: glibc.cpu.name=generic (MIDR_EL1 read as 0, so no
// thunderx/falkor/kunpeng/a64fx/emag/oryon variant). SVE, MOPS and the DC ZVA block size
// have no tunable: they are recorded in the selection instead (and Valgrind hides SVE).
std::string aarch64_portable_tunables();

// A diagnostics value ("0x1f", or a bare hex number) as a number; stops at the first other
// character.
std::uint64_t diagnostics_hex(std::string_view value);

// `ld.so --list-diagnostics` as key -> value.
using DiagnosticsMap = std::map<std::string, std::string, std::less<>>;

struct GlibcSelection;

// Whether the diagnostics are AArch64's (they hold aarch64.cpu_features.* lines).
bool is_aarch64_diagnostics(const DiagnosticsMap& kv);

// Fills `sel.usable` (SVE MOPS BTI, as set), `sel.preferred` (Prefer_SVE_ifuncs) and
// `sel.tuning` (midr_el1, zva_size, mte_state and the hwcap words glibc saw) from AArch64
// diagnostics. The per-processor lines are left out: they vary with the number of CPUs.
void read_aarch64_selection(const DiagnosticsMap& kv, GlibcSelection& sel);

}  // namespace cgbench::valgrind
