// `cgbench steps` rendering: epochs per branch, events with label, change and what moved;
// JSON with the same facts; names escaped.

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "base/errors.hpp"
#include "history/steps.hpp"
#include "history_fixtures.hpp"
#include "report/formats.hpp"
#include "report/steps_reporter.hpp"

namespace cgbench::report {

using testing_fixtures::flat;
using testing_fixtures::HistoryBuilder;
using testing_fixtures::operator+;

namespace {

// search/1M steps +13.56% at commit 4; at commit 6 the CPU baseline changes (both move).
history::History history_of_steps() {
    HistoryBuilder b;
    std::vector<std::size_t> runs;
    for (int i = 0; i < 6; ++i)
        runs.push_back(b.add_run());
    b.change_fingerprint([](Fingerprint& f) { f.cpu_baseline = "native"; });
    for (int i = 0; i < 3; ++i)
        runs.push_back(b.add_run());
    b.series("search/1M", runs, flat(4, 28'757'186) + flat(2, 32'657'486) + flat(3, 33'000'000));
    b.series("sort\x1b[2J", runs, flat(6, 1'000'000) + flat(3, 1'010'000));
    return b.take();
}

// The steps reporter of the format named `format`, as `cgbench steps --format` chooses it.
std::unique_ptr<StepsReporter> make_steps_reporter(std::string_view format) {
    return find_format(format, Model::Steps, "steps").steps();
}

StepsReport report_of(const history::History& h) {
    StepsReport r;
    r.database = "/tmp/h.db";
    r.history = &h;
    r.branches = history::find_all_steps(h, {"main", std::nullopt, false});
    r.commits[HistoryBuilder::commit_of(4)] = {"search: scan every position", "A", "2026"};
    // What moved at the code step.
    auto& step = r.branches[0].events[0].steps[0];
    step.explanation = history::StepExplanation{
        {{metrics::Metric::event(metrics::Event::Ir), 20'000'000, 23'120'000}},
        true,
        {{"s.c", "tk_search", "", 100, 3'900'100, 3'900'000, 1.0}}};
    return r;
}

}  // namespace

TEST(StepsReporters, Console) {
    const auto h = history_of_steps();
    const auto out = make_steps_reporter("console")->render(report_of(h), {});
    EXPECT_NE(out.find("main (default branch): 9 commits measured"), std::string::npos) << out;
    EXPECT_NE(out.find("2 benchmarks"), std::string::npos);
    // The epochs, the second saying what changed.
    EXPECT_NE(out.find("cpu portable"), std::string::npos) << out;
    EXPECT_NE(out.find("CPU baseline: portable vs native"), std::string::npos) << out;
    // The code step, its commit, subject and what moved.
    const auto event = out.find("c000000  2026-11-01 00:04  search: scan every position");
    ASSERT_NE(event, std::string::npos) << out;
    const auto row = out.substr(out.find("search/1M", event));
    EXPECT_EQ(row.rfind("search/1M  code   28,757,186  32,657,486  +13.56%  Ir +15.60%", 0), 0u)
        << row;
    EXPECT_NE(row.find("tk_search +3,900,000 (100.0%)"), std::string::npos) << row;
    // The environment event: both benchmarks.
    EXPECT_NE(out.find("environment changed: CPU baseline: portable vs native"), std::string::npos);
    EXPECT_EQ(out.find("environment*"), std::string::npos) << "both lasted";
    EXPECT_NE(out.find("sort\\x1b[2J"), std::string::npos) << "escaped";
    EXPECT_EQ(out.find("\x1b[2J"), std::string::npos);
    EXPECT_NE(
        out.find("main: 3 steps at 2 commits (1 code, 2 environment); 0 moves within wobble; 0 "
                 "one-commit blips"),
        std::string::npos)
        << out;
    EXPECT_EQ(out.find("* at the newest measured commit"), std::string::npos);
}

TEST(StepsReporters, Json) {
    const auto h = history_of_steps();
    const auto doc = nlohmann::json::parse(make_steps_reporter("json")->render(report_of(h), {}));
    EXPECT_EQ(doc["schema"], "cgbench-steps/1");
    const auto& main = doc["branches"][0];
    EXPECT_EQ(main["branch"], "main");
    EXPECT_EQ(main["default"], true);
    EXPECT_EQ(main["commits"], 9);
    ASSERT_EQ(main["epochs"].size(), 2u);
    EXPECT_EQ(main["epochs"][1]["from"]["commit"], HistoryBuilder::commit_of(6));
    EXPECT_EQ(main["epochs"][1]["changes"][0], "CPU baseline: portable vs native");
    ASSERT_EQ(main["events"].size(), 2u);
    const auto& code = main["events"][0];
    EXPECT_EQ(code["commit"], HistoryBuilder::commit_of(4));
    EXPECT_EQ(code["subject"], "search: scan every position");
    const auto& step = code["steps"][0];
    EXPECT_EQ(step["benchmark"], "search/1M");
    EXPECT_EQ(step["label"], "code");
    EXPECT_EQ(step["before"]["cost"], 28'757'186);
    EXPECT_EQ(step["after"]["cost"], 32'657'486);
    EXPECT_EQ(step["before"]["commit"], HistoryBuilder::commit_of(3));
    EXPECT_NEAR(step["change"].get<double>(), 0.1356, 0.0001);
    EXPECT_EQ(step["instructions_moved"], true);
    EXPECT_EQ(step["functions"][0]["name"], "tk_search");
    EXPECT_EQ(step["wobble_bound"], 0.0);
    const auto& env = main["events"][1];
    ASSERT_EQ(env["steps"].size(), 2u);
    EXPECT_EQ(env["steps"][0]["label"], "environment");
    EXPECT_EQ(env["steps"][0]["pending"], false);
    EXPECT_EQ(env["steps"][0]["environment"][0], "CPU baseline: portable vs native");
    EXPECT_THROW(make_steps_reporter("markdown"), UsageError);
}

}  // namespace cgbench::report
