#pragma once
// The CI systems cgbench knows, in one table (providers.cpp): how each one names the facts a
// gate needs: whether a job is for a pull request, its number, the base to compare with and
// the branch it stands for, HEAD's branch, the default branch, where a commit and the job can
// be seen, its API, and how a parallel job says which shard it is. Everything in cgbench
// that reads a CI variable reads it through this table (facts.hpp); adding a CI system is a
// row here and a page in docs/ci/.

#include <array>
#include <span>
#include <string_view>

#include "ci/forms.hpp"
#include "exec/environment.hpp"

namespace cgbench::ci {

// Variable names, unused slots empty.
using Names = std::array<std::string_view, 6>;

struct Provider {
    std::string_view id;    // "github": `cgbench ci env` prints it, docs/ci/ID.md documents it
    std::string_view name;  // "GitHub Actions"
    // Variables whose presence (with any value) says the job runs here, the first the system
    // always sets; the others recognise a job whose marker a local runner (gitlab-ci-local,
    // act) or a hand-made environment leaves out.
    Names detect{};
    Forms pull_request{};    // yields (maybe the empty text) when the job is for a pull request
    Forms pr_number{};       // the pull (merge) request's number
    Forms base{};            // a git ref or commit whose merge base with HEAD is the base
    Forms base_branch{};     // the branch the base stands for, for labels
    Forms branch{};          // HEAD's branch (a pull request's source branch)
    Forms default_branch{};  // the repository's default branch
    Forms commit_url{};      // a web page of a commit, "{commit}" standing for it
    Forms remote{};      // the repository's git URL (commit pages of known hosts derive from it)
    Forms job_url{};     // the web page of this job
    Forms api_url{};     // the REST API's root (GitHub's and GitLab's: issues)
    Forms repository{};  // what the API calls the repository: "owner/name", a project id
    // A parallel job's position: its index, counted from `shard_base`, and the count.
    std::string_view shard_index{};
    std::string_view shard_total{};
    int shard_base = 1;
};

// Every provider, in the order they are recognised (a system that sets another's variables
// for compatibility comes before it: Forgejo and Gitea set GitHub's).
std::span<const Provider> providers();

// The provider `env` shows the job runs on, or null outside CI (or on a system not listed).
const Provider* detect(const exec::EnvMap& env);

// The provider with `id`, or null.
const Provider* find_provider(std::string_view id);

}  // namespace cgbench::ci
