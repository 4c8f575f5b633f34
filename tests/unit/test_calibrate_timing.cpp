// Native timing samples: the line format cgbench-kernels prints, and their summary.

#include "calibrate/timing.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace cgbench::calibrate {

TEST(CalibrateTiming, ParsesSampleLinesWithAndWithoutCycles) {
    const auto a = parse_sample_line("sample cycles=123 cpu_ns=456 wall_ns=789");
    ASSERT_TRUE(a);
    EXPECT_EQ(a->cycles, 123);
    EXPECT_EQ(a->cpu_ns, 456);
    EXPECT_EQ(a->wall_ns, 789);
    EXPECT_EQ(value_on(*a, Clock::Cycles), 123);
    EXPECT_EQ(value_on(*a, Clock::Cpu), 456);
    EXPECT_EQ(value_on(*a, Clock::Wall), 789);
    const auto b = parse_sample_line("sample cycles=- cpu_ns=5 wall_ns=6\n");
    ASSERT_TRUE(b);
    EXPECT_FALSE(b->cycles);
    EXPECT_THROW(value_on(*b, Clock::Cycles), std::logic_error);
}

TEST(CalibrateTiming, RejectsOtherLines) {
    for (const char* line : {"checksum 12", "sample cpu_ns=1 wall_ns=2", "sample cycles=x cpu_ns=1 wall_ns=2",
                             "sample cycles=1 cpu_ns=-1 wall_ns=2", "sample cycles=1 wall_ns=2 cpu_ns=1",
                             "sample cycles=1 cpu_ns=1 wall_ns=2 extra", ""}) {
        EXPECT_FALSE(parse_sample_line(line)) << line;
    }
}

TEST(CalibrateTiming, SummaryIsRobustToOnePreemptedRun) {
    // Four steady runs and one that lost the CPU for a while: median and spread ignore it.
    const auto t = summarize({100, 101, 99, 100, 400});
    EXPECT_EQ(t.median, 100);
    EXPECT_NEAR(t.spread, 1.4826 * 1 / 100, 1e-12);  // MAD of {0,1,1,0,300} is 1
    EXPECT_NEAR(t.uncertainty, 1.2533 * t.spread / std::sqrt(5.0), 1e-12);
    EXPECT_EQ(t.values.size(), 5u);
}

TEST(CalibrateTiming, ClocksAndUnits) {
    EXPECT_EQ(to_string(Clock::Cycles), "cycles");
    EXPECT_EQ(unit_of(Clock::Cpu), "ms");
    EXPECT_EQ(unit_of(Clock::Cycles), "Mcycles");
    EXPECT_DOUBLE_EQ(in_units(Clock::Wall, 2.5e6), 2.5);
}

}  // namespace cgbench::calibrate
