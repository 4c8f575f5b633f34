// The CPU baseline on AArch64, on files captured in an arm64 Debian 13 root under qemu-user
// (tests/data/aarch64/README.md): `ld.so --list-diagnostics` on three emulated CPUs (qemu's
// "max", Neoverse N1, A64FX), natively and under Valgrind 3.24's arm64 build, each without and
// with the portable tunables, and glibc 2.41's `--list-tunables`. Expected values are read
// from the files by plain string search.

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <sys/utsname.h>

#include <string>
#include <vector>

#include "util/fs.hpp"
#include "util/strings.hpp"
#include "valgrind/cpu_baseline.hpp"
#include "valgrind/geometry.hpp"

namespace cgbench::valgrind {

namespace {

constexpr const char* kCpus[] = {"max", "neoverse-n1", "a64fx"};

std::string capture(const std::string& name) {
    return util::read_file(std::string(CGBENCH_TEST_DATA) + "/aarch64/" + name);
}

std::string diagnostics(std::string_view cpu, std::string_view tunables) {
    return capture(fmt::format("diagnostics-{}-{}.txt", cpu, tunables));
}

std::string under_valgrind(std::string_view cpu, std::string_view tunables) {
    return capture(fmt::format("valgrind-{}-{}.txt", cpu, tunables));
}

// The value of `key=0x...` in `text`, read by hand.
std::uint64_t hex_line(const std::string& text, const std::string& key) {
    const std::string lines = "\n" + text;
    const auto at = lines.find("\n" + key + "=");
    EXPECT_NE(at, std::string::npos) << key;
    if (at == std::string::npos) return 0;
    return std::stoull(lines.substr(at + key.size() + 2), nullptr, 16);
}

std::string without_processor_lines(const std::string& text) {
    std::string out;
    for (const auto line : util::split(text, '\n')) {
        if (!util::starts_with(line, "aarch64.processor[")) out += std::string(line) + "\n";
    }
    return out;
}

}  // namespace

TEST(CpuArch, NamesAsUnameGivesThem) {
    EXPECT_EQ(arch_name(CpuArch::X86_64), "x86_64");
    EXPECT_EQ(arch_name(CpuArch::AArch64), "aarch64");
    EXPECT_EQ(arch_name(CpuArch::Other), "unknown");
    struct utsname u {};
    ASSERT_EQ(::uname(&u), 0);
    if (build_arch() != CpuArch::Other) {
        EXPECT_EQ(arch_name(build_arch()), u.machine);
    }
    // The captured root names its machine as the fingerprint does.
    EXPECT_NE(diagnostics("max", "native").find("uname.machine=\"aarch64\""), std::string::npos);
}

TEST(CpuArch, AArch64PortableNamesTheGenericCpu) {
    const auto g = ci_default_geometry();
    EXPECT_EQ(glibc_tunables_for(CpuBaseline::Portable, g, "2.41", CpuArch::AArch64),
              "glibc.cpu.name=generic");
    EXPECT_EQ(glibc_tunables_for(CpuBaseline::Native, g, "2.41", CpuArch::AArch64), "");
    EXPECT_EQ(glibc_tunables_for(CpuBaseline::Portable, g, "2.41", CpuArch::Other), "");
    // x86-64's own, whatever the host.
    EXPECT_EQ(glibc_tunables_for(CpuBaseline::Portable, g, "2.41", CpuArch::X86_64)
                  .rfind("glibc.cpu.hwcaps=-AVX512F,", 0),
              0u);
}

// Every tunable the portable baseline sets is one glibc 2.41 on arm64 knows (an unknown name
// would be ignored silently, and nothing pinned).
TEST(CpuArch, AArch64TunablesExistInGlibc) {
    const std::string known = capture("tunables.txt");
    const std::string t =
        glibc_tunables_for(CpuBaseline::Portable, ci_default_geometry(), "2.41", CpuArch::AArch64);
    for (const auto item : util::split(t, ':')) {
        const auto name = item.substr(0, item.find('='));
        EXPECT_NE(known.find(std::string(name) + ":"), std::string::npos) << name;
    }
}

TEST(CpuArch, AArch64DiagnosticsParse) {
    for (const char* cpu : kCpus) {
        SCOPED_TRACE(cpu);
        const std::string text = diagnostics(cpu, "native");
        const auto sel = parse_diagnostics(text);
        ASSERT_TRUE(sel.available);
        EXPECT_EQ(sel.glibc_version, "2.41");
        EXPECT_EQ(sel.platform, "aarch64");
        EXPECT_EQ(sel.usable.find("SVE") != std::string::npos,
                  hex_line(text, "aarch64.cpu_features.sve") != 0);
        EXPECT_EQ(sel.preferred.find("Prefer_SVE_ifuncs") != std::string::npos,
                  hex_line(text, "aarch64.cpu_features.prefer_sve_ifuncs") != 0);
        EXPECT_NE(sel.tuning.find(
                      fmt::format("midr_el1={}", hex_line(text, "aarch64.cpu_features.midr_el1"))),
                  std::string::npos)
            << sel.tuning;
        EXPECT_NE(sel.tuning.find(
                      fmt::format("zva_size={}", hex_line(text, "aarch64.cpu_features.zva_size"))),
                  std::string::npos);
        EXPECT_NE(sel.tuning.find(fmt::format("hwcap={:#x}", hex_line(text, "dl_hwcap"))),
                  std::string::npos);
        // No x86 key is read from AArch64's lines.
        EXPECT_EQ(sel.usable.find("SSE"), std::string::npos);
    }
}

// The per-processor lines vary with the number of CPUs: the selection ignores them.
TEST(CpuArch, ProcessorLinesDoNotChangeTheSelection) {
    const std::string text = diagnostics("max", "native");
    ASSERT_NE(text.find("aarch64.processor[0x1]"), std::string::npos);
    EXPECT_EQ(parse_diagnostics(text).id, parse_diagnostics(without_processor_lines(text)).id);
}

// glibc.cpu.name=generic reads the CPU model as 0 on every CPU, so no model's own memcpy is
// picked; what has no tunable (SVE, the DC ZVA block size) stays in the selection and so in
// the fingerprint.
TEST(CpuArch, GenericPinsTheModelOnly) {
    for (const char* cpu : kCpus) {
        SCOPED_TRACE(cpu);
        const std::string native = diagnostics(cpu, "native");
        const std::string generic = diagnostics(cpu, "generic");
        EXPECT_NE(hex_line(native, "aarch64.cpu_features.midr_el1"), 0u);
        EXPECT_EQ(hex_line(generic, "aarch64.cpu_features.midr_el1"), 0u);
        EXPECT_NE(parse_diagnostics(native).id, parse_diagnostics(generic).id);
        EXPECT_EQ(hex_line(native, "aarch64.cpu_features.sve"),
                  hex_line(generic, "aarch64.cpu_features.sve"));
    }
    // Neoverse N1 (no SVE, 64-byte DC ZVA) and A64FX (SVE, 256 bytes) stay apart.
    EXPECT_NE(parse_diagnostics(diagnostics("neoverse-n1", "generic")).id,
              parse_diagnostics(diagnostics("a64fx", "generic")).id);
}

// Under Valgrind (3.24, arm64) glibc sees no CPU model (Valgrind hides HWCAP_CPUID, so MIDR
// reads 0 with or without the tunable) and no SVE; the DC ZVA block size and some hwcap bits
// still come from the host CPU. The selection, and so the fingerprint, records them: hosts
// that differ there get different keys instead of silently different memset counts.
TEST(CpuArch, UnderValgrindTheHostsZvaSizeRemains) {
    std::vector<std::string> ids;
    for (const char* cpu : kCpus) {
        SCOPED_TRACE(cpu);
        for (const char* tunables : {"native", "generic"}) {
            const std::string text = under_valgrind(cpu, tunables);
            EXPECT_EQ(hex_line(text, "aarch64.cpu_features.midr_el1"), 0u);
            EXPECT_EQ(hex_line(text, "aarch64.cpu_features.sve"), 0u);
            EXPECT_EQ(parse_diagnostics(text).usable.find("SVE"), std::string::npos);
        }
        const auto native = parse_diagnostics(under_valgrind(cpu, "native"));
        const auto generic = parse_diagnostics(under_valgrind(cpu, "generic"));
        EXPECT_EQ(native.id, generic.id);
        EXPECT_EQ(hex_line(under_valgrind(cpu, "native"), "aarch64.cpu_features.zva_size"),
                  hex_line(diagnostics(cpu, "native"), "aarch64.cpu_features.zva_size"));
        ids.push_back(generic.id);
    }
    EXPECT_NE(ids[0], ids[1]);
    EXPECT_NE(ids[1], ids[2]);
    EXPECT_NE(ids[0], ids[2]);
}

TEST(CpuArch, GeometryLinesPerArchitecture) {
    EXPECT_EQ(min_line_size(CpuArch::X86_64), 32u);
    EXPECT_EQ(min_line_size(CpuArch::AArch64), 16u);
    const auto g = ci_default_geometry();
    for (const auto arch : {CpuArch::X86_64, CpuArch::AArch64}) {
        EXPECT_EQ(check_cache(g.i1, arch), "");
        EXPECT_EQ(check_cache(g.d1, arch), "");
        EXPECT_EQ(check_cache(g.ll, arch), "");
    }
    EXPECT_EQ(check_cache({256, 1, 16}, CpuArch::AArch64), "");
    EXPECT_NE(check_cache({256, 1, 16}, CpuArch::X86_64).find("widest register"),
              std::string::npos);
}

}  // namespace cgbench::valgrind
