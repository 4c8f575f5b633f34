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

}  // namespace cgbench::valgrind
