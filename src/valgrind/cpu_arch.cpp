#include "valgrind/cpu_arch.hpp"

#include <fmt/format.h>

#include "util/strings.hpp"
#include "valgrind/cpu_baseline.hpp"

namespace cgbench::valgrind {

namespace {

constexpr std::string_view kPrefix = "aarch64.cpu_features.";

// Features glibc's AArch64 ifuncs test, by their diagnostics key.
struct Flag {
    std::string_view key;
    std::string_view name;
};
constexpr Flag kUsable[] = {{"sve", "SVE"}, {"mops", "MOPS"}, {"bti", "BTI"}};
constexpr Flag kPreferred[] = {{"prefer_sve_ifuncs", "Prefer_SVE_ifuncs"}};
// Values that pick variants: the CPU model, the DC ZVA block size (memset), memory tagging.
constexpr std::string_view kTuning[] = {"midr_el1", "zva_size", "mte_state"};
// The hwcap words the loader saw (Valgrind presents its own): other ifuncs test them.
constexpr std::string_view kHwcaps[] = {"dl_hwcap", "dl_hwcap2"};

}  // namespace

std::uint64_t diagnostics_hex(std::string_view v) {
    if (util::starts_with(v, "0x")) v.remove_prefix(2);
    std::uint64_t out = 0;
    for (const char c : v) {
        const int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
        if (d < 0) break;
        out = out * 16 + static_cast<std::uint64_t>(d);
    }
    return out;
}

CpuArch build_arch() {
#if defined(__x86_64__)
    return CpuArch::X86_64;
#elif defined(__aarch64__)
    return CpuArch::AArch64;
#else
    return CpuArch::Other;
#endif
}

std::string_view arch_name(CpuArch arch) {
    switch (arch) {
        case CpuArch::X86_64:
            return "x86_64";
        case CpuArch::AArch64:
            return "aarch64";
        case CpuArch::Other:
            break;
    }
    return "unknown";
}

std::string aarch64_portable_tunables() {
    return "glibc.cpu.name=generic";
}

bool is_aarch64_diagnostics(const DiagnosticsMap& kv) {
    const auto it = kv.lower_bound(kPrefix);
    return it != kv.end() && util::starts_with(it->first, kPrefix);
}

void read_aarch64_selection(const DiagnosticsMap& kv, GlibcSelection& sel) {
    const auto value = [&kv](std::string_view key) -> std::string {
        const auto it = kv.find(key);
        return it == kv.end() ? std::string() : it->second;
    };
    const auto append = [](std::string& to, std::string_view what) {
        to += (to.empty() ? "" : " ") + std::string(what);
    };
    for (const auto& f : kUsable) {
        if (diagnostics_hex(value(std::string(kPrefix) + std::string(f.key))) != 0)
            append(sel.usable, f.name);
    }
    for (const auto& f : kPreferred) {
        if (diagnostics_hex(value(std::string(kPrefix) + std::string(f.key))) != 0)
            append(sel.preferred, f.name);
    }
    for (const auto key : kTuning) {
        const std::string v = value(std::string(kPrefix) + std::string(key));
        if (!v.empty()) append(sel.tuning, fmt::format("{}={}", key, diagnostics_hex(v)));
    }
    for (const auto key : kHwcaps) {
        const std::string v = value(key);
        if (!v.empty())
            append(sel.tuning, fmt::format("{}={:#x}", key.substr(3), diagnostics_hex(v)));
    }
}

}  // namespace cgbench::valgrind
