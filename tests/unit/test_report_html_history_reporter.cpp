// The HTML history page: hostile names from the database stay text, the markup is
// well-formed, every benchmark has a summary row linking to its chart, and nothing loads
// from elsewhere or runs.

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "history_fixtures.hpp"
#include "markup_check.hpp"
#include "report/html_history_reporter.hpp"
#include "run_fixtures.hpp"

namespace cgbench::report {

using testing_fixtures::keyed_point;
using testing_fixtures::kHostile;
using testing_fixtures::series_of;
using testing_markup::check_html;
using testing_markup::check_xml;
using testing_markup::svg_fragments;

namespace {

const std::string kScript = "</script><script>document.title='pwned'</script>";
const std::string kBadUtf8 = "bad \xff\xfe utf8 \xc3";
const std::string kTitle = "</title></svg><svg onload=alert(1)>";

HtmlHistory history(std::vector<store::BenchmarkSeries> series) {
    return {"/tmp/h.db", "2026-11-22T03:15:00Z", 50, std::nullopt, std::move(series)};
}

// Three benchmarks named after attacks, whose runs, commits, branches and keys are too.
HtmlHistory hostile_history() {
    std::vector<store::BenchmarkSeries> all;
    for (const auto& name : {kHostile, kScript, kBadUtf8}) {
        auto a = keyed_point(0, 1000, kTitle);
        auto b = keyed_point(1, 1200, kTitle);
        b.point.git.branch = kHostile;
        b.point.git.commit = kScript;
        b.point.run_id = kTitle;
        all.push_back(series_of(name, {a, b}));
    }
    auto h = history(std::move(all));
    h.database = "/tmp/<b>db\xff.db";
    h.filter = kHostile;
    return h;
}

std::size_t count(const std::string& text, const std::string& what) {
    std::size_t n = 0;
    for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1))
        ++n;
    return n;
}

}  // namespace

TEST(HtmlHistoryReporter, HostileStringsStayText) {
    const std::string html = render_html_history(hostile_history());
    EXPECT_EQ(check_html(html), "");
    for (const auto& raw : {kHostile, kScript, kBadUtf8, kTitle, std::string("<b>db")}) {
        EXPECT_EQ(html.find(raw), std::string::npos) << raw;
    }
    EXPECT_EQ(html.find("<script"), std::string::npos);
    EXPECT_EQ(html.find("<img"), std::string::npos);
    EXPECT_NO_THROW((void)nlohmann::json(html).dump()) << "the page is valid UTF-8";
    EXPECT_GE(count(html, "&lt;img src=x onerror=alert(1)&gt;|**x**"), 3u);
    EXPECT_GE(count(html, "&lt;/script&gt;&lt;script&gt;document.title=&#39;pwned&#39;"), 2u);
    EXPECT_GE(count(html, "bad \xef\xbf\xbd\xef\xbf\xbd utf8 \xef\xbf\xbd"), 2u);
    const auto svgs = svg_fragments(html);
    EXPECT_EQ(svgs.size(), 6u) << "a sparkline and a chart per benchmark";
    for (const auto svg : svgs)
        EXPECT_EQ(check_xml(svg), "") << svg;
}

TEST(HtmlHistoryReporter, SelfContained) {
    const std::string html = render_html_history(
        history({series_of("x", {keyed_point(0, 10, "aaaa"), keyed_point(1, 12, "bbbb")})}));
    EXPECT_TRUE(html.starts_with("<!DOCTYPE html>\n<html lang=\"en\">"));
    EXPECT_NE(html.find("<meta charset=\"utf-8\">"), std::string::npos);
    EXPECT_NE(html.find("content=\"default-src 'none'; style-src 'unsafe-inline'\""),
              std::string::npos)
        << "the page may load and run nothing";
    std::string rest = html;  // every URL but the SVG namespace
    const std::string ns = "xmlns=\"http://www.w3.org/2000/svg\"";
    for (auto at = rest.find(ns); at != std::string::npos; at = rest.find(ns))
        rest.erase(at, ns.size());
    EXPECT_EQ(rest.find("http:"), std::string::npos);
    EXPECT_EQ(rest.find("https:"), std::string::npos);
    EXPECT_EQ(rest.find("//"), std::string::npos);
    EXPECT_EQ(html.find("src="), std::string::npos);
    EXPECT_EQ(html.find("@import"), std::string::npos);
    EXPECT_EQ(html.find("url("), std::string::npos);
}

