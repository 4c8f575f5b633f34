#pragma once
// Simulated cache geometry, pinned so that results do not depend on the host CPU (Cachegrind
// copies the host's caches when --I1/--D1/--LL are not given).

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "valgrind/cpu_arch.hpp"

namespace cgbench::valgrind {

struct CacheSpec {
    std::uint64_t size = 0;  // bytes
    std::uint64_t assoc = 0;
    std::uint64_t line = 0;   // bytes
    std::string arg() const;  // "32768,8,64"
    friend bool operator==(const CacheSpec&, const CacheSpec&) = default;
};

struct Geometry {
    std::string name;  // preset name or "custom"
    CacheSpec i1;
    CacheSpec d1;
    CacheSpec ll;
    // The three Valgrind options, e.g. "--I1=32768,8,64".
    std::vector<std::string> valgrind_args() const;
    // "I1=32768,8,64 D1=32768,8,64 LL=8388608,16,64"
    std::string describe() const;
    friend bool operator==(const Geometry&, const Geometry&) = default;
};

// The "ci-default" preset: the geometry the seed's script, iai-callgrind and CodSpeed pin, the
// same on every architecture (the fingerprint's arch keeps their histories apart).
Geometry ci_default_geometry();

// Parses "ci-default" or "I1=S,A,L,D1=S,A,L,LL=S,A,L" (any subset; caches not named keep the
// ci-default values). Each cache is validated the way Valgrind validates it, so a bad
// geometry fails before anything runs. Throws UsageError.
Geometry parse_geometry(std::string_view text);

// The smallest line size a geometry may have on `arch`: 32 bytes on x86-64 (AVX registers),
// 16 on AArch64 and elsewhere.
std::uint64_t min_line_size(CpuArch arch);

// Valgrind's own checks for one cache on `arch`; empty when valid, otherwise the reason.
std::string check_cache(const CacheSpec& spec, CpuArch arch = build_arch());

}  // namespace cgbench::valgrind
