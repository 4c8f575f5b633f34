// Options of compare and the database path: layering and validation.

#include <gtest/gtest.h>

#include "config/compare_options.hpp"
#include "config/db_options.hpp"
#include "core/errors.hpp"

namespace cgbench::config {

TEST(DbOptions, DefaultEnvironmentCommandLineAndOff) {
    DbInput in;
    EXPECT_EQ(resolve_db(in, {}), std::filesystem::path(".cgbench/history.db"));
    EXPECT_EQ(resolve_db(in, {{"CGBENCH_DB", "/x/env.db"}}), std::filesystem::path("/x/env.db"));
    in.path = "cli.db";
    EXPECT_EQ(resolve_db(in, {{"CGBENCH_DB", "/x/env.db"}}), std::filesystem::path("cli.db"));
    in.disabled = true;
    EXPECT_FALSE(resolve_db(in, {{"CGBENCH_DB", "/x/env.db"}}).has_value());
    DbInput empty;
    empty.path = "";
    EXPECT_THROW(resolve_db(empty, {}), UsageError);
}

TEST(CompareOptions, ThresholdsFromTheEnvironmentComeFirst) {
    CompareInput in;
    in.thresholds = {"cost=3%"};
    const auto plan = plan_compare(in, {{"CGBENCH_THRESHOLD", "cost=2%,Ir=1%"}});
    const auto gated = plan.options.thresholds.for_benchmark("x");
    ASSERT_EQ(gated.size(), 2u);
    EXPECT_DOUBLE_EQ(gated[0].second.relative, 0.03) << "the command line wins";
    EXPECT_EQ(gated[1].first, "Ir");
    EXPECT_EQ(plan.format, report::Format::Console);
}

TEST(CompareOptions, BaseBranchFormatAndErrors) {
    CompareInput in;
    in.format = "junit";
    auto plan = plan_compare(in, {{"CGBENCH_BASE_BRANCH", "develop"}});
    EXPECT_EQ(plan.base_branch, "develop");
    EXPECT_EQ(plan.format, report::Format::Junit);
    in.base_branch = "trunk";
    EXPECT_EQ(plan_compare(in, {{"CGBENCH_BASE_BRANCH", "develop"}}).base_branch, "trunk");
    in.format = "yaml";
    EXPECT_THROW(plan_compare(in, {}), UsageError);
    CompareInput bad;
    bad.thresholds = {"cost=lots"};
    EXPECT_THROW(plan_compare(bad, {}), UsageError);
}

}  // namespace cgbench::config
