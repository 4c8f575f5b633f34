#pragma once
// Where a commit can be seen on the web, for links in the HTML report: a URL template with
// "{commit}" in it, from (first that gives one) --commit-url, the CI's variables (the table of
// providers, ci/providers.hpp: e.g. GitHub's GITHUB_SERVER_URL and GITHUB_REPOSITORY,
// GitLab's CI_PROJECT_URL, Buildkite's repository URL), or the git remote's URL when its host
// is known (GitHub, GitLab, Bitbucket, Codeberg).

#include <optional>
#include <string>
#include <string_view>

#include "exec/environment.hpp"

namespace cgbench::config {

// Checks a --commit-url template: http(s), containing "{commit}". Throws UsageError.
std::string check_commit_url(std::string_view tmpl);

// The template the CI's variables in `env` give (a commit page, else one derived from the
// repository URL the CI names), or nullopt.
std::optional<std::string> commit_url_from_ci(const exec::EnvMap& env);

// The template for a git remote URL ("https://github.com/o/r.git", "git@gitlab.com:g/r.git",
// "ssh://git@host/o/r"), credentials and ".git" removed; nullopt for unknown hosts and
// local paths.
std::optional<std::string> commit_url_from_remote(std::string_view remote);

// `tmpl` with every "{commit}" replaced by `commit`.
std::string commit_url(std::string_view tmpl, std::string_view commit);

}  // namespace cgbench::config
