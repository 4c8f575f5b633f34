#include <gtest/gtest.h>

#include "util/strings.hpp"

namespace cgbench::util {

TEST(Strings, WithoutPasswordDropsAUrlsPasswordOnly) {
    EXPECT_EQ(without_password("postgresql://ci:s3cr@t@db:5432/bench?project=a"),
              "postgresql://ci@db:5432/bench?project=a");
    EXPECT_EQ(without_password("postgresql://ci@db/bench"), "postgresql://ci@db/bench");
    EXPECT_EQ(without_password("postgresql://db/bench?password=s3cret&project=a"),
              "postgresql://db/bench?project=a");
    EXPECT_EQ(without_password("postgresql://db/bench?project=a&password=s3cret"),
              "postgresql://db/bench?project=a");
    EXPECT_EQ(without_password("postgresql://db/bench?password=s3cret"), "postgresql://db/bench");
    EXPECT_EQ(without_password(".cgbench/history.db"), ".cgbench/history.db");
    EXPECT_EQ(without_password("a:b@c.db"), "a:b@c.db") << "a file name, not a URL";
}

TEST(Strings, SplitKeepsEmptyFields) {
    const auto parts = split("a,,b,", ',');
    ASSERT_EQ(parts.size(), 4u);
    EXPECT_EQ(parts[0], "a");
    EXPECT_EQ(parts[1], "");
    EXPECT_EQ(parts[2], "b");
    EXPECT_EQ(parts[3], "");
}

TEST(Strings, ParseU64AcceptsOnlyWholeDecimals) {
    EXPECT_EQ(parse_u64("0"), 0u);
    EXPECT_EQ(parse_u64("18446744073709551615"), UINT64_MAX);
    EXPECT_FALSE(parse_u64("18446744073709551616"));  // 2^64
    EXPECT_FALSE(parse_u64(""));
    EXPECT_FALSE(parse_u64("-1"));
    EXPECT_FALSE(parse_u64("+1"));
    EXPECT_FALSE(parse_u64(" 1"));
    EXPECT_FALSE(parse_u64("1x"));
}

TEST(Strings, VersionAtLeastComparesMajorThenMinor) {
    EXPECT_TRUE(version_at_least("3.22.0", 3, 22));
    EXPECT_TRUE(version_at_least("3.24.0", 3, 22));
    EXPECT_TRUE(version_at_least("4.0", 3, 22));
    EXPECT_FALSE(version_at_least("3.19.0", 3, 22));
    EXPECT_FALSE(version_at_least("2.99", 3, 0));
    EXPECT_TRUE(version_at_least("2.41", 2, 40));
    EXPECT_FALSE(version_at_least("2.36", 2, 40));
    EXPECT_TRUE(version_at_least("3.22.0.GIT", 3, 22));  // a suffix is ignored
    EXPECT_TRUE(version_at_least("1.10.0", 1, 8));       // numbers, not text
    EXPECT_FALSE(version_at_least("", 1, 0));
    EXPECT_FALSE(version_at_least("unknown", 1, 0));
}

TEST(Strings, ParseSeconds) {
    EXPECT_DOUBLE_EQ(*parse_seconds("1.5"), 1.5);
    EXPECT_DOUBLE_EQ(*parse_seconds("600"), 600.0);
    EXPECT_FALSE(parse_seconds("-1"));
    EXPECT_FALSE(parse_seconds("1s"));
    EXPECT_FALSE(parse_seconds("inf"));
}

TEST(Strings, WithCommasGroupsEveryThreeDigits) {
    EXPECT_EQ(with_commas(0), "0");
    EXPECT_EQ(with_commas(999), "999");
    EXPECT_EQ(with_commas(1000), "1,000");
    EXPECT_EQ(with_commas(84048), "84,048");
    EXPECT_EQ(with_commas(123456), "123,456");
    EXPECT_EQ(with_commas(1234567), "1,234,567");
    EXPECT_EQ(with_commas(UINT64_MAX), "18,446,744,073,709,551,615");
}

TEST(Strings, Percent) {
    EXPECT_EQ(percent(0.0125), "+1.25%");
    EXPECT_EQ(percent(-0.001), "-0.10%");
    EXPECT_EQ(percent(0.00001), "0.00%");
}

TEST(Strings, PrintableEscapesControlCharacters) {
    EXPECT_EQ(printable("a\nb\x1b[31m"), "a\\x0ab\\x1b[31m");
    EXPECT_EQ(printable("plain/name"), "plain/name");
    EXPECT_EQ(printable("caf\xe9 caf\xc3\xa9"), "caf\\xe9 caf\xc3\xa9")
        << "bytes that are not UTF-8";
    EXPECT_EQ(printable("\xc3"), "\\xc3") << "truncated";
    EXPECT_EQ(printable("csi\xc2\x9b"
                        "2J nbsp\xc2\xa0"),
              "csi\\xc2\\x9b"
              "2J nbsp\xc2\xa0")
        << "C1";
}

TEST(Strings, FileSafe) {
    EXPECT_EQ(file_safe("memory-cache/linear 10"), "memory-cache_linear_10");
    EXPECT_EQ(file_safe("../x"), "_.._x");
    EXPECT_EQ(file_safe(""), "_");
    // Long names stay under the file name limit with their raw-file suffixes, and distinct.
    const std::string a(300, 'L'), b = std::string(299, 'L') + "M";
    EXPECT_EQ(file_safe(a).size(), kMaxFileSafe);
    EXPECT_EQ(file_safe(a).substr(0, 100), std::string(100, 'L'));
    EXPECT_NE(file_safe(a), file_safe(b));
    EXPECT_EQ(file_safe(std::string(kMaxFileSafe, 'x')), std::string(kMaxFileSafe, 'x'));
}

TEST(Strings, ShellQuoteRoundTripsThroughAShellReading) {
    EXPECT_EQ(shell_quote("plain-arg_1.0"), "plain-arg_1.0");
    EXPECT_EQ(shell_quote("two words"), "'two words'");
    EXPECT_EQ(shell_quote("it's"), "'it'\\''s'");
    EXPECT_EQ(shell_quote(""), "''");
    EXPECT_EQ(shell_join({"a b", "c"}), "'a b' c");
}

TEST(Strings, ClosestSuggestsOnlyNearCandidates) {
    const std::vector<std::string_view> keys = {"name", "command", "cwd", "stdin", "timeout"};
    EXPECT_EQ(closest("comand", keys), "command");
    EXPECT_EQ(closest("timout", keys), "timeout");
    EXPECT_EQ(closest("stdin", keys), "stdin");
    EXPECT_EQ(closest("geometry", keys), "");
    EXPECT_EQ(closest("", {}), "");
}

}  // namespace cgbench::util
