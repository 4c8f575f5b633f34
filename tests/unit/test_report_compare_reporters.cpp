// The compare reporters in every format, with a hostile benchmark name: the structure of
// each document must survive (table columns, XML elements, JSON values).

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "compare/comparison.hpp"
#include "report/compare_summary.hpp"
#include "report/formats.hpp"
#include "report/reporter.hpp"
#include "run_fixtures.hpp"

namespace cgbench::report {

using namespace testing_fixtures;
using compare::Comparison;

namespace {

// kHostile regresses by 5%, "calm" is unchanged, "quick" improves, "fresh" is new.
Comparison hostile_comparison(bool forced = false) {
    const auto base = run("base-id", {bench(kHostile, 1000, 1'000'000), bench("calm", 10, 5000),
                                      bench("quick", 10, 900'000)});
    auto head = run("head-id", {bench(kHostile, 1000, 1'050'000), bench("calm", 10, 5000),
                                bench("quick", 10, 800'000), bench("fresh", 10, 7)});
    compare::CompareOptions options;
    if (forced) {
        head.fingerprint.cpu_baseline = "native";
        options.force = true;
    }
    return compare::compare_runs(base, compare::side_of(base, "main"), head,
                                 compare::side_of(head, "HEAD"), options);
}

std::string render(std::string_view format, const Comparison& c, bool color = false) {
    return find_format(format, Model::Compare, "compare").compare()->render(c, RenderOptions{color, false});
}

}  // namespace

TEST(CompareReporters, SummaryLine) {
    const auto c = hostile_comparison();
    EXPECT_EQ(summary_line(c, [](std::string_view s) { return std::string(s); }),
              "1 of 4 benchmarks got more expensive (worst: +5.00% " + kHostile +
                  "); 1 improved, 1 added");
    EXPECT_EQ(gate_word(c), "FAIL");
}

TEST(CompareReporters, MarkdownKeepsItsTablesAndEscapesNames) {
    const std::string md = render("markdown", hostile_comparison());
    EXPECT_EQ(md.find("<img"), std::string::npos) << md;
    EXPECT_EQ(md.find("**x**"), std::string::npos) << "bold injected";
    std::size_t rows = 0;
    std::size_t start = 0;
    while ((start = md.find("| &lt;img", start)) != std::string::npos) {
        const std::string row = md.substr(start, md.find('\n', start) - start);
        // The changed-benchmarks table has 5 columns, the details table 8.
        const std::size_t pipes = unescaped_pipes(row);
        EXPECT_TRUE(pipes == 6 || pipes == 9) << row;
        ++rows;
        ++start;
    }
    EXPECT_EQ(rows, 2u) << md;
    EXPECT_NE(md.find("**REGRESSION**"), std::string::npos);
    EXPECT_NE(md.find("<details>"), std::string::npos);
    EXPECT_EQ(occurrences(md, "<details>"), occurrences(md, "</details>"));
    EXPECT_EQ(md.find("| calm |"), md.rfind("| calm |")) << "unchanged only in the details";
}

TEST(CompareReporters, JunitHasOneFailurePerRegressionAndStaysWellFormed) {
    const std::string xml = render("junit", hostile_comparison());
    EXPECT_EQ(xml.find("<img"), std::string::npos);
    EXPECT_EQ(occurrences(xml, "<failure "), 1u) << xml;
    EXPECT_EQ(occurrences(xml, "</failure>"), 1u);
    EXPECT_EQ(occurrences(xml, "<testcase "), 4u);
    EXPECT_EQ(occurrences(xml, "</testcase>"), 4u);
    EXPECT_NE(xml.find("name=\"&lt;img src=x onerror=alert(1)&gt;|**x**\""), std::string::npos)
        << xml;
    EXPECT_NE(xml.find("tests=\"4\" failures=\"1\""), std::string::npos);
    // Every attribute value is quoted and free of raw < or ".
    for (std::size_t at = xml.find("=\""); at != std::string::npos; at = xml.find("=\"", at + 1)) {
        const auto end = xml.find('"', at + 2);
        ASSERT_NE(end, std::string::npos);
        const std::string value = xml.substr(at + 2, end - at - 2);
        EXPECT_EQ(value.find('<'), std::string::npos) << value;
    }
}

TEST(CompareReporters, JsonIsTheModel) {
    const auto doc = nlohmann::json::parse(render("json", hostile_comparison()));
    EXPECT_EQ(doc["schema"], "cgbench-compare/1");
    EXPECT_EQ(doc["passed"], false);
    EXPECT_EQ(doc["exit_code"], 1);
    EXPECT_EQ(doc["summary"]["regressions"], 1);
    EXPECT_EQ(doc["summary"]["added"], 1);
    const auto& b = doc["benchmarks"][0];
    EXPECT_EQ(b["name"], kHostile);
    EXPECT_EQ(b["verdict"], "regression");
    EXPECT_EQ(b["fails_gate"], true);
    EXPECT_EQ(b["changes"][0]["metric"], "cost");
    EXPECT_EQ(b["changes"][0]["delta"], 50'000);
    EXPECT_DOUBLE_EQ(b["changes"][0]["relative"].get<double>(), 0.05);
    EXPECT_DOUBLE_EQ(b["changes"][0]["threshold"]["relative"].get<double>(), 0.01);
    EXPECT_EQ(doc["base"]["run_id"], "base-id");
    EXPECT_EQ(doc["forced"], false);
}

TEST(CompareReporters, ConsoleListsChangesAlignedAndColoursOnlyWhenAsked) {
    const auto c = hostile_comparison();
    const std::string plain = render("console", c);
    EXPECT_EQ(plain.find('\033'), std::string::npos);
    EXPECT_NE(plain.find("REGRESSION"), std::string::npos);
    EXPECT_NE(plain.find("1 benchmark unchanged"), std::string::npos) << plain;
    EXPECT_NE(plain.find("FAIL  1 of 4 benchmarks"), std::string::npos) << plain;
    EXPECT_NE(render("console", c, true).find("\033[31;1m"), std::string::npos);
}

TEST(CompareReporters, AForcedComparisonWarnsInEveryFormat) {
    const auto c = hostile_comparison(true);
    for (const std::string_view f : {"console", "markdown", "json", "junit"}) {
        const std::string text = render(f, c);
        EXPECT_NE(text.find("CPU baseline: portable vs native"), std::string::npos) << text;
        EXPECT_NE(text.find("--force"), std::string::npos) << text;
    }
    EXPECT_NE(render("markdown", c).find("> [!WARNING]"), std::string::npos);
    EXPECT_EQ(nlohmann::json::parse(render("json", c))["forced"], true);
    EXPECT_NE(render("junit", c).find("<system-err>WARNING"), std::string::npos);
}

TEST(CompareReporters, NoBaselineIsANoteInEveryFormat) {
    const auto head = run("head-id", {bench(kHostile, 1000, 1'050'000), bench("calm", 10, 5000)});
    const auto c = compare::compare_to_nothing(head, compare::side_of(head, "HEAD"), {},
                                               "the merge base abc has no cgbench.toml");
    const std::string note =
        "No baseline: the merge base abc has no cgbench.toml; every benchmark is reported as added";
    EXPECT_NE(render("console", c).find("note: " + note), std::string::npos);
    EXPECT_NE(render("markdown", c).find("> [!NOTE]\n> " + note), std::string::npos)
        << render("markdown", c);
    EXPECT_NE(render("junit", c).find("<property name=\"note\" value=\"" + note + "\"/>"),
              std::string::npos);
    const auto j = nlohmann::json::parse(render("json", c));
    EXPECT_EQ(j["has_baseline"], false);
    EXPECT_EQ(j["notes"][0], note);
    EXPECT_EQ(j["base"]["label"], "none");
    EXPECT_EQ(summary_line(c, [](std::string_view s) { return std::string(s); }),
              "No benchmark got more expensive; 2 added");
}

TEST(CompareReporters, RecordedThresholdsAreNamedWithTheGate) {
    const auto base = run("b", {bench("a", 1000, 100'000)});
    auto head = run("h", {bench("a", 1000, 100'000)});
    head.benchmarks[0].threshold = "5%";
    const auto c = compare::compare_runs(base, compare::side_of(base, "b"), head,
                                         compare::side_of(head, "h"), {});
    EXPECT_EQ(thresholds_description(c), "cost +1.00% and 1,000; 5% recorded for 1 benchmark in HEAD");
    EXPECT_EQ(nlohmann::json::parse(render("json", c))["recorded_thresholds"]["5%"], 1);
}

TEST(CompareReporters, NothingChanged) {
    const auto r = run("b", {bench("a", 1000)});
    const auto c =
        compare::compare_runs(r, compare::side_of(r, "b"), r, compare::side_of(r, "h"), {});
    EXPECT_TRUE(c.passed());
    EXPECT_NE(render("markdown", c).find("No benchmark changed by 0.1% or more."),
              std::string::npos);
    EXPECT_NE(render("console", c).find("PASS  No benchmark got more expensive; 1 unchanged"),
              std::string::npos);
}

}  // namespace cgbench::report
