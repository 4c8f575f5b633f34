#include <gtest/gtest.h>

#include "report/progress_line.hpp"
#include "report/text_table.hpp"

namespace cgbench::report {

TEST(ProgressLine, LiveLineShowsDoneTotalElapsedAndRunning) {
    ProgressState s{3, 8, 12.44, {"parse/large", "parse/small"}};
    EXPECT_EQ(live_progress_line(s, 200), "[3/8] 12.4s  running: parse/large, parse/small");
    s.running.clear();
    EXPECT_EQ(live_progress_line(s, 200), "[3/8] 12.4s");
}

TEST(ProgressLine, LiveLineNeverWrapsAndEscapesNames) {
    const ProgressState s{0, 2, 1, {"n\x1b[2Jame", "ünïcödé-name"}};
    const auto full = live_progress_line(s, 500);
    EXPECT_EQ(full.find('\x1b'), std::string::npos);
    for (std::size_t width = 0; width < display_width(full) + 2; ++width) {
        const auto line = live_progress_line(s, width);
        EXPECT_LE(display_width(line), width) << line;
    }
    EXPECT_EQ(live_progress_line(s, 20).substr(17), "...");
}

TEST(ProgressLine, LogLines) {
    BenchmarkResult b;
    b.name = "parse/large";
    b.wall_seconds = 2.314;
    EXPECT_EQ(progress_log_line(3, 8, b), "cgbench: [3/8] parse/large ok 2.31s");
    b.status = BenchStatus::Timeout;
    b.error = "timed out after 2 s";
    EXPECT_EQ(progress_log_line(4, 8, b),
              "cgbench: [4/8] parse/large TIMEOUT 2.31s (timed out after 2 s)");
}

}  // namespace cgbench::report
