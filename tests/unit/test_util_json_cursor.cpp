// The strict JSON reader: what it decodes, and what it declines.

#include <gtest/gtest.h>

#include "util/json_cursor.hpp"

namespace cgbench::util {

TEST(JsonCursor, Structure) {
    JsonCursor c(" { \"a\" : [ true , null ] }\n");
    std::string key;
    EXPECT_EQ(c.peek(), '{');
    ASSERT_TRUE(c.eat('{'));
    ASSERT_TRUE(c.string(key));
    EXPECT_EQ(key, "a");
    ASSERT_TRUE(c.eat(':'));
    ASSERT_TRUE(c.eat('['));
    EXPECT_TRUE(c.literal("true"));
    EXPECT_TRUE(c.eat(','));
    EXPECT_FALSE(c.literal("true"));
    EXPECT_TRUE(c.literal("null"));
    EXPECT_TRUE(c.eat(']'));
    EXPECT_FALSE(c.at_end());
    EXPECT_TRUE(c.eat('}'));
    EXPECT_TRUE(c.at_end());
    EXPECT_EQ(c.peek(), '\0');
}

TEST(JsonCursor, StringsAndEscapes) {
    std::string s;
    EXPECT_TRUE(JsonCursor(R"("a\"b\\c\/d\b\f\n\r\t")").string(s));
    EXPECT_EQ(s, "a\"b\\c/d\b\f\n\r\t");
    EXPECT_TRUE(JsonCursor(R"("\u001b[31m \u00e9 \u2713")").string(s));
    EXPECT_EQ(s, "\x1b[31m é ✓");
    EXPECT_TRUE(JsonCursor("\"é ✓ raw UTF-8\"").string(s));
    EXPECT_EQ(s, "é ✓ raw UTF-8");
    EXPECT_FALSE(JsonCursor(R"("\ud83d\ude00")").string(s)) << "surrogates are declined";
    EXPECT_FALSE(JsonCursor(R"("\x")").string(s));
    EXPECT_FALSE(JsonCursor(R"("\u12")").string(s));
    EXPECT_FALSE(JsonCursor("\"unterminated").string(s));
    EXPECT_FALSE(JsonCursor("\"raw\ncontrol\"").string(s));
    EXPECT_FALSE(JsonCursor("'single'").string(s));
}

TEST(JsonCursor, KeysAreViewsIntoTheText) {
    const std::string text = R"( "cost" : 1, "na\u006de": 2, "raw)";
    JsonCursor c(text);
    std::string_view key;
    ASSERT_TRUE(c.key(key));
    EXPECT_EQ(key, "cost");
    EXPECT_EQ(key.data(), text.data() + 2) << "not a copy";
    EXPECT_TRUE(c.eat(':'));
    JsonNumber n;
    EXPECT_TRUE(c.number(n));
    EXPECT_TRUE(c.eat(','));
    EXPECT_FALSE(c.key(key)) << "an escape: the caller reads it another way";
    EXPECT_FALSE(JsonCursor(R"("raw)").key(key)) << "unterminated";
    EXPECT_FALSE(JsonCursor("\"raw\ncontrol\"").key(key));
    EXPECT_TRUE(JsonCursor(R"("")").key(key));
    EXPECT_EQ(key, "");
}

TEST(JsonCursor, Numbers) {
    const auto read = [](std::string_view text) {
        JsonNumber n;
        const bool ok = JsonCursor(text).number(n);
        return std::pair{ok, n};
    };
    EXPECT_EQ(read("0").second.whole, 0u);
    EXPECT_EQ(read("18446744073709551615").second.whole, UINT64_MAX);
    EXPECT_FALSE(read("18446744073709551616").first) << "beyond 64 bits";
    EXPECT_EQ(read("-42").second.negative, -42);
    EXPECT_DOUBLE_EQ(*read("0.255347491").second.real, 0.255347491);
    EXPECT_DOUBLE_EQ(*read("1e3").second.real, 1000.0);
    EXPECT_DOUBLE_EQ(*read("-2.5E-1").second.real, -0.25);
    EXPECT_FALSE(read("01").first) << "leading zero";
    EXPECT_FALSE(read("-").first);
    EXPECT_FALSE(read("1-2").first);
    EXPECT_FALSE(read("x").first);
}

TEST(JsonCursor, SkipReturnsAValueAsWritten) {
    JsonCursor c(R"( {"a": "x}\"]", "b": [1, {"c": null}]} , 12.5e3 ,"s" true)");
    std::string_view raw;
    ASSERT_TRUE(c.skip(raw));
    EXPECT_EQ(raw, R"({"a": "x}\"]", "b": [1, {"c": null}]})");
    ASSERT_TRUE(c.eat(','));
    ASSERT_TRUE(c.skip(raw));
    EXPECT_EQ(raw, "12.5e3");
    ASSERT_TRUE(c.eat(','));
    ASSERT_TRUE(c.skip(raw));
    EXPECT_EQ(raw, "\"s\"");
    ASSERT_TRUE(c.skip(raw));
    EXPECT_EQ(raw, "true");
    EXPECT_TRUE(c.at_end());
    for (const char* bad : {"{\"a\": [1, 2}", "\"open", "]", "", "{\"a\\"}) {
        JsonCursor d(bad);
        EXPECT_FALSE(d.skip(raw)) << bad;
    }
}

}  // namespace cgbench::util
