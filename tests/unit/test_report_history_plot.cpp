// One benchmark's chart and sparkline: a line per stretch of one fingerprint, the break
// marked, failed results as crosses, a single result drawn, the numbers next to the plot.

#include <gtest/gtest.h>

#include "history_fixtures.hpp"
#include "markup_check.hpp"
#include "report/history_plot.hpp"

namespace cgbench::report {

using testing_fixtures::keyed_point;
using testing_fixtures::series_of;
using testing_markup::check_xml;

namespace {

std::size_t count(const std::string& text, const std::string& what) {
    std::size_t n = 0;
    for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1))
        ++n;
    return n;
}

const FingerprintColours kColours = {{"aaaa", 0}, {"bbbb", 1}};

store::BenchmarkSeries changed_fingerprint() {
    return series_of("x", {keyed_point(0, 1000, "aaaa"), keyed_point(1, 1100, "aaaa"),
                           keyed_point(2, std::nullopt, "aaaa"), keyed_point(3, 5000, "bbbb"),
                           keyed_point(4, 5500, "bbbb"), keyed_point(5, 6050, "bbbb")});
}

}  // namespace

TEST(HistoryPlot, SummaryComparesWithinOneFingerprint) {
    const auto s = changed_fingerprint();
    const auto sum = summarize(s);
    ASSERT_NE(sum.latest, nullptr);
    EXPECT_EQ(sum.latest, &s.points.back());
    ASSERT_TRUE(sum.vs_previous.has_value());
    EXPECT_DOUBLE_EQ(*sum.vs_previous, 0.1);
    ASSERT_TRUE(sum.vs_first.has_value());
    EXPECT_DOUBLE_EQ(*sum.vs_first, 0.21) << "against 5000, the first with the same key";
    EXPECT_EQ(sum.first, &s.points[3]);
    EXPECT_EQ(sum.failed, 1u);
    EXPECT_EQ(sum.fingerprints, 2u);
}

TEST(HistoryPlot, SummaryOfAFailedOrLoneResult) {
    const auto failed = series_of("x", {keyed_point(0, 1000), keyed_point(1, std::nullopt)});
    const auto a = summarize(failed);
    EXPECT_EQ(a.latest, &failed.points[1]);
    EXPECT_FALSE(a.vs_previous.has_value());
    EXPECT_FALSE(a.vs_first.has_value());
    const auto lone = series_of("x", {keyed_point(0, 1000)});
    const auto b = summarize(lone);
    EXPECT_FALSE(b.vs_previous.has_value());
    EXPECT_FALSE(b.vs_first.has_value());
    EXPECT_EQ(b.first, nullptr);
}

TEST(HistoryPlot, AFingerprintChangeBreaksTheLine) {
    const std::string svg = history_chart(changed_fingerprint(), kColours);
    EXPECT_EQ(check_xml(svg), "") << svg;
    EXPECT_EQ(count(svg, "<polyline"), 2u) << svg;
    EXPECT_EQ(count(svg, "class=\"line k0\""), 1u);
    EXPECT_EQ(count(svg, "class=\"line k1\""), 1u);
    EXPECT_EQ(count(svg, "class=\"break\""), 1u);
    EXPECT_EQ(count(svg, ">fingerprint changed</text>"), 1u);
    EXPECT_NE(svg.find("fingerprint aaaa -&gt; bbbb"), std::string::npos);
    // The old line ends at 1,100 and the new one starts at 5,000: never joined.
    const auto first_line = svg.substr(svg.find("<polyline"));
    EXPECT_EQ(count(first_line.substr(0, first_line.find("/>")), ","), 2u) << "two points";
}

TEST(HistoryPlot, FailedResultsAreCrosses) {
    const std::string svg = history_chart(changed_fingerprint(), kColours);
    EXPECT_EQ(count(svg, "class=\"failed\""), 1u);
    const auto cross = svg.substr(svg.find("class=\"failed\""));
    EXPECT_NE(cross.find("<title>run 20261122T020000Z-run2\n2026-11-03 03:15"), std::string::npos)
        << cross;
    EXPECT_LT(cross.find("\nfailed"), cross.find("</title>"));
    EXPECT_EQ(count(svg, "<circle"), 5u) << "one dot per ok result";
}

