// Mispredicted branches (--branch-sim) in every output format of a run and in every exporter:
// the summary's column (Bcm, what the cost weighs), the cost's formula, the events, the
// weights' misprediction weight.

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "report/exporter.hpp"
#include "report/formats.hpp"
#include "report/reporter.hpp"
#include "run_fixtures.hpp"

namespace cgbench::report {

using namespace testing_fixtures;

namespace {

RunResult branch_run() {
    auto r = run("id", {branch_bench(kHostile, 100000), branch_bench("second", 20000),
                        failed_bench("broken")});
    r.fingerprint.branch_sim = true;
    r.fingerprint.weights = r.benchmarks[0].weights;
    return r;
}

std::string render(std::string_view format, const RunResult& r) {
    return find_format(format, Model::Run, "run").run()->render(r, {});
}

// 100000 / 200 mispredicted conditional branches (and as many indirect ones, not weighed).
constexpr std::string_view kMispredicts = "500";

}  // namespace

TEST(BranchSimReport, ConsoleHasTheMispredictsColumnAndTheWeightedFormula) {
    const auto r = branch_run();
    const auto out = render("console", r);
    EXPECT_NE(out.find(" Bcm "), std::string::npos) << out;
    EXPECT_NE(out.find(kMispredicts), std::string::npos) << out;
    // Without branch simulation the column is not there.
    auto plain = run("id", {bench("x", 100000)});
    EXPECT_EQ(render("console", plain).find("Bcm"), std::string::npos);
    // One benchmark: every event with its meaning, and the cost's formula with its weight.
    auto one = r;
    one.benchmarks.resize(1);
    const auto details = render("console", one);
    for (const char* s :
         {"Bcm", "Bim", "conditional branches mispredicted", "1·L1 + 5·LL + 35·RAM + 20·Bcm"}) {
        EXPECT_NE(details.find(s), std::string::npos) << s << "\n" << details;
    }
}

TEST(BranchSimReport, MarkdownAndJunitCarryTheColumn) {
    const auto r = branch_run();
    const auto md = render("markdown", r);
    EXPECT_NE(md.find("| Bcm |"), std::string::npos) << md;
    // The separator row has a cell per column: 8 columns with Bcm.
    EXPECT_NE(md.find("|:--|:--|--:|--:|--:|--:|--:|--:|\n"), std::string::npos) << md;
    EXPECT_NE(md.find("+ 20·Bcm"), std::string::npos) << md;
    const auto xml = render("junit", r);
    EXPECT_NE(xml.find(fmt::format("Bcm={}", kMispredicts)), std::string::npos) << xml;
}

TEST(BranchSimReport, JsonHasTheEventsAndTheMispredictionWeight) {
    const auto r = branch_run();
    const auto doc = nlohmann::json::parse(render("json", r));
    const auto& b = doc["benchmarks"][0];
    EXPECT_EQ(b["events"]["Bcm"], 500);
    EXPECT_EQ(b["events"]["Bim"], 500);
    EXPECT_EQ(b["weights"]["mispredict"], 20);
    EXPECT_EQ(doc["run"]["fingerprint"]["branch_sim"], true);
}

TEST(BranchSimReport, EveryExporterHasTheMispredicts) {
    const auto r = branch_run();
    const auto bencher = nlohmann::json::parse(make_exporter(ExportFormat::Bencher)->render(r));
    EXPECT_EQ(bencher[kHostile]["mispredicts"]["value"], 500);
    const auto gab =
        nlohmann::json::parse(make_exporter(ExportFormat::GithubActionBenchmark)->render(r));
    EXPECT_NE(gab[0]["extra"].get<std::string>().find(fmt::format("Bcm {}", kMispredicts)),
              std::string::npos)
        << gab[0]["extra"];
    const auto om = make_exporter(ExportFormat::OpenMetrics)->render(r);
    EXPECT_NE(om.find("# TYPE cgbench_mispredicts gauge\n"), std::string::npos) << om;
    EXPECT_NE(om.find("cgbench_mispredicts{benchmark=\"second\"} 100\n"), std::string::npos) << om;
    // Runs without branch simulation export no such family.
    const auto plain = run("id", {bench("x", 100000)});
    EXPECT_EQ(make_exporter(ExportFormat::OpenMetrics)->render(plain).find("cgbench_mispredicts"),
              std::string::npos);
    EXPECT_FALSE(
        nlohmann::json::parse(make_exporter(ExportFormat::Bencher)->render(plain))["x"].contains(
            "mispredicts"));
}

}  // namespace cgbench::report
