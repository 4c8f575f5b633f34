// config/pr_options: `cgbench pr`'s options checked before anything is built.

// GCC 12 at -O2 takes the std::optional<std::string> members of a PrInput that the tests set
// one after another for maybe uninitialized; every one is constructed.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

#include <gtest/gtest.h>

#include "base/errors.hpp"
#include "config/pr_options.hpp"

namespace cgbench::config {

namespace {

std::string error_of(const PrInput& in, const exec::EnvMap& env = {}) {
    try {
        plan_pr(in, env, "/work");
    } catch (const UsageError& e) {
        return e.what();
    }
    return "";
}

}  // namespace

TEST(PrOptions, SuiteOrCommandWords) {
    PrInput in;
    auto plan = plan_pr(in, {}, "/work");
    EXPECT_EQ(plan.run.suite, "cgbench.toml");
    EXPECT_EQ(plan.out_dir, "/work/cgbench-pr");
    EXPECT_FALSE(plan.base) << "no base: branch mode";
    in.command = "out/prog 'a b'";
    in.name = "n";
    plan = plan_pr(in, {}, "/work");
    EXPECT_EQ(plan.run.command, (std::vector<std::string>{"out/prog", "a b"}));
    EXPECT_EQ(plan.run.name, "n");
    EXPECT_FALSE(plan.run.suite);
    in.suite = "s.toml";
    EXPECT_NE(error_of(in).find("--suite and --command exclude each other"), std::string::npos);
    in = {};
    in.name = "n";
    EXPECT_NE(error_of(in).find("--name names the benchmark of --command"), std::string::npos);
}

TEST(PrOptions, ThresholdsCheckedFirst) {
    PrInput in;
    in.threshold = "cost=fast";
    EXPECT_NE(error_of(in).find("invalid threshold 'cost=fast'"), std::string::npos);
    in.threshold = "2%";
    EXPECT_EQ(error_of(in), "");
    EXPECT_NE(error_of({}, {{"CGBENCH_THRESHOLD", "oops"}}).find("(from CGBENCH_THRESHOLD)"),
              std::string::npos);
}

TEST(PrOptions, TheBaseFromTheCiAndItsShard) {
    const exec::EnvMap mr = {{"GITLAB_CI", "true"},
                             {"CI_MERGE_REQUEST_IID", "5"},
                             {"CI_MERGE_REQUEST_DIFF_BASE_SHA", "abc"},
                             {"CI_MERGE_REQUEST_TARGET_BRANCH_NAME", "main"},
                             {"CI_NODE_INDEX", "1"},
                             {"CI_NODE_TOTAL", "2"}};
    auto plan = plan_pr({}, mr, "/work");
    EXPECT_EQ(plan.base, "abc");
    EXPECT_EQ(plan.base_branch, "main");
    EXPECT_EQ(plan.shard, "1/2");
    PrInput report;
    report.report_only = true;
    EXPECT_FALSE(plan_pr(report, mr, "/work").shard) << "the report joins the shards";
    PrInput explicit_base;
    explicit_base.base = "origin/dev";
    EXPECT_EQ(plan_pr(explicit_base, mr, "/work").base, "origin/dev");
    // A push: no base, and the CI's parallel job does not split it.
    const exec::EnvMap push = {
        {"GITLAB_CI", "true"}, {"CI_NODE_INDEX", "1"}, {"CI_NODE_TOTAL", "2"}};
    EXPECT_FALSE(plan_pr({}, push, "/work").shard);
    PrInput shard;
    shard.shard = "1/2";
    EXPECT_NE(error_of(shard, push).find("--shard splits a pull request's measurement"),
              std::string::npos);
    shard.base = "main";
    shard.shard = "3/2";
    EXPECT_NE(error_of(shard).find("--shard"), std::string::npos);
}

TEST(PrOptions, Alerts) {
    PrInput in;
    in.history = ".cgbench/history.db";
    auto plan = plan_pr(in, {{"CGBENCH_ALERT_WEBHOOK", "https://hooks.example.com/x"}}, "/work");
    EXPECT_EQ(plan.alerts.webhook, "https://hooks.example.com/x");
    EXPECT_FALSE(plan.alerts.slack);
    EXPECT_EQ(plan.alerts.state, "/work/.cgbench/alerts.json") << "beside the history";
    EXPECT_EQ(plan.alerts.attempts, 3);
    in.alert_webhook = "file:///etc/passwd";
    EXPECT_NE(error_of(in).find("--alert-webhook is not an http(s) URL"), std::string::npos);
    in = {};
    in.alert_format = "teams";
    EXPECT_NE(error_of(in).find("--alert-format 'teams' is not one of json, slack"),
              std::string::npos);
    EXPECT_NE(error_of({}, {{"CGBENCH_ALERT_ISSUE", "jira"}}).find("CGBENCH_ALERT_ISSUE 'jira'"),
              std::string::npos);
    in = {};
    in.alert_timeout = "0";
    EXPECT_NE(error_of(in).find("--alert-timeout '0'"), std::string::npos);
    in.alert_timeout = "2.5";
    EXPECT_EQ(plan_pr(in, {}, "/work").alerts.timeout_seconds, 2.5);
}

}  // namespace cgbench::config
