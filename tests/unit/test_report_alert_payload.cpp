// report/alert_payload: an alert in cgbench's JSON, Slack's and Markdown, from a comparison.

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "compare/comparison.hpp"
#include "report/alert_payload.hpp"
#include "unit/run_fixtures.hpp"

namespace cgbench::report {

using namespace testing_fixtures;

namespace {

struct Fixture {
    compare::Comparison c;
    Alert alert;
};

// `name` regresses by 5%; "broken" fails now.
Fixture fixture(const std::string& name) {
    auto base = run("base-id", {bench(name, 1000, 1'000'000), bench("broken", 10, 5000)});
    base.git.commit = "1111111111111111111111111111111111111111";
    auto head = run("head-id", {bench(name, 1000, 1'050'000), failed_bench("broken")});
    Fixture f{compare::compare_runs(base, compare::side_of(base, "previous run of main"), head,
                                    compare::side_of(head, "HEAD"), {}),
              {}};
    f.alert.comparison = &f.c;
    f.alert.commit_url = "https://github.com/o/r/commit/{commit}";
    f.alert.report_url = "https://github.com/o/r/actions/runs/9";
    f.alert.repository = "o/r";
    return f;
}

void add_steps(Fixture& f) {
    for (const auto& b : f.c.benchmarks)
        f.alert.steps.push_back({"k-" + b.name, &b, b.verdict == compare::Verdict::Failed});
}

}  // namespace

TEST(AlertPayload, JsonNamesTheCommitTheStepsAndTheLinks) {
    auto f = fixture("sum");
    add_steps(f);
    const auto j = nlohmann::json::parse(alert_json(f.alert));
    EXPECT_EQ(j.at("schema"), "cgbench-alert/1");
    EXPECT_EQ(j.at("branch"), "main");
    EXPECT_EQ(j.at("commit"), "0123456789abcdef0123456789abcdef01234567");
    EXPECT_EQ(j.at("commit_url"),
              "https://github.com/o/r/commit/0123456789abcdef0123456789abcdef01234567");
    EXPECT_EQ(j.at("previous_commit"), "1111111111111111111111111111111111111111");
    EXPECT_EQ(j.at("report_url"), "https://github.com/o/r/actions/runs/9");
    EXPECT_EQ(j.at("repository"), "o/r");
    ASSERT_EQ(j.at("steps").size(), 2U);
    const auto& sum = j.at("steps")[0];
    EXPECT_EQ(sum.at("key"), "k-sum");
    EXPECT_EQ(sum.at("kind"), "regression");
    EXPECT_EQ(sum.at("base"), 1'000'000);
    EXPECT_EQ(sum.at("head"), 1'050'000);
    EXPECT_NEAR(sum.at("change").get<double>(), 0.05, 1e-9);
    EXPECT_EQ(j.at("steps")[1].at("kind"), "failure");
    EXPECT_EQ(j.at("steps")[1].at("error"), "exited with status 3");
    EXPECT_EQ(j.at("text"),
              "cgbench: 2 new steps on main at 0123456789: sum cost +5.00%; broken "
              "fails now (exited with status 3)");
}

TEST(AlertPayload, SlackAndMarkdownKeepNamesInert) {
    auto f = fixture("<!channel> @octocat & *x*");
    add_steps(f);
    const auto slack = nlohmann::json::parse(alert_slack(f.alert));
    ASSERT_EQ(slack.size(), 1U);
    const auto text = slack.at("text").get<std::string>();
    EXPECT_EQ(text.find("<!channel>"), std::string::npos) << text;
    EXPECT_NE(text.find("&lt;!channel&gt; @octocat &amp; *x*"), std::string::npos) << text;
    EXPECT_NE(
        text.find(
            "<https://github.com/o/r/commit/0123456789abcdef0123456789abcdef01234567|0123456789>"),
        std::string::npos)
        << text;
    const auto md = alert_markdown(f.alert);
    EXPECT_EQ(md.find("@octocat"), std::string::npos) << "a name mentions nobody: " << md;
    EXPECT_EQ(md.find("<!channel>"), std::string::npos) << md;
    EXPECT_NE(md.find("[the job](https://github.com/o/r/actions/runs/9)"), std::string::npos) << md;
    EXPECT_EQ(alert_issue_title("main"), "cgbench: performance alerts on main");
}

}  // namespace cgbench::report
