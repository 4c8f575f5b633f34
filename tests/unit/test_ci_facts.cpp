// ci/facts and ci/providers: the facts a CI job's variables give, through the table.

#include <gtest/gtest.h>

#include "ci/facts.hpp"

namespace cgbench::ci {

TEST(CiFacts, OutsideCiThereAreNone) {
    const auto f = read_facts({{"HOME", "/root"}, {"CI", "true"}});
    EXPECT_EQ(f.provider, nullptr);
    EXPECT_FALSE(f.pull_request);
    EXPECT_FALSE(f.branch);
    EXPECT_FALSE(ci_branch({}));
    EXPECT_FALSE(ci_shard({}));
}

TEST(CiFacts, ForgejoIsRecognisedBeforeTheGithubNamesItSets) {
    const exec::EnvMap forgejo = {{"FORGEJO_ACTIONS", "true"},
                                  {"GITHUB_ACTIONS", "true"},
                                  {"GITHUB_SERVER_URL", "https://codeberg.org"},
                                  {"GITHUB_REPOSITORY", "o/r"},
                                  {"GITHUB_RUN_NUMBER", "5"},
                                  {"GITHUB_RUN_ID", "999"}};
    EXPECT_EQ(read_facts(forgejo).provider->id, "forgejo");
    EXPECT_EQ(read_facts(forgejo).job_url, "https://codeberg.org/o/r/actions/runs/5");
    auto github = forgejo;
    github.erase("FORGEJO_ACTIONS");
    EXPECT_EQ(read_facts(github).provider->id, "github");
    EXPECT_EQ(read_facts(github).job_url, "https://codeberg.org/o/r/actions/runs/999");
}

TEST(CiFacts, APullRequestWithoutItsBaseNamesWhatIsMissing) {
    const auto f = read_facts({{"GITHUB_ACTIONS", "true"},
                               {"GITHUB_EVENT_NAME", "pull_request"},
                               {"GITHUB_BASE_REF", ""}});
    EXPECT_TRUE(f.pull_request);
    EXPECT_FALSE(f.base);
    EXPECT_EQ(f.missing, (std::vector<std::string>{"GITHUB_BASE_REF"}));
    const auto g = read_facts({{"GITLAB_CI", "true"},
                               {"CI_MERGE_REQUEST_IID", "3"},
                               {"CI_MERGE_REQUEST_DIFF_BASE_SHA", "abc"}});
    EXPECT_EQ(g.base, "abc");
    EXPECT_TRUE(g.missing.empty());
    EXPECT_TRUE(
        read_facts({{"GITHUB_ACTIONS", "true"}, {"GITHUB_EVENT_NAME", "push"}}).missing.empty());
}

TEST(CiFacts, ParallelJobsCountFromOne) {
    const auto gitlab =
        ci_shard({{"GITLAB_CI", "true"}, {"CI_NODE_INDEX", "2"}, {"CI_NODE_TOTAL", "3"}});
    ASSERT_TRUE(gitlab);
    EXPECT_EQ(gitlab->text, "2/3");
    EXPECT_EQ(gitlab->origin, "CI_NODE_INDEX/CI_NODE_TOTAL");
    const auto buildkite = ci_shard({{"BUILDKITE", "true"},
                                     {"BUILDKITE_PARALLEL_JOB", "0"},
                                     {"BUILDKITE_PARALLEL_JOB_COUNT", "4"}});
    ASSERT_TRUE(buildkite);
    EXPECT_EQ(buildkite->text, "1/4") << "Buildkite counts from 0";
    EXPECT_FALSE(ci_shard({{"GITLAB_CI", "true"}, {"CI_NODE_INDEX", "1"}, {"CI_NODE_TOTAL", "1"}}))
        << "one job is the whole suite";
    EXPECT_FALSE(ci_shard({{"TF_BUILD", "True"},
                           {"SYSTEM_JOBPOSITIONINPHASE", "2"},
                           {"SYSTEM_TOTALJOBSINPHASE", "3"}}))
        << "Azure sets these for matrix jobs too";
    EXPECT_EQ(ci_shard({{"CI_NODE_INDEX", "x"}, {"CI_NODE_TOTAL", "3"}})->text, "x/3")
        << "passed on for the shard check to refuse";
}

TEST(CiFacts, TheTableIsComplete) {
    for (const auto& p : providers()) {
        EXPECT_FALSE(p.detect[0].empty()) << p.id;
        EXPECT_FALSE(p.pull_request[0].empty()) << p.id;
        EXPECT_FALSE(p.base[0].empty()) << p.id;
        EXPECT_FALSE(p.branch[0].empty()) << p.id;
        EXPECT_FALSE(p.job_url[0].empty()) << p.id;
        EXPECT_TRUE(!p.commit_url[0].empty() || !p.remote[0].empty())
            << p.id << ": no commit links";
        EXPECT_EQ(find_provider(p.id), &p);
    }
    EXPECT_GE(providers().size(), 6U);
}

}  // namespace cgbench::ci
