// ci/forms: how the table of CI providers spells a fact from variables.

#include <gtest/gtest.h>

#include <fstream>

#include "ci/forms.hpp"
#include "unit/run_fixtures.hpp"

namespace cgbench::ci {

TEST(CiForms, PlaceholdersNeedEveryVariableSet) {
    const exec::EnvMap env = {{"A", "x"}, {"EMPTY", ""}, {"NO", "false"}, {"URL", "https://h/p//"}};
    EXPECT_EQ(expand("origin/{A}", env), "origin/x");
    EXPECT_EQ(expand("{A}-{A}", env), "x-x");
    EXPECT_FALSE(expand("origin/{EMPTY}", env)) << "empty is not set";
    EXPECT_FALSE(expand("{NO}", env)) << "\"false\" is not set (Buildkite's pull request)";
    EXPECT_FALSE(expand("{MISSING}", env));
    EXPECT_EQ(expand("{URL:url}/-/commit/{commit}", env), "https://h/p/-/commit/{commit}")
        << "lower-case placeholders stay for a later step";
    EXPECT_FALSE(expand("", env));
    EXPECT_EQ(expand("plain", env), "plain");
}

TEST(CiForms, Filters) {
    const exec::EnvMap env = {{"REF", "refs/heads/feature/x"},
                              {"GIT", "origin/main"},
                              {"PULL", "refs/pull/42/merge"},
                              {"PUSH", "refs/heads/main"},
                              {"WHY", "PullRequest"}};
    EXPECT_EQ(expand("{REF:branch}", env), "feature/x");
    EXPECT_EQ(expand("{GIT:branch}", env), "main");
    EXPECT_EQ(expand("{PULL:pr}", env), "42");
    EXPECT_FALSE(expand("{PUSH:pr}", env)) << "no pull request in a branch ref";
    EXPECT_EQ(expand("{WHY=PullRequest}", env), "");
    EXPECT_FALSE(expand("{WHY=IndividualCI}", env));
    EXPECT_FALSE(expand("{UNSET=x}", env));
    EXPECT_EQ(expand("{WHY=PullRequest}yes", env), "yes");
}

TEST(CiForms, JsonFileValues) {
    const auto dir = testing_fixtures::fresh_dir("ci-forms-json");
    std::ofstream(dir / "event.json")
        << R"({"pull_request": {"number": 42}, "repository": {"default_branch": "trunk"}})";
    std::ofstream(dir / "broken.json") << "{";
    const exec::EnvMap env = {{"EVENT", (dir / "event.json").string()},
                              {"BROKEN", (dir / "broken.json").string()},
                              {"GONE", (dir / "none.json").string()}};
    EXPECT_EQ(expand("{EVENT@repository.default_branch}", env), "trunk");
    EXPECT_EQ(expand("{EVENT@pull_request.number}", env), "42");
    EXPECT_FALSE(expand("{EVENT@pull_request.title}", env));
    EXPECT_FALSE(expand("{BROKEN@a}", env)) << "a damaged payload: the fact is unknown";
    EXPECT_FALSE(expand("{GONE@a}", env));
}

TEST(CiForms, FirstOfAndVariablesOf) {
    const Forms forms = {"{A_SHA}", "{B_SHA}", ""};
    EXPECT_EQ(first_of(forms, {{"B_SHA", "b"}}), "b");
    EXPECT_EQ(first_of(forms, {{"A_SHA", "a"}, {"B_SHA", "b"}}), "a");
    EXPECT_FALSE(first_of(forms, {}));
    EXPECT_EQ(variables_of({"origin/{X:branch}", "{Y=v}{X}", "{commit}"}),
              (std::vector<std::string>{"X", "Y"}));
}

}  // namespace cgbench::ci
