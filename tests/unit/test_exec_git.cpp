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

// One git process answers for every ref what `rev-parse --verify REF^{commit}` answers for
// each: a branch, an annotated tag (peeled to its commit), an expression, a tree, a name that
// is nothing, one with a space, one starting with '-' (an empty one: each alone).
TEST(Git, CommitsOfManyRefsAtOnceAreThoseOfEachAlone) {
    const auto dir = testing_fixtures::fresh_dir("cgbench-git-commits");
    PosixProcessRunner runner;
    const Git git(dir, current_environment(), runner);
    ASSERT_TRUE(testing_fixtures::init_repo(git));
    ASSERT_TRUE(testing_fixtures::commit_empty(git));
    ASSERT_TRUE(git.run({"-c", "user.name=t", "-c", "user.email=t@example.com", "tag", "-a", "-m",
                         "t", "v1", "HEAD~1"}));
    const std::vector<std::string> refs = {"main",        "v1",  "HEAD~1", "HEAD^{tree}",
                                           "no-such-ref", "a b", "--all",  "main"};
    const auto together = git.commits(refs);
    ASSERT_EQ(together.size(), refs.size());
    for (std::size_t i = 0; i < refs.size(); ++i) {
        EXPECT_EQ(together[i], git.commits({refs[i]}).front()) << refs[i];
        EXPECT_EQ(together[i], git.run({"rev-parse", "--verify", "--quiet", "--end-of-options",
                                        refs[i] + "^{commit}"}))
            << refs[i];
    }
    EXPECT_EQ(together[1], together[2]) << "the tag names its commit";
    EXPECT_TRUE(together[0].has_value() && !together[3] && !together[4]);
    const auto with_empty = git.commits({"main", ""});
    EXPECT_EQ(with_empty[0], together[0]);
    EXPECT_FALSE(with_empty[1]);
}

TEST(Git, MissingGitIsNotAnError) {
    PosixProcessRunner runner;
    const Git git("/", EnvMap{{"PATH", "/nonexistent"}}, runner);
    EXPECT_FALSE(git.available());
    EXPECT_FALSE(git.run({"status"}));
}

}  // namespace cgbench::exec
