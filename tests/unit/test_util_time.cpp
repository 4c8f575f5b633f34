// ISO-8601 times as git and cgbench write them, read back to seconds since the epoch.

#include <gtest/gtest.h>

#include "util/time.hpp"

namespace cgbench::util {

TEST(UtilTime, ReadsUtcAndOffsetsAsGitWritesThem) {
    EXPECT_EQ(parse_iso8601("1970-01-01T00:00:00Z"), 0);
    EXPECT_EQ(parse_iso8601("2026-11-22T03:15:00Z"), 1795317300);
    // One instant in three zones.
    EXPECT_EQ(parse_iso8601("2020-05-01T12:00:00+02:00"), 1588327200);
    EXPECT_EQ(parse_iso8601("2020-05-01T10:00:00Z"), 1588327200);
    EXPECT_EQ(parse_iso8601("2020-05-01T03:00:00-07:00"), 1588327200);
    EXPECT_EQ(parse_iso8601("2000-02-29T23:59:59Z"), 951868799) << "a leap day";
    // What iso8601_at writes reads back.
    EXPECT_EQ(parse_iso8601(iso8601_at(1234567890)), 1234567890);
}

TEST(UtilTime, RefusesWhatIsNotATime) {
    for (const char* bad : {"", "2020-05-01", "2020-05-01 12:00:00Z", "2020-13-01T00:00:00Z",
                            "2020-05-01T24:00:00Z", "2020-05-01T12:00:00", "2020-05-01T12:00:00+2",
                            "2020-05-01T12:00:00+02:0x", "yyyy-05-01T12:00:00Z",
                            "2025-02-30T00:00:00Z", "2026-1-05T00:00:00Z"}) {
        EXPECT_FALSE(parse_iso8601(bad).has_value()) << bad;
    }
}

TEST(UtilTime, RunStartTimesAreUtcAsCgbenchWritesThem) {
    EXPECT_EQ(parse_utc_timestamp("2026-11-22T03:15:00Z"), 1795317300);
    EXPECT_EQ(parse_utc_timestamp(now_iso8601()).has_value(), true);
    // An offset names the same instant but would not sort as text among UTC times.
    EXPECT_FALSE(parse_utc_timestamp("2020-05-01T12:00:00+02:00").has_value());
    EXPECT_FALSE(parse_utc_timestamp("2025-02-30T00:00:00Z").has_value());
}

}  // namespace cgbench::util
