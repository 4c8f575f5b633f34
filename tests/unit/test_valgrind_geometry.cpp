#include <gtest/gtest.h>

#include "base/errors.hpp"
#include "valgrind/geometry.hpp"

namespace cgbench::valgrind {

TEST(Geometry, CiDefaultIsThePinnedGeometry) {
    const auto g = parse_geometry("ci-default");
    EXPECT_EQ(g.name, "ci-default");
    const std::vector<std::string> expected = {"--I1=32768,8,64", "--D1=32768,8,64",
                                               "--LL=8388608,16,64"};
    EXPECT_EQ(g.valgrind_args(), expected);
}

TEST(Geometry, CustomOverridesOnlyWhatItNames) {
    const auto g = parse_geometry("LL=4194304,16,64");
    EXPECT_EQ(g.name, "custom");
    EXPECT_EQ(g.ll, (CacheSpec{4194304, 16, 64}));
    EXPECT_EQ(g.i1, ci_default_geometry().i1);
    const auto all = parse_geometry("I1=16384,4,64,D1=65536,8,64,LL=12582912,12,64");
    EXPECT_EQ(all.d1, (CacheSpec{65536, 8, 64}));
    EXPECT_EQ(all.ll.arg(), "12582912,12,64");  // 16384 sets: valid although not 2^n bytes
}

TEST(Geometry, ValgrindRules) {
    EXPECT_EQ(check_cache({32768, 8, 64}), "");
    EXPECT_NE(check_cache({30000, 8, 64}).find("power of two"), std::string::npos);
    EXPECT_NE(check_cache({32768, 8, 48}).find("power of two"), std::string::npos);
    EXPECT_NE(check_cache({32768, 8, 8}).find("at least"), std::string::npos);
    EXPECT_NE(check_cache({256, 16, 16}).find("widest register"), std::string::npos);
    EXPECT_NE(check_cache({64, 1, 64}).find("larger than one line"), std::string::npos);
    EXPECT_NE(check_cache({32768, 0, 64}).find("at least 1"), std::string::npos);
    EXPECT_NE(check_cache({2147483648ULL, 8, 64}).find("too large"), std::string::npos);
}

TEST(Geometry, BadTextIsAUsageErrorWithAHint) {
    for (const char* bad : {"", "huge", "I1=32768,8", "I1=32768,8,64,1", "L2=32768,8,64",
                            "I1=32768,8,48", "I1=a,b,c", "I1=-1,8,64"}) {
        try {
            parse_geometry(bad);
            ADD_FAILURE() << "accepted '" << bad << "'";
        } catch (const UsageError& e) {
            EXPECT_NE(e.hint().find("ci-default"), std::string::npos) << bad;
        }
    }
}

}  // namespace cgbench::valgrind
