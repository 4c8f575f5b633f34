// Running git in a scratch repository.

#include <gtest/gtest.h>

#include "exec/git.hpp"
#include "run_fixtures.hpp"

namespace cgbench::exec {

TEST(Git, RunsInTheGivenDirectory) {
    const auto dir = testing_fixtures::fresh_dir("cgbench-git-basic");
    PosixProcessRunner runner;
    const Git git(dir, current_environment(), runner);
    ASSERT_TRUE(git.available()) << "git is a build dependency (scripts/install-deps.sh)";
    ASSERT_TRUE(testing_fixtures::init_repo(git));
    const auto head = git.run({"rev-parse", "HEAD"});
    ASSERT_TRUE(head);
    EXPECT_EQ(head->size(), 40u) << "trimmed: " << *head;
    EXPECT_FALSE(git.run({"rev-parse", "--verify", "--quiet", "no-such-ref"}));
}

TEST(Git, MissingGitIsNotAnError) {
    PosixProcessRunner runner;
    const Git git("/", EnvMap{{"PATH", "/nonexistent"}}, runner);
    EXPECT_FALSE(git.available());
    EXPECT_FALSE(git.run({"status"}));
}

}  // namespace cgbench::exec
