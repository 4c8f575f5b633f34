#include "valgrind/geometry.hpp"

#include <fmt/format.h>

#include "base/errors.hpp"
#include "util/strings.hpp"

namespace cgbench::valgrind {

namespace {

bool is_pow2(std::uint64_t v) {
    return v != 0 && (v & (v - 1)) == 0;
}

constexpr std::string_view kGeometryHint =
    "use --geometry ci-default or I1=SIZE,ASSOC,LINE,D1=...,LL=... (sizes in bytes, "
    "e.g. LL=8388608,16,64)";

// Valgrind parses each field into a signed int; larger values "overflow".
constexpr std::uint64_t kMaxField = 0x7fffffffULL;

CacheSpec parse_spec(std::string_view cache, const std::vector<std::string_view>& fields) {
    CacheSpec spec;
    std::uint64_t* slots[] = {&spec.size, &spec.assoc, &spec.line};
    for (std::size_t i = 0; i < 3; ++i) {
        const auto v = util::parse_u64(util::trim(fields[i]));
        if (!v) {
            throw UsageError(fmt::format("invalid {} geometry: '{}' is not a positive integer",
                                         cache, util::printable(fields[i])),
                             std::string(kGeometryHint));
        }
        *slots[i] = *v;
    }
    const std::string problem = check_cache(spec, build_arch());
    if (!problem.empty()) {
        throw UsageError(fmt::format("invalid {} geometry {}: {}", cache, spec.arg(), problem),
                         std::string(kGeometryHint));
    }
    return spec;
}

}  // namespace

std::string CacheSpec::arg() const {
    return fmt::format("{},{},{}", size, assoc, line);
}

std::vector<std::string> Geometry::valgrind_args() const {
    return {"--I1=" + i1.arg(), "--D1=" + d1.arg(), "--LL=" + ll.arg()};
}

std::string Geometry::describe() const {
    return fmt::format("I1={} D1={} LL={}", i1.arg(), d1.arg(), ll.arg());
}

Geometry ci_default_geometry() {
    return Geometry{"ci-default", {32768, 8, 64}, {32768, 8, 64}, {8388608, 16, 64}};
}

std::uint64_t min_line_size(CpuArch arch) {
    // Valgrind's own minimum is 16, but at start-up it also demands that a line can hold the
    // widest register it emulates: 32 bytes on x86-64 hosts with AVX (nearly all). Requiring
    // 32 on x86-64 keeps a geometry valid on every runner, not just on older hosts. AArch64's
    // widest register Valgrind emulates is 16 bytes (NEON; it has no SVE).
    return arch == CpuArch::X86_64 ? 32 : 16;
}

std::string check_cache(const CacheSpec& s, CpuArch arch) {
    const std::uint64_t min_line = min_line_size(arch);
    if (s.size > kMaxField || s.assoc > kMaxField || s.line > kMaxField) {
        return "a value is too large (Valgrind's limit is 2147483647)";
    }
    if (s.assoc == 0) return "associativity must be at least 1";
    if (s.line == 0 || s.size % (s.line * s.assoc) != 0 || !is_pow2(s.size / s.line / s.assoc)) {
        return "the number of sets (size / (assoc * line)) must be a power of two";
    }
    if (!is_pow2(s.line)) return "the line size must be a power of two";
    if (s.line < min_line) {
        return fmt::format("the line size must be at least {} bytes (the widest register)",
                           min_line);
    }
    if (s.size <= s.line) return "the cache must be larger than one line";
    if (s.assoc > s.size / s.line) return "associativity exceeds size / line";
    return {};
}

Geometry parse_geometry(std::string_view text) {
    Geometry g = ci_default_geometry();
    if (text == "ci-default") return g;
    const auto fields = util::split(text, ',');
    bool any = false;
    for (std::size_t i = 0; i < fields.size();) {
        const auto eq = fields[i].find('=');
        const std::string_view key = util::trim(fields[i].substr(0, eq));
        CacheSpec* target = key == "I1"   ? &g.i1
                            : key == "D1" ? &g.d1
                            : key == "LL" ? &g.ll
                                          : nullptr;
        if (eq == std::string_view::npos || target == nullptr || i + 3 > fields.size()) {
            throw UsageError(fmt::format("invalid geometry '{}'", util::printable(text)),
                             std::string(kGeometryHint));
        }
        *target = parse_spec(key, {fields[i].substr(eq + 1), fields[i + 1], fields[i + 2]});
        any = true;
        i += 3;
    }
    if (!any) {
        throw UsageError(fmt::format("invalid geometry '{}'", util::printable(text)),
                         std::string(kGeometryHint));
    }
    g.name = "custom";
    return g;
}

}  // namespace cgbench::valgrind
