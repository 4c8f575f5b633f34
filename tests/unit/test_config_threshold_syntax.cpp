#include <gtest/gtest.h>

#include "config/threshold_syntax.hpp"
#include "core/errors.hpp"

namespace cgbench::config {

namespace {

std::string error_of(const std::string& text) {
    try {
        validate_threshold(text);
    } catch (const UsageError& e) {
        return e.what();
    }
    return "no error";
}

}  // namespace

TEST(ThresholdSyntax, AcceptsTheDocumentedForms) {
    EXPECT_EQ(validate_threshold("1%"), "1%");
    EXPECT_EQ(validate_threshold(" 0.5% "), "0.5%");
    EXPECT_EQ(validate_threshold("cost=2%|100000"), "cost=2%|100000");
    EXPECT_EQ(validate_threshold("ir=0.5%, cost=1%"), "ir=0.5%, cost=1%");
    EXPECT_NO_THROW(validate_threshold("Ir=1%,D1mr=5%,ram_hits=10%|50"));
    EXPECT_NO_THROW(validate_threshold("DLMW=3%"));  // metric names are case-insensitive
}

TEST(ThresholdSyntax, RejectsWithTheReason) {
    EXPECT_NE(error_of("").find("not a percentage"), std::string::npos);
    EXPECT_NE(error_of("2").find("'2' is not a percentage"), std::string::npos);
    EXPECT_NE(error_of("2 percent").find("not a percentage"), std::string::npos);
    EXPECT_NE(error_of("-1%").find("not a percentage"), std::string::npos);
    EXPECT_NE(error_of("speed=1%").find("unknown metric 'speed'"), std::string::npos);
    EXPECT_NE(error_of("cost=1%|lots").find("floor 'lots' is not a count"), std::string::npos);
    EXPECT_NE(error_of("1%,cost=2%").find("cost is limited twice"), std::string::npos);
    EXPECT_NE(error_of("1%,").find("not a percentage"), std::string::npos);
    EXPECT_NE(error_of("x\x1b").find("\\x1b"), std::string::npos);  // printable in messages
}

}  // namespace cgbench::config