TEST(HistoryPlot, AxesAreLabelled) {
    const std::string svg = history_chart(changed_fingerprint(), kColours);
    EXPECT_NE(svg.find(">cost (lower is better)</text>"), std::string::npos);
    EXPECT_NE(svg.find(">results, oldest to newest: commit and date</text>"), std::string::npos);
    EXPECT_NE(svg.find(">c054567</text>"), std::string::npos) << "short commit";
    EXPECT_NE(svg.find(">2026-11-06</text>"), std::string::npos) << "date";
    EXPECT_NE(svg.find(">6,050</text>"), std::string::npos) << "the latest value";
    EXPECT_NE(svg.find(">4,000</text>"), std::string::npos) << "a y tick";
}

TEST(HistoryPlot, ASingleResultIsDrawn) {
    const std::string svg = history_chart(series_of("one", {keyed_point(0, 123456)}), kColours);
    EXPECT_EQ(check_xml(svg), "") << svg;
    EXPECT_EQ(count(svg, "<circle"), 1u);
    EXPECT_EQ(count(svg, "<polyline"), 0u);
    EXPECT_NE(svg.find(">123,456</text>"), std::string::npos);
    EXPECT_EQ(svg.find("nan"), std::string::npos);
    EXPECT_EQ(svg.find("inf"), std::string::npos);
    const std::string spark = sparkline(series_of("one", {keyed_point(0, 5)}), kColours);
    EXPECT_EQ(check_xml(spark), "") << spark;
    EXPECT_EQ(spark.find("nan"), std::string::npos);
}

TEST(HistoryPlot, OnlyFailedResults) {
    const auto s = series_of("bad", {keyed_point(0, std::nullopt), keyed_point(1, std::nullopt)});
    const std::string svg = history_chart(s, kColours);
    EXPECT_EQ(check_xml(svg), "") << svg;
    EXPECT_NE(svg.find(">no successful result</text>"), std::string::npos);
    EXPECT_EQ(count(svg, "class=\"failed\""), 2u);
    EXPECT_EQ(check_xml(sparkline(s, kColours)), "");
}

TEST(HistoryPlot, ManyResultsKeepTheLabelsApart) {
    std::vector<store::KeyedPoint> points;
    for (int i = 0; i < 60; ++i)
        points.push_back(keyed_point(i, 1000 + static_cast<std::uint64_t>(i)));
    const std::string svg = history_chart(series_of("many", points), kColours);
    EXPECT_EQ(check_xml(svg), "");
    const auto labels = count(svg, "<text x=") - count(svg, "class=\"caption\"");
    EXPECT_LE(labels, 2 * 9 + 6 + 1) << "at most 9 commit/date pairs, the y ticks, the value";
    EXPECT_NE(svg.find(">c59456"), std::string::npos) << "the newest is labelled";
}

TEST(HistoryPlot, SparklineBreaksToo) {
    const std::string svg = sparkline(changed_fingerprint(), kColours);
    EXPECT_EQ(check_xml(svg), "") << svg;
    EXPECT_EQ(count(svg, "<polyline"), 2u);
    EXPECT_EQ(count(svg, "class=\"break\""), 1u);
    EXPECT_EQ(count(svg, "class=\"failed\""), 1u);
}

TEST(HistoryPlot, Labels) {
    GitInfo git;
    EXPECT_EQ(short_commit(git), "-");
    git.commit = "0123456789";
    git.dirty = true;
    EXPECT_EQ(short_commit(git), "0123456+");
    EXPECT_EQ(short_time("2026-11-22T03:15:00Z"), "2026-11-22 03:15");
    EXPECT_EQ(short_time("odd"), "odd");
}

}  // namespace cgbench::report
