#include <gtest/gtest.h>

#include "base/errors.hpp"
#include "util/fs.hpp"
#include "valgrind/cpu_baseline.hpp"

namespace cgbench::valgrind {

namespace {

std::string diag(const std::string& name) {
    return util::read_file(std::string(CGBENCH_TEST_DATA) + "/glibc/" + name);
}

}  // namespace

TEST(CpuBaseline, Parse) {
    EXPECT_EQ(parse_cpu_baseline("portable"), CpuBaseline::Portable);
    EXPECT_EQ(parse_cpu_baseline("native"), CpuBaseline::Native);
    EXPECT_THROW(parse_cpu_baseline("haswell"), UsageError);
}

TEST(CpuBaseline, PortableTunables) {
    EXPECT_EQ(glibc_tunables_for(CpuBaseline::Native, ci_default_geometry()), "");
    const std::string t = glibc_tunables_for(CpuBaseline::Portable, ci_default_geometry());
    EXPECT_EQ(t.rfind("glibc.cpu.hwcaps=-AVX512F,", 0), 0u);
    EXPECT_NE(t.find("-AVX2,"), std::string::npos);
    EXPECT_NE(t.find("-ERMS,"), std::string::npos);
    // The value ends with a comma: glibc 2.36 reads past the end of the last item otherwise.
    EXPECT_NE(t.find("-Prefer_No_VZEROUPPER,:"), std::string::npos);
    // glibc's cache sizes follow the simulated caches.
    EXPECT_NE(t.find("x86_data_cache_size=32768"), std::string::npos);
    EXPECT_NE(t.find("x86_shared_cache_size=8388608"), std::string::npos);
    const std::string small =
        glibc_tunables_for(CpuBaseline::Portable, parse_geometry("LL=4194304,16,64"));
    EXPECT_NE(small.find("x86_shared_cache_size=4194304"), std::string::npos);
}

// Files captured from `ld.so --list-diagnostics` under Valgrind 3.19 on an AVX2 host (which
// Valgrind presents as a Haswell), without and with the portable tunables.
TEST(CpuBaseline, NativeDiagnostics) {
    const auto sel = parse_diagnostics(diag("diagnostics-native.txt"));
    ASSERT_TRUE(sel.available);
    EXPECT_EQ(sel.glibc_version, "2.36");
    EXPECT_EQ(sel.platform, "haswell");
    EXPECT_NE(sel.usable.find("AVX2"), std::string::npos);
    EXPECT_NE(sel.usable.find("ERMS"), std::string::npos);
    EXPECT_NE(sel.preferred.find("Fast_Rep_String"), std::string::npos);
    EXPECT_EQ(sel.id.size(), 16u);
}

TEST(CpuBaseline, PortableDiagnosticsSelectBaselineCode) {
    const auto sel = parse_diagnostics(diag("diagnostics-portable.txt"));
    ASSERT_TRUE(sel.available);
    EXPECT_EQ(sel.platform, "x86_64");
    EXPECT_EQ(sel.usable, "SSE2");
    // Only the preferences every x86-64 CPU has are left (I586/I686); none of the per-model ones.
    for (const char* host_specific : {"Fast_", "Prefer_", "AVX", "Slow_"}) {
        EXPECT_EQ(sel.preferred.find(host_specific), std::string::npos) << sel.preferred;
    }
    EXPECT_NE(sel.tuning.find("non_temporal_threshold=6291456"), std::string::npos);
    EXPECT_NE(sel.id, parse_diagnostics(diag("diagnostics-native.txt")).id);
}

TEST(CpuBaseline, NoDiagnostics) {
    EXPECT_FALSE(parse_diagnostics("").available);
    EXPECT_FALSE(parse_diagnostics("ld.so: unrecognized option\n").available);
}

TEST(CpuBaseline, LoaderPath) {
    EXPECT_NE(dynamic_loader_path().find("ld-linux"), std::string::npos);
}

// glibc 2.40 added a memset non-temporal threshold that it derives from the CPU model: from
// 2.40 on, portable pins it to the highest value glibc accepts; before, the tunables stay
// exactly as they were (their text is in every program's environment).
TEST(CpuBaseline, PortableTunablesOnNewerGlibc) {
    const auto g = ci_default_geometry();
    const std::string old = glibc_tunables_for(CpuBaseline::Portable, g, "2.36");
    EXPECT_EQ(old.find("memset"), std::string::npos);
    EXPECT_EQ(glibc_tunables_for(CpuBaseline::Portable, g, "2.39"), old);
    for (const char* version : {"2.40", "2.41", "3.0"}) {
        const std::string t = glibc_tunables_for(CpuBaseline::Portable, g, version);
        EXPECT_EQ(t, old + ":glibc.cpu.x86_memset_non_temporal_threshold=1152921504606846975")
            << version;
    }
    EXPECT_EQ(glibc_tunables_for(CpuBaseline::Native, g, "2.41"), "");
}

// Captured under Valgrind 3.24 on glibc 2.41 (Debian 13), on the same host: portable selects
// what it selects on glibc 2.36, and the new memset threshold is the pinned one.
TEST(CpuBaseline, Glibc241Diagnostics) {
    const auto native = parse_diagnostics(diag("diagnostics-native-2.41.txt"));
    ASSERT_TRUE(native.available);
    EXPECT_EQ(native.glibc_version, "2.41");
    EXPECT_EQ(native.platform, "haswell");
    EXPECT_NE(native.tuning.find("memset_non_temporal_threshold=1048576"), std::string::npos)
        << native.tuning;
    const auto portable = parse_diagnostics(diag("diagnostics-portable-2.41.txt"));
    const auto on_236 = parse_diagnostics(diag("diagnostics-portable.txt"));
    ASSERT_TRUE(portable.available);
    EXPECT_EQ(portable.platform, on_236.platform);
    EXPECT_EQ(portable.usable, on_236.usable);
    EXPECT_EQ(portable.preferred, on_236.preferred);
    EXPECT_EQ(portable.tuning,
              on_236.tuning + " memset_non_temporal_threshold=1152921504606846975");
}

}  // namespace cgbench::valgrind
