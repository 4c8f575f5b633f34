// The binary COPY rows PgHistory reads its series from (pg_copy.hpp), from bytes as the
// server writes them: integers of each width, text, NULL, and a row cut short. The stream
// itself is read from the suite's server in test_postgres_store.cpp.

#include <gtest/gtest.h>

#include <string>

#include "postgres_store/pg_copy.hpp"

namespace cgbench::postgres_store {

namespace {

std::string big_endian(std::int64_t v, int bytes) {
    std::string out;
    for (int i = bytes - 1; i >= 0; --i)
        out += static_cast<char>((static_cast<std::uint64_t>(v) >> (8 * i)) & 0xff);
    return out;
}

// A field: its length, then its bytes.
std::string field(const std::string& bytes) {
    return big_endian(static_cast<std::int64_t>(bytes.size()), 4) + bytes;
}

}  // namespace

TEST(PostgresCopy, IntegersOfEachWidthReadSigned) {
    EXPECT_EQ(binary_int(big_endian(-2, 2)), -2);
    EXPECT_EQ(binary_int(big_endian(70000, 4)), 70000);
    EXPECT_EQ(binary_int(big_endian(-1000000000000, 8)), -1000000000000);
    EXPECT_EQ(binary_int(big_endian(INT64_MAX, 8)), INT64_MAX);
    EXPECT_EQ(binary_int("abc"), 0) << "no integer is 3 bytes wide";
}

TEST(PostgresCopy, ARowsFieldsAreReadInPlace) {
    const std::string tuple = big_endian(4, 2) + field("bench/0001") + field(big_endian(7, 8)) +
                              big_endian(-1, 4) + field(big_endian(3, 4));
    const CopyRow row(tuple);
    ASSERT_EQ(row.size(), 4);
    EXPECT_EQ(row.text(0), "bench/0001");
    EXPECT_EQ(row.int64(1), 7);
    EXPECT_FALSE(row.field(2).has_value()) << "NULL";
    EXPECT_FALSE(row.int64(2).has_value());
    EXPECT_EQ(row.text(2), "");
    EXPECT_EQ(row.int64(3), 3);
    EXPECT_FALSE(row.field(4).has_value()) << "past the last field";
}

TEST(PostgresCopy, ARowCutShortEndsAtWhatIsWhole) {
    const std::string tuple = big_endian(3, 2) + field("ok") + big_endian(8, 4) + "abc";
    const CopyRow row(tuple);
    EXPECT_EQ(row.text(0), "ok");
    EXPECT_FALSE(row.field(1).has_value()) << "8 bytes announced, 3 there";
    EXPECT_FALSE(row.field(2).has_value());
    EXPECT_EQ(CopyRow("").size(), 0);
}

}  // namespace cgbench::postgres_store
