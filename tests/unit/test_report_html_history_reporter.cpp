// The HTML history page: hostile names from the database stay text, the markup is
// well-formed, the one script is the page's own (its CSP hash matches), a line per branch,
// steps marked and listed, epochs explicit, commits linked when a URL is known.

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "history/steps.hpp"
#include "history_fixtures.hpp"
#include "markup_check.hpp"
#include "report/escape.hpp"
#include "report/flame_svg.hpp"
#include "report/html_history_reporter.hpp"
#include "report/html_script.hpp"
#include "util/sha256.hpp"

namespace cgbench::report {

using testing_fixtures::flat;
using testing_fixtures::HistoryBuilder;
using testing_fixtures::kHostile;
using testing_fixtures::occurrences;
using testing_fixtures::operator+;
using testing_markup::check_html;
using testing_markup::check_xml;
using testing_markup::svg_fragments;

namespace {

const std::string kScript = "</script><script>document.title='pwned'</script>";
const std::string kBadUtf8 = "bad \xff\xfe utf8 \xc3";
const std::string kTitle = "</title></svg><svg onload=alert(1)>";

HtmlHistory page_of(const history::History& h) {
    HtmlHistory p;
    p.database = "/tmp/h.db";
    p.generated = "2026-11-22T03:15:00Z";
    p.limit = 50;
    p.history = &h;
    p.default_branch = history::default_branch(h, std::nullopt);
    p.steps = history::find_all_steps(h, {p.default_branch, std::nullopt, false});
    return p;
}

// The text of the page's inline script (the one without a type).
std::string inline_script(const std::string& html) {
    const auto open = html.find("<script>");
    if (open == std::string::npos) return {};
    const auto end = html.find("</script>", open);
    return html.substr(open + 8, end - open - 8);
}

// main: 1000 x3, 1100 x3 (a +10% step at run 4: the feature run is run 2), a feature branch,
// a dirty run.
history::History with_step(std::string name = "parse/large") {
    HistoryBuilder b;
    std::vector<std::size_t> runs;
    for (int i = 0; i < 6; ++i) {
        runs.push_back(b.add_run());
        if (i == 1) runs.push_back(b.add_run("feature/x"));
        if (i == 4) runs.push_back(b.add_run("main", true));
    }
    b.series(std::move(name), runs, {1000, 1000, 2000, 1000, 1100, 1100, 5000, 1100});
    return b.take();
}

}  // namespace

TEST(HtmlHistoryReporter, HostileStringsStayText) {
    HistoryBuilder b;
    std::vector<std::size_t> runs;
    for (int i = 0; i < 3; ++i) {
        runs.push_back(b.add_run(i == 2 ? kHostile : "main", false,
                                 i == 2 ? std::optional<std::string>(kScript) : std::nullopt));
        b.get().runs.back().id = kTitle + std::to_string(i);
    }
    for (const auto& name : {kHostile, kScript, kBadUtf8})
        b.series(name, runs, {1000, 1200, 1200});
    b.get().keys[0] = kTitle;
    const auto h = b.take();
    auto page = page_of(h);
    page.database = "/tmp/<b>db\xff.db";
    page.filter = kHostile;
    page.commits[kScript] = {kScript, kHostile, "2026"};
    page.commit_url = "https://example.org/c/{commit}";
    const std::string html = render_html_history(page);
    EXPECT_EQ(check_html(html), "");
    for (const auto& raw : {kHostile, kScript, kBadUtf8, kTitle, std::string("<b>db")}) {
        EXPECT_EQ(html.find(raw), std::string::npos) << raw;
    }
    EXPECT_EQ(occurrences(html, "<script"), 2u) << "the data block and the page's own script";
    EXPECT_EQ(html.find("<img"), std::string::npos);
    EXPECT_NO_THROW((void)nlohmann::json(html).dump()) << "the page is valid UTF-8";
    EXPECT_GE(occurrences(html, "&lt;img src=x onerror=alert(1)&gt;|**x**"), 3u);
    EXPECT_GE(occurrences(html, "&lt;/script&gt;&lt;script&gt;document.title=&#39;pwned&#39;"), 2u);
    EXPECT_GE(occurrences(html, "bad \xef\xbf\xbd\xef\xbf\xbd utf8 \xef\xbf\xbd"), 2u);
    const auto svgs = svg_fragments(html);
    EXPECT_EQ(svgs.size(), 6u) << "a sparkline and a chart per benchmark";
    for (const auto svg : svgs)
        EXPECT_EQ(check_xml(svg), "") << svg;
    // The data block parses back to what went in.
    const auto open = html.find("<script type=\"application/json\" id=\"cgbench-data\">");
    ASSERT_NE(open, std::string::npos);
    const auto start = html.find('>', open) + 1;
    const auto data =
        nlohmann::json::parse(html.substr(start, html.find("</script>", start) - start));
    EXPECT_EQ(data["commits"][kScript], kScript);
    EXPECT_EQ(data["charts"].size(), 3u);
}

// Flame graphs given (report --flame) are inlined after the steps under their escaped
// names, in order; the page stays well-formed; none given, no section.
TEST(HtmlHistoryReporter, FlameGraphsAreInlinedUnderEscapedNames) {
    const auto h = with_step();
    auto page = page_of(h);
    EXPECT_EQ(render_html_history(page).find("flame-graphs"), std::string::npos);
    CallTree head("bench"), base("bench");
    head.add_self(head.child(CallTree::kRoot, "<hot>"), 300);
    base.add_self(base.child(CallTree::kRoot, "<hot>"), 100);
    const auto svg = render_flame_svg_element({"parse/large", "", &head, &base});
    page.flames = {{kHostile, svg}, {"second", svg}};
    const std::string html = render_html_history(page);
    EXPECT_EQ(check_html(html), "");
    EXPECT_EQ(html.find(kHostile), std::string::npos);
    const auto first =
        html.find("<figcaption>" + markup_escape(kHostile) + "</figcaption>\n" + svg);
    ASSERT_NE(first, std::string::npos) << "the name escaped, the graph inlined as drawn";
    EXPECT_GT(html.find("<figcaption>second</figcaption>"), first);
    EXPECT_GT(first, html.find("id=\"steps\""));
    EXPECT_LT(first, html.find("<section"));
    EXPECT_EQ(occurrences(html, "<script"), 2u) << "no script came with the graphs";
}

TEST(HtmlHistoryReporter, SelfContainedAndItsScriptAllowedByHash) {
    const auto h = with_step();
    const std::string html = render_html_history(page_of(h));
    EXPECT_TRUE(html.starts_with("<!DOCTYPE html>\n<html lang=\"en\">"));
    EXPECT_NE(html.find("<meta charset=\"utf-8\">"), std::string::npos);
    const auto script = inline_script(html);
    ASSERT_FALSE(script.empty());
    EXPECT_EQ(util::csp_hash(script), page_script_hash());
    EXPECT_NE(html.find("content=\"default-src 'none'; style-src 'unsafe-inline'; script-src '" +
                        util::csp_hash(script) + "'\""),
              std::string::npos)
        << "only this script may run, and nothing may load";
    std::string rest = html;  // every URL but the SVG namespaces
    for (const std::string ns :
         {"xmlns=\"http://www.w3.org/2000/svg\"", "\"http://www.w3.org/2000/svg\""}) {
        for (auto at = rest.find(ns); at != std::string::npos; at = rest.find(ns))
            rest.erase(at, ns.size());
    }
    EXPECT_EQ(rest.find("http:"), std::string::npos);
    EXPECT_EQ(rest.find("https:"), std::string::npos) << "no commit URL known: no links";
    EXPECT_EQ(html.find("src="), std::string::npos);
    EXPECT_EQ(html.find("@import"), std::string::npos);
    EXPECT_EQ(html.find("url("), std::string::npos);
    EXPECT_EQ(script.find("innerHTML"), std::string::npos) << "data goes in as text";
}

TEST(HtmlHistoryReporter, ALinePerBranchAndDirtyRunsOffTheLine) {
    const auto h = with_step();
    const std::string html = render_html_history(page_of(h));
    EXPECT_EQ(check_html(html), "");
    EXPECT_NE(html.find("<span class=\"sw br0\"></span>main (default)"), std::string::npos);
    EXPECT_NE(html.find("<span class=\"sw br1\"></span>feature/x"), std::string::npos);
    const auto chart = svg_fragments(html).at(1);
    EXPECT_EQ(occurrences(std::string(chart), "class=\"line br0\""), 1u) << chart;
    EXPECT_EQ(occurrences(std::string(chart), "class=\"dot dirty br0\""), 1u);
    EXPECT_NE(chart.find("class=\"dot br1\""), std::string::npos) << "the feature branch's point";
    EXPECT_NE(html.find(".hide-br1 .br1{display:none}"), std::string::npos) << "switchable";
}

TEST(HtmlHistoryReporter, StepsAreMarkedAndListed) {
    const auto h = with_step();
    auto page = page_of(h);
    page.commits[HistoryBuilder::commit_of(4)] = {"parse: check every byte", "A", "2026"};
    page.commit_url = "https://github.com/o/r/commit/{commit}";
    const std::string html = render_html_history(page);
    EXPECT_EQ(check_html(html), "");
    const auto table = html.substr(html.find("<table class=\"steps\">"));
    const auto row = table.substr(0, table.find("</tr>", table.find("<tr class=\"event\">")));
    EXPECT_NE(row.find("<a href=\"https://github.com/o/r/commit/" + HistoryBuilder::commit_of(4) +
                       "\">c000000</a>"),
              std::string::npos)
        << row;
    EXPECT_NE(row.find("parse: check every byte"), std::string::npos);
    EXPECT_NE(row.find("<a href=\"#b0\">parse/large</a> <span class=\"up\">+10.00%</span> "
                       "<span class=\"badge code\">code</span>"),
              std::string::npos)
        << row;
    const auto chart = std::string(svg_fragments(html).at(1));
    EXPECT_EQ(occurrences(chart, "class=\"stepmark code\""), 1u);
    EXPECT_NE(chart.find(">+10.00% code</text>"), std::string::npos) << chart;
    EXPECT_NE(chart.find("<a href=\"https://github.com/o/r/commit/"), std::string::npos)
        << "commits under the axis link";
}

TEST(HtmlHistoryReporter, EpochsAreExplicitAndNeverCompared) {
    HistoryBuilder b;
    std::vector<std::size_t> runs;
    for (int i = 0; i < 3; ++i)
        runs.push_back(b.add_run());
    b.change_fingerprint([](Fingerprint& f) { f.cpu_baseline = "native"; });
    for (int i = 0; i < 2; ++i)
        runs.push_back(b.add_run());
    b.series("x", runs, {1000, 1000, 1000, 1500, 1530});
    const auto h = b.take();
    const std::string html = render_html_history(page_of(h));
    EXPECT_EQ(check_html(html), "");
    EXPECT_NE(html.find("<h2 id=\"fingerprints\">Fingerprints</h2>"), std::string::npos);
    EXPECT_NE(html.find("CPU baseline: portable vs native"), std::string::npos);
    const auto row = html.substr(html.find("<tr data-name=\"x\">"));
    const auto end = row.find("</tr>");
    EXPECT_LT(row.find("<span class=\"up\">+2.00%</span>"), end) << "since the epoch's start";
    EXPECT_EQ(row.substr(0, end).find("+53.00%"), std::string::npos) << "never across epochs";
    const auto chart = std::string(svg_fragments(html).at(1));
    EXPECT_EQ(occurrences(chart, "class=\"break\""), 1u);
    EXPECT_NE(chart.find(">fingerprint 2</text>"), std::string::npos) << chart;
    EXPECT_NE(html.find("<span class=\"badge environment\">environment</span>"), std::string::npos);
}

TEST(HtmlHistoryReporter, TheAxisIsChosenVisibly) {
    // One branch, one fingerprint, 0% to +10%: the relative axis runs to a +10% tick.
    const auto h = HistoryBuilder::simple(flat(3, 1000) + flat(3, 1100));
    auto page = page_of(h);
    const auto relative = render_html_history(page);
    EXPECT_NE(relative.find("% vs the first result of its fingerprint"), std::string::npos);
    EXPECT_NE(relative.find(">+10%</text>"), std::string::npos) << "ticks in %";
    page.axis = Axis::Zero;
    const auto zero = render_html_history(page);
    EXPECT_NE(zero.find("cost (from zero; lower is better)"), std::string::npos);
    EXPECT_NE(zero.find(">0</text>"), std::string::npos);
}

TEST(HtmlHistoryReporter, ManyResultsListOnlyWhatChanged) {
    const auto h = HistoryBuilder::simple(flat(150, 1000) + flat(150, 1001));
    const std::string html = render_html_history(page_of(h));
    EXPECT_EQ(check_html(html), "");
    EXPECT_NE(html.find("<summary>4 of 300 results, newest commit first: where something "
                        "changed, and the first and latest of each branch</summary>"),
              std::string::npos);
    EXPECT_EQ(occurrences(std::string(svg_fragments(html).at(1)), "<circle"), 1u)
        << "300 results: no dot each, the latest only";
}

TEST(HtmlHistoryReporter, LatestFailedAndASingleResult) {
    const auto failed = HistoryBuilder::simple({1000, std::nullopt});
    const auto html = render_html_history(page_of(failed));
    EXPECT_EQ(check_html(html), "");
    EXPECT_NE(html.find("<td class=\"num\"><span class=\"failed\">failed</span></td>"),
              std::string::npos);
    EXPECT_NE(html.find("<span class=\"failed\">1 failed</span>"), std::string::npos);
    const auto one = render_html_history(page_of(HistoryBuilder::simple({7})));
    EXPECT_EQ(check_html(one), "");
    EXPECT_NE(one.find("1 benchmark · 1 run ·"), std::string::npos);
    EXPECT_NE(one.find("<summary>The result</summary>"), std::string::npos);
    history::History none;
    const auto empty = render_html_history(page_of(none));
    EXPECT_EQ(check_html(empty), "");
    EXPECT_NE(empty.find("No results."), std::string::npos);
}

}  // namespace cgbench::report
