// Options of compare and the database path: layering and validation.

#include <gtest/gtest.h>

#include "base/errors.hpp"
#include "config/compare_options.hpp"
#include "config/db_options.hpp"

namespace cgbench::config {

TEST(DbOptions, DefaultEnvironmentCommandLineAndOff) {
    DbInput in;
    EXPECT_EQ(resolve_db(in, {})->url(), ".cgbench/history.db");
    EXPECT_EQ(resolve_db(in, {{"CGBENCH_DB", "/x/env.db"}})->url(), "/x/env.db");
    in.path = "cli.db";
    EXPECT_EQ(resolve_db(in, {{"CGBENCH_DB", "/x/env.db"}})->url(), "cli.db");
    in.disabled = true;
    EXPECT_FALSE(resolve_db(in, {{"CGBENCH_DB", "/x/env.db"}}).has_value());
    DbInput empty;
    empty.path = "";
    EXPECT_THROW(resolve_db(empty, {}), UsageError);
}

TEST(DbOptions, APostgresqlUrlNamesItsProjectAndNeverShowsItsPassword) {
    DbInput in;
    in.path = "postgresql://ci:s3cret@db.example:5432/perf";
    in.project = "org/a b";
    const auto db = resolve_db(in, {});
    ASSERT_TRUE(db.has_value());
    EXPECT_EQ(db->url(), "postgresql://ci:s3cret@db.example:5432/perf?project=org/a%20b");
    EXPECT_EQ(db->shown(), "postgresql://ci@db.example:5432/perf?project=org/a%20b");
    EXPECT_EQ(fmt::format("{}", *db), db->shown()) << "formatting shows no password";
    EXPECT_FALSE(db->file().has_value());
    in.project.reset();
    EXPECT_EQ(resolve_db(in, {{"CGBENCH_PROJECT", "p"}})->url(),
              "postgresql://ci:s3cret@db.example:5432/perf?project=p");
    in.path = "h.db";
    in.project = "p";
    EXPECT_THROW(resolve_db(in, {}), UsageError) << "a SQLite file holds one project";
}

TEST(CompareOptions, ThresholdsFromTheEnvironmentComeFirst) {
    CompareInput in;
    in.thresholds = {"cost=3%"};
    const auto plan = plan_compare(in, {{"CGBENCH_THRESHOLD", "cost=2%,Ir=1%"}});
    const auto gated = plan.options.thresholds.for_benchmark("x");
    ASSERT_EQ(gated.size(), 2u);
    EXPECT_DOUBLE_EQ(gated[0].second.relative, 0.03) << "the command line wins";
    EXPECT_EQ(gated[1].first, metrics::Metric::event(metrics::Event::Ir));
}

// --previous and --no-baseline take BASE from elsewhere: the one positional is HEAD.
TEST(CompareOptions, WhereBaseComesFrom) {
    CompareInput in;
    EXPECT_EQ(plan_compare(in, {}).base_choice, BaseChoice::MergeBase);
    in.base = "a.json";
    EXPECT_EQ(plan_compare(in, {}).base_choice, BaseChoice::Named);
    in.previous = true;
    auto plan = plan_compare(in, {});
    EXPECT_EQ(plan.base_choice, BaseChoice::Previous);
    EXPECT_EQ(plan.head, "a.json");
    EXPECT_FALSE(plan.base);
    in.head = "b.json";
    EXPECT_THROW(plan_compare(in, {}), UsageError) << "--previous takes no BASE";
    in.head.reset();
    in.no_baseline = "first pull request";
    EXPECT_THROW(plan_compare(in, {}), UsageError) << "both";
    in.previous = false;
    plan = plan_compare(in, {});
    EXPECT_EQ(plan.base_choice, BaseChoice::NoBaseline);
    EXPECT_EQ(plan.no_baseline, "first pull request");
    in.no_baseline = "";
    EXPECT_THROW(plan_compare(in, {}), UsageError) << "a reason is needed";
    CompareInput labels;
    labels.base_label = "merge base with main";
    EXPECT_EQ(plan_compare(labels, {}).base_label, "merge base with main");
    labels.head_label = "";
    EXPECT_THROW(plan_compare(labels, {}), UsageError);
    CompareInput two_percent;
    two_percent.thresholds = {"2%"};
    EXPECT_DOUBLE_EQ(
        plan_compare(two_percent, {}).options.thresholds.for_benchmark("x")[0].second.relative,
        0.02);
}

TEST(CompareOptions, BaseBranchAndErrors) {
    CompareInput in;
    auto plan = plan_compare(in, {{"CGBENCH_BASE_BRANCH", "develop"}});
    EXPECT_EQ(plan.base_branch, "develop");
    in.base_branch = "trunk";
    EXPECT_EQ(plan_compare(in, {{"CGBENCH_BASE_BRANCH", "develop"}}).base_branch, "trunk");
    CompareInput bad;
    bad.thresholds = {"cost=lots"};
    EXPECT_THROW(plan_compare(bad, {}), UsageError);
}

}  // namespace cgbench::config
