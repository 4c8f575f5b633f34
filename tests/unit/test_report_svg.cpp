// The SVG builder: escaped text and titles, well-formed output, round axis ticks.

#include <gtest/gtest.h>

#include "markup_check.hpp"
#include "report/svg.hpp"
#include "run_fixtures.hpp"

namespace cgbench::report::svg {

using testing_fixtures::kHostile;
using testing_markup::check_xml;

TEST(Svg, EveryStringIsEscaped) {
    Canvas c(100, 50, "chart", kHostile);
    c.line({0, 0}, {10, 10}, "axis", "</title><script>alert(1)</script>");
    c.polyline({{0, 0}, {1.5, 2.5}}, "line k0");
    c.circle({5, 5}, 3, "dot", kHostile);
    c.cross({5, 5}, 2, "failed", "a \"quoted\" & 'single' \xff title");
    c.text({1, 2}, kHostile, "tick", Anchor::End, -90, kHostile);
    const std::string s = c.str();
    EXPECT_EQ(check_xml(s), "") << s;
    EXPECT_EQ(s.find("<img"), std::string::npos);
    EXPECT_EQ(s.find("<script"), std::string::npos);
    EXPECT_EQ(s.find("\xff"), std::string::npos);
    EXPECT_NE(s.find("&lt;img src=x onerror=alert(1)&gt;|**x**"), std::string::npos);
    EXPECT_NE(s.find("points=\"0.0,0.0 1.5,2.5\""), std::string::npos) << s;
    EXPECT_NE(s.find("text-anchor=\"end\" transform=\"rotate(-90 1.0 2.0)\""), std::string::npos);
    EXPECT_NE(s.find("<circle cx=\"5.0\" cy=\"5.0\" r=\"3.0\" class=\"dot\"><title>"),
              std::string::npos);
}

TEST(Svg, NiceTicksCoverTheRangeInRoundSteps) {
    EXPECT_EQ(nice_ticks(0, 100, 4), (std::vector<std::uint64_t>{0, 50, 100}));
    EXPECT_EQ(nice_ticks(5, 6, 4), (std::vector<std::uint64_t>{5, 6})) << "never below 1";
    const auto t = nice_ticks(148639687, 211677606, 4);
    ASSERT_GE(t.size(), 3u);
    EXPECT_LE(t.front(), 148639687u);
    EXPECT_GE(t.back(), 211677606u);
    EXPECT_EQ(t[1] - t[0], 20000000u);
    EXPECT_LE(t.size(), 6u);
    for (std::size_t i = 1; i < t.size(); ++i)
        EXPECT_EQ(t[i] - t[i - 1], t[1] - t[0]);
}

}  // namespace cgbench::report::svg
