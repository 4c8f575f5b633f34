#include <gtest/gtest.h>

#include <stdexcept>

#include "util/regex.hpp"

namespace cgbench::util {

TEST(Regex, SearchesAnywhereInTheText) {
    const Regex re("parse/");
    EXPECT_TRUE(re.search("parse/large"));
    EXPECT_TRUE(re.search("json/parse/small"));
    EXPECT_FALSE(re.search("walk"));
    EXPECT_TRUE(Regex("^a|b$").search("xb"));
    EXPECT_FALSE(Regex("^(small|large)$").search("medium"));
    EXPECT_TRUE(Regex("\\d+").search("w2000"));  // Perl classes
}

TEST(Regex, InvalidPatternsThrowWithTheReason) {
    EXPECT_THROW(Regex("("), std::invalid_argument);
    EXPECT_THROW(Regex("a{2,1}"), std::invalid_argument);
    try {
        Regex("[z-a]");
        FAIL();
    } catch (const std::invalid_argument& e) {
        EXPECT_FALSE(std::string(e.what()).empty());
    }
}

TEST(Regex, Moves) {
    Regex a("x");
    Regex b = std::move(a);
    EXPECT_TRUE(b.search("axb"));
}

}  // namespace cgbench::util
