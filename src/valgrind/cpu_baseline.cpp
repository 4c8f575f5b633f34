#include "valgrind/cpu_baseline.hpp"

#include <elf.h>
#include <fmt/format.h>
#include <gnu/libc-version.h>
#include <link.h>

#include <fstream>
#include <map>
#include <span>

#include "base/errors.hpp"
#include "util/fs.hpp"
#include "util/hash.hpp"
#include "util/probe_cache.hpp"
#include "util/strings.hpp"
#include "valgrind/cpu_arch.hpp"

namespace cgbench::valgrind {

namespace {

// CPU features glibc's x86 tunables can switch off (glibc 2.33-2.38 names).
constexpr std::string_view kMaskedFeatures[] = {
    "AVX512F", "AVX512CD", "AVX512BW", "AVX512DQ", "AVX512ER", "AVX512PF", "AVX512VL", "AVX2",
    "AVX",     "FMA",      "FMA4",     "BMI1",     "BMI2",     "LZCNT",    "MOVBE",    "RTM",
    "SSSE3",   "SSE4_1",   "SSE4_2",   "POPCNT",   "ERMS",     "XSAVE",    "XSAVEC",   "OSXSAVE"};

// Preference bits glibc sets per CPU model; all switched off for a host-independent choice.
constexpr std::string_view kMaskedPreferences[] = {"Fast_Rep_String",
                                                   "Fast_Unaligned_Load",
                                                   "Fast_Unaligned_Copy",
                                                   "Prefer_PMINUB_for_stringop",
                                                   "Fast_Copy_Backward",
                                                   "Slow_BSF",
                                                   "AVX_Fast_Unaligned_Load",
                                                   "Prefer_No_AVX512",
                                                   "Prefer_ERMS",
                                                   "Prefer_FSRM",
                                                   "Slow_SSE4_2",
                                                   "Prefer_AVX2_STRCMP",
                                                   "MathVec_Prefer_No_AVX512",
                                                   "Prefer_No_VZEROUPPER"};

// Where each maskable feature lives in the diagnostics' `active` words:
// features[index].active[register] bit `bit` (index 0: CPUID 1, 1: CPUID 7, 2: 0x80000001,
// 3: CPUID 0xd ecx=1; register 0..3 = eax, ebx, ecx, edx).
struct FeatureBit {
    std::string_view name;
    int index;
    int reg;
    int bit;
};
constexpr FeatureBit kFeatureBits[] = {
    {"SSE2", 0, 3, 26},     {"SSSE3", 0, 2, 9},     {"SSE4_1", 0, 2, 19},   {"SSE4_2", 0, 2, 20},
    {"POPCNT", 0, 2, 23},   {"MOVBE", 0, 2, 22},    {"FMA", 0, 2, 12},      {"XSAVE", 0, 2, 26},
    {"OSXSAVE", 0, 2, 27},  {"AVX", 0, 2, 28},      {"BMI1", 1, 1, 3},      {"AVX2", 1, 1, 5},
    {"BMI2", 1, 1, 8},      {"ERMS", 1, 1, 9},      {"RTM", 1, 1, 11},      {"AVX512F", 1, 1, 16},
    {"AVX512DQ", 1, 1, 17}, {"AVX512CD", 1, 1, 28}, {"AVX512BW", 1, 1, 30}, {"AVX512VL", 1, 1, 31},
    {"FSRM", 1, 3, 4},      {"LZCNT", 2, 2, 5},     {"FMA4", 2, 2, 16},     {"XSAVEC", 3, 0, 1},
};

constexpr std::string_view kTuningKeys[] = {"isa_1",
                                            "xsave_state_size",
                                            "data_cache_size",
                                            "shared_cache_size",
                                            "non_temporal_threshold",
                                            "rep_movsb_threshold",
                                            "rep_stosb_threshold",
                                            "rep_movsb_stop_threshold",
                                            "memset_non_temporal_threshold"};  // glibc >= 2.40

// The highest value glibc accepts for its x86 non-temporal thresholds (SIZE_MAX >> 4).
constexpr std::uint64_t kMaxThreshold = UINT64_MAX >> 4;

std::string unquote(std::string_view v) {
    if (v.size() >= 2 && v.front() == '"' && v.back() == '"') v = v.substr(1, v.size() - 2);
    return std::string(v);
}

// Stable facts about the host CPU for the probe cache key.
std::string host_cpu_signature() {
    std::ifstream in("/proc/cpuinfo");
    std::string line, sig;
    while (std::getline(in, line)) {
        if (line.empty()) break;  // first processor only
        for (const char* key : {"vendor_id", "cpu family", "model\t", "flags"}) {
            if (util::starts_with(line, key)) sig += line + "\n";
        }
    }
    return sig;
}

void read_x86_selection(const DiagnosticsMap& kv, GlibcSelection& sel) {
    const auto get = [&](std::string_view key) -> std::string {
        const auto it = kv.find(key);
        return it == kv.end() ? std::string() : it->second;
    };
    for (const auto& f : kFeatureBits) {
        const auto word = diagnostics_hex(
            get(fmt::format("x86.cpu_features.features[{:#x}].active[{:#x}]", f.index, f.reg)));
        if ((word >> f.bit) & 1U)
            sel.usable += (sel.usable.empty() ? "" : " ") + std::string(f.name);
    }
    const std::string pref_prefix = "x86.cpu_features.preferred.";
    for (auto it = kv.lower_bound(pref_prefix);
         it != kv.end() && util::starts_with(it->first, pref_prefix); ++it) {
        if (diagnostics_hex(it->second) != 0) {
            sel.preferred +=
                (sel.preferred.empty() ? "" : " ") + it->first.substr(pref_prefix.size());
        }
    }
    for (const auto key : kTuningKeys) {
        const std::string v = get("x86.cpu_features." + std::string(key));
        if (!v.empty())
            sel.tuning +=
                fmt::format("{}{}={}", sel.tuning.empty() ? "" : " ", key, diagnostics_hex(v));
    }
}

}  // namespace

CpuBaseline parse_cpu_baseline(std::string_view text) {
    if (text == "portable") return CpuBaseline::Portable;
    if (text == "native") return CpuBaseline::Native;
    throw UsageError(fmt::format("invalid CPU baseline '{}'", util::printable(text)),
                     "use --cpu-baseline portable or --cpu-baseline native");
}

std::string_view to_string(CpuBaseline b) {
    return b == CpuBaseline::Portable ? "portable" : "native";
}

std::string glibc_tunables_for(CpuBaseline baseline, const Geometry& g,
                               std::string_view glibc_version, CpuArch arch) {
    if (baseline == CpuBaseline::Native) return {};
    if (arch == CpuArch::AArch64) return aarch64_portable_tunables();
    if (arch != CpuArch::X86_64) return {};  // nothing known to pin
    std::string hwcaps;
    const auto mask = [&hwcaps](std::span<const std::string_view> names) {
        for (const auto name : names)
            hwcaps += (hwcaps.empty() ? "-" : ",-") + std::string(name);
    };
    mask(kMaskedFeatures);
    mask(kMaskedPreferences);
    // The trailing comma is load-bearing. glibc 2.36's hwcaps parser steps past the NUL that
    // ends its value and keeps parsing whatever follows: the other tunables, the rest of the
    // environment and finally random bytes at the top of the stack, so Ir varied by a few
    // hundred between identical runs (measured: 5 of 40). An empty last item leaves the
    // parser on that NUL, where it stops.
    hwcaps += ',';
    // glibc sizes its string-op strategies from the cache sizes it reads from CPUID; tie
    // them to the simulated caches instead of the canned CPU's.
    std::string tunables = fmt::format(
        "glibc.cpu.hwcaps={}:glibc.cpu.x86_data_cache_size={}:glibc.cpu.x86_shared_cache_size={}"
        ":glibc.cpu.x86_non_temporal_threshold={}:glibc.cpu.x86_rep_movsb_threshold=2048"
        ":glibc.cpu.x86_rep_stosb_threshold=2048",
        hwcaps, g.d1.size, g.ll.size, g.ll.size * 3 / 4);
    // glibc 2.40 gave memset non-temporal stores above a threshold it derives from the CPU
    // model (measured under Valgrind 3.24: 1 MiB for its canned CPU, 241 MiB natively). The
    // highest value glibc accepts (SIZE_MAX >> 4) keeps memset on the path glibc 2.36 had,
    // without them. Only from 2.40 on, so the environment of older glibcs, and with it their
    // counts, stays as it was.
    if (util::version_at_least(glibc_version, 2, 40)) {
        tunables += fmt::format(":glibc.cpu.x86_memset_non_temporal_threshold={}", kMaxThreshold);
    }
    return tunables;
}

GlibcSelection parse_diagnostics(std::string_view text) {
    DiagnosticsMap kv;
    for (const auto line : util::split(text, '\n')) {
        const auto eq = line.find('=');
        if (eq != std::string_view::npos) {
            kv.emplace(std::string(line.substr(0, eq)), std::string(line.substr(eq + 1)));
        }
    }
    GlibcSelection sel;
    const auto get = [&](std::string_view key) -> std::string {
        const auto it = kv.find(key);
        return it == kv.end() ? std::string() : it->second;
    };
    sel.glibc_version = unquote(get("version.version"));
    if (sel.glibc_version.empty()) return sel;
    sel.available = true;
    sel.platform = unquote(get("dl_platform"));
    if (is_aarch64_diagnostics(kv)) {
        read_aarch64_selection(kv, sel);
    } else {
        read_x86_selection(kv, sel);
    }
    sel.id = util::hex64(util::fnv1a64(fmt::format(
        "{}|{}|{}|{}|{}", sel.glibc_version, sel.platform, sel.usable, sel.preferred, sel.tuning)));
    return sel;
}

namespace {

// The system's dynamic loader for this architecture, as every dynamically linked program of
// the distribution names it; "" when unknown here or missing.
std::string standard_loader() {
#if defined(__x86_64__)
    constexpr const char* kLoader = "/lib64/ld-linux-x86-64.so.2";
#elif defined(__aarch64__)
    constexpr const char* kLoader = "/lib/ld-linux-aarch64.so.1";
#else
    constexpr const char* kLoader = "";
#endif
    std::error_code ec;
    return *kLoader != '\0' && std::filesystem::exists(kLoader, ec) ? kLoader : "";
}

// The loader cgbench itself runs with (its PT_INTERP); "" for a static cgbench.
std::string own_loader() {
    std::string out;
    dl_iterate_phdr(
        [](dl_phdr_info* info, size_t, void* data) -> int {
            for (int i = 0; i < info->dlpi_phnum; ++i) {
                if (info->dlpi_phdr[i].p_type == PT_INTERP) {
                    *static_cast<std::string*>(data) =
                        reinterpret_cast<const char*>(info->dlpi_addr + info->dlpi_phdr[i].p_vaddr);
                }
            }
            return 1;  // the first object is the main program
        },
        &out);
    return out;
}

bool has_own_loader() {
    return !own_loader().empty();
}

}  // namespace

std::string dynamic_loader_path() {
    // A static cgbench (the CI build) has no loader of its own; the programs it measures do.
    const std::string own = own_loader();
    return own.empty() ? standard_loader() : own;
}

GlibcSelection probe_glibc_selection(const Installation& inst, const std::vector<std::string>& env,
                                     const util::ProbeCache& cache, exec::ProcessRunner& runner) {
    const std::string loader = dynamic_loader_path();
    if (loader.empty()) return {};
    std::string tunables;
    for (const auto& e : env) {
        if (util::starts_with(e, "GLIBC_TUNABLES=")) tunables = e;
    }
    const std::string material =
        fmt::format("{}|{}|{}|{}|{}", util::file_identity(inst.launcher), inst.version,
                    util::file_identity(loader), host_cpu_signature(), tunables);
    if (const auto cached = cache.get("glibc", material)) {
        auto sel = parse_diagnostics(*cached);
        if (sel.available) return sel;
    }
    exec::ProcessSpec spec;
    spec.argv = {inst.launcher.string(),
                 "--command-line-only=yes",
                 "--tool=none",
                 "--log-fd=2",
                 "-q",
                 loader,
                 "--list-diagnostics"};
    spec.env = env;
    spec.timeout_seconds = 60;
    spec.tail_bytes = 1 << 20;
    const auto out = runner.run(spec);
    if (out.how != exec::Termination::Exited || out.exit_code != 0) return {};
    // Keep only the lines the selection depends on; auxv/env lines vary per run.
    std::string kept;
    for (const auto line : util::split(out.stdout_tail, '\n')) {
        if (util::starts_with(line, "x86.") || util::starts_with(line, "version.") ||
            util::starts_with(line, "dl_platform") ||
            util::starts_with(line, "aarch64.cpu_features.") ||
            util::starts_with(line, "dl_hwcap=") || util::starts_with(line, "dl_hwcap2=")) {
            kept += std::string(line) + "\n";
        }
    }
    auto sel = parse_diagnostics(kept);
    if (sel.available) cache.put("glibc", material, kept);
    return sel;
}

std::string system_glibc_version() {
    static const std::string version = [] {
        // A dynamically linked cgbench runs on the system's glibc.
        if (has_own_loader()) return std::string(gnu_get_libc_version());
        // A static one carries its own; the loader's version string names the system's
        // ("ld.so (Debian GLIBC 2.41-12) stable release version 2.41.").
        const std::string loader = dynamic_loader_path();
        if (loader.empty()) return std::string(gnu_get_libc_version());
        try {
            const std::string text = util::read_file(loader);
            constexpr std::string_view kMark = "release version ";
            const auto at = text.find(kMark);
            if (at == std::string::npos) return std::string(gnu_get_libc_version());
            const auto end = text.find_first_not_of("0123456789.", at + kMark.size());
            std::string v = text.substr(at + kMark.size(), end - at - kMark.size());
            while (!v.empty() && v.back() == '.')
                v.pop_back();
            return v.empty() ? std::string(gnu_get_libc_version()) : v;
        } catch (const Error&) {
            return std::string(gnu_get_libc_version());
        }
    }();
    return version;
}

}  // namespace cgbench::valgrind