TEST(HtmlHistoryReporter, SummaryLinksToEachChart) {
    auto steady = series_of("parse/small", {keyed_point(0, 1000), keyed_point(1, 1000)});
    auto grows = series_of(
        "parse/large", {keyed_point(0, 200000), keyed_point(1, 210000), keyed_point(2, 231000)});
    const std::string html = render_html_history(history({grows, steady}));
    EXPECT_EQ(check_html(html), "");
    EXPECT_NE(html.find("<a href=\"#b0\">parse/large</a>"), std::string::npos);
    EXPECT_NE(html.find("<a href=\"#b1\">parse/small</a>"), std::string::npos);
    EXPECT_NE(html.find("<section class=\"bench\" id=\"b0\">"), std::string::npos);
    EXPECT_NE(html.find("<section class=\"bench\" id=\"b1\">"), std::string::npos);
    // parse/large: 231,000, Ir 184,800, +10% vs previous, +15.5% vs first.
    const auto row = html.substr(html.find("<a href=\"#b0\">"));
    const auto end = row.find("</tr>");
    EXPECT_LT(row.find("<td class=\"num\">231,000</td>"), end) << row.substr(0, end);
    EXPECT_LT(row.find("<td class=\"num\">184,800</td>"), end);
    EXPECT_LT(row.find("<span class=\"up\">+10.00%</span>"), end);
    EXPECT_LT(row.find("<span class=\"up\">+15.50%</span>"), end);
    EXPECT_LT(row.find("<svg "), end) << "a sparkline";
    EXPECT_NE(html.find("<span class=\"same\">0.00%</span>"), std::string::npos);
    EXPECT_NE(html.find("2 benchmarks · 3 runs · the last 50 results of each"), std::string::npos);
    EXPECT_NE(html.find("latest <b>231,000</b> (Ir 184,800) · 2026-11-03 03:15, commit "
                        "<code>c024567</code> · <span class=\"up\">+10.00%</span> vs previous · "
                        "<span class=\"up\">+15.50%</span> vs first shown (2026-11-01 03:15, "
                        "commit <code>c004567</code>) · 3 results</p>"),
              std::string::npos);
}

TEST(HtmlHistoryReporter, FingerprintsAndFailuresAreExplained) {
    auto s = series_of("x", {keyed_point(0, 1000, "aaaa"), keyed_point(1, std::nullopt, "aaaa"),
                             keyed_point(2, 3000, "bbbb")});
    const std::string html = render_html_history(history({s}));
    EXPECT_EQ(check_html(html), "");
    EXPECT_NE(html.find("Measured with 2 different fingerprints, oldest first:<span class=\"sw "
                        "k0\"></span><code>aaaa</code> (2 results)<span class=\"sw "
                        "k1\"></span><code>bbbb</code> (1 result)</p>"),
              std::string::npos);
    EXPECT_NE(html.find("<span class=\"failed\">1 failed</span>"), std::string::npos);
    EXPECT_NE(html.find("2 fingerprints"), std::string::npos);
    EXPECT_NE(html.find("fingerprint changed: not comparable across it"), std::string::npos);
    EXPECT_NE(html.find("failed (no cost)"), std::string::npos);
    EXPECT_NE(html.find("<summary>All 3 results, newest first</summary>"), std::string::npos);
    // Latest 3,000 has nothing comparable before it.
    EXPECT_NE(html.find("· nothing comparable before it (new fingerprint)"), std::string::npos);
    const auto row = html.substr(html.find("<a href=\"#b0\">"));
    EXPECT_LT(row.find("<td class=\"num\">-</td><td class=\"num\">-</td>"), row.find("</tr>"));
}

TEST(HtmlHistoryReporter, LatestFailedIsShownAsSuch) {
    auto s = series_of("x", {keyed_point(0, 1000), keyed_point(1, std::nullopt)});
    const std::string html = render_html_history(history({s}));
    EXPECT_EQ(check_html(html), "");
    EXPECT_NE(html.find("<td class=\"num\"><span class=\"failed\">failed</span></td>"),
              std::string::npos);
    EXPECT_NE(html.find("latest <b><span class=\"failed\">failed</span></b>"), std::string::npos);
}

TEST(HtmlHistoryReporter, ASingleResultAndNoResults) {
    const std::string one = render_html_history(history({series_of("one", {keyed_point(0, 7)})}));
    EXPECT_EQ(check_html(one), "");
    EXPECT_NE(one.find("1 benchmark · 1 run ·"), std::string::npos);
    EXPECT_NE(one.find("1 result</p>"), std::string::npos);
    EXPECT_NE(one.find("<summary>The result</summary>"), std::string::npos);
    const std::string none = render_html_history(history({}));
    EXPECT_EQ(check_html(none), "");
    EXPECT_NE(none.find("No results."), std::string::npos);
}

}  // namespace cgbench::report
