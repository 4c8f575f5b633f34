// Where commits link to: --commit-url, the CI's variables, or the git remote.

#include <gtest/gtest.h>

#include "base/errors.hpp"
#include "config/commit_url.hpp"

namespace cgbench::config {

TEST(CommitUrl, FromTheRemote) {
    const std::string gh = "https://github.com/o/r/commit/{commit}";
    EXPECT_EQ(commit_url_from_remote("https://github.com/o/r.git"), gh);
    EXPECT_EQ(commit_url_from_remote("https://github.com/o/r\n"), gh);
    EXPECT_EQ(commit_url_from_remote("git@github.com:o/r.git"), gh);
    EXPECT_EQ(commit_url_from_remote("ssh://git@github.com/o/r.git"), gh);
    EXPECT_EQ(commit_url_from_remote("https://user:secret@github.com/o/r.git"), gh)
        << "credentials never reach the page";
    EXPECT_EQ(commit_url_from_remote("https://gitlab.com/g/sub/r.git"),
              "https://gitlab.com/g/sub/r/-/commit/{commit}");
    EXPECT_EQ(commit_url_from_remote("ssh://git@gitlab.example.org:2222/g/r.git"),
              "https://gitlab.example.org/g/r/-/commit/{commit}");
    EXPECT_EQ(commit_url_from_remote("git@bitbucket.org:t/r.git"),
              "https://bitbucket.org/t/r/commits/{commit}");
    EXPECT_FALSE(commit_url_from_remote("/srv/git/r.git")) << "a local path";
    EXPECT_FALSE(commit_url_from_remote("https://git.example.org/r.git")) << "unknown forge";
    EXPECT_FALSE(commit_url_from_remote("https://github.com/o/r\"><script>.git"));
}

TEST(CommitUrl, FromCiVariables) {
    EXPECT_EQ(commit_url_from_ci({{"GITHUB_SERVER_URL", "https://github.com"},
                                  {"GITHUB_REPOSITORY", "o/r"}}),
              "https://github.com/o/r/commit/{commit}");
    EXPECT_EQ(commit_url_from_ci({{"CI_PROJECT_URL", "https://gitlab.com/g/r/"}}),
              "https://gitlab.com/g/r/-/commit/{commit}");
    EXPECT_FALSE(commit_url_from_ci({{"CI_PROJECT_URL", "javascript:alert(1)"}}));
    EXPECT_FALSE(commit_url_from_ci({}));
}

TEST(CommitUrl, TemplateChecked) {
    EXPECT_EQ(check_commit_url("https://x.org/c/{commit}"), "https://x.org/c/{commit}");
    EXPECT_THROW(check_commit_url("https://x.org/c/"), UsageError);
    EXPECT_THROW(check_commit_url("javascript:{commit}"), UsageError);
    EXPECT_EQ(commit_url("https://x/{commit}?c={commit}", "abc"), "https://x/abc?c=abc");
}

}  // namespace cgbench::config
