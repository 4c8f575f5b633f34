#include "ci/providers.hpp"

namespace cgbench::ci {

namespace {

// The names GitHub Actions gives these facts, which Forgejo's and Gitea's runners give too.
constexpr Forms kGithubPullRequest = {"{GITHUB_EVENT_NAME=pull_request}",
                                      "{GITHUB_EVENT_NAME=pull_request_target}"};
constexpr Forms kGithubPrNumber = {"{GITHUB_REF:pr}", "{GITHUB_EVENT_PATH@pull_request.number}"};
constexpr Forms kGithubBase = {"origin/{GITHUB_BASE_REF}"};
constexpr Forms kGithubBaseBranch = {"{GITHUB_BASE_REF}"};
constexpr Forms kGithubBranch = {"{GITHUB_HEAD_REF}", "{GITHUB_REF_NAME}"};
constexpr Forms kGithubDefaultBranch = {"{GITHUB_EVENT_PATH@repository.default_branch}"};
constexpr Forms kGithubCommitUrl = {"{GITHUB_SERVER_URL:url}/{GITHUB_REPOSITORY}/commit/{commit}"};
constexpr Forms kGithubRepository = {"{GITHUB_REPOSITORY}"};

// The table. Each system's variables as its documentation names them; the sets the tests
// run with are in tests/data/ci/, one file per system and event, taken from those pages.
constexpr Provider kProviders[] = {
    // Forgejo's runner sets FORGEJO_ACTIONS and GITEA_ACTIONS, Gitea's GITEA_ACTIONS, and
    // both GitHub's names for everything else.
    {
        .id = "forgejo",
        .name = "Forgejo / Gitea Actions",
        .detect = {"FORGEJO_ACTIONS", "GITEA_ACTIONS"},
        .pull_request = kGithubPullRequest,
        .pr_number = kGithubPrNumber,
        .base = kGithubBase,
        .base_branch = kGithubBaseBranch,
        .branch = kGithubBranch,
        .default_branch = kGithubDefaultBranch,
        .commit_url = kGithubCommitUrl,
        .job_url = {"{GITHUB_SERVER_URL:url}/{GITHUB_REPOSITORY}/actions/runs/{GITHUB_RUN_NUMBER}"},
        .api_url = {"{GITHUB_API_URL}", "{GITHUB_SERVER_URL:url}/api/v1"},
        .repository = kGithubRepository,
    },
    {
        .id = "github",
        .name = "GitHub Actions",
        .detect = {"GITHUB_ACTIONS", "GITHUB_EVENT_NAME", "GITHUB_HEAD_REF", "GITHUB_REF_NAME",
                   "GITHUB_SERVER_URL"},
        .pull_request = kGithubPullRequest,
        .pr_number = kGithubPrNumber,
        // HEAD is the merge of the pull request into the base branch's tip (refs/pull/N/merge):
        // its merge base with the base branch is that tip.
        .base = kGithubBase,
        .base_branch = kGithubBaseBranch,
        .branch = kGithubBranch,
        .default_branch = kGithubDefaultBranch,
        .commit_url = kGithubCommitUrl,
        .job_url = {"{GITHUB_SERVER_URL:url}/{GITHUB_REPOSITORY}/actions/runs/{GITHUB_RUN_ID}"},
        .api_url = {"{GITHUB_API_URL}"},
        .repository = kGithubRepository,
    },
    // Merged-results pipelines and merge trains build the merge into the target's tip and
    // name that tip (TARGET_BRANCH_SHA); other merge-request pipelines build the source
    // branch, whose merge base is DIFF_BASE_SHA.
    {.id = "gitlab",
     .name = "GitLab CI",
     .detect = {"GITLAB_CI", "CI_PROJECT_URL", "CI_MERGE_REQUEST_IID", "CI_COMMIT_REF_NAME",
                "CI_NODE_INDEX", "CI_SERVER_URL"},
     .pull_request = {"{CI_MERGE_REQUEST_IID}"},
     .pr_number = {"{CI_MERGE_REQUEST_IID}"},
     .base = {"{CI_MERGE_REQUEST_TARGET_BRANCH_SHA}", "{CI_MERGE_REQUEST_DIFF_BASE_SHA}"},
     .base_branch = {"{CI_MERGE_REQUEST_TARGET_BRANCH_NAME}"},
     .branch = {"{CI_MERGE_REQUEST_SOURCE_BRANCH_NAME}", "{CI_COMMIT_BRANCH}",
                "{CI_COMMIT_REF_NAME}"},
     .default_branch = {"{CI_DEFAULT_BRANCH}"},
     .commit_url = {"{CI_PROJECT_URL:url}/-/commit/{commit}"},
     .job_url = {"{CI_JOB_URL}"},
     .api_url = {"{CI_API_V4_URL}"},
     .repository = {"{CI_PROJECT_ID}"},
     .shard_index = "CI_NODE_INDEX",
     .shard_total = "CI_NODE_TOTAL",
     .shard_base = 1},
    // Multibranch pipelines: a change request (pull request) sets CHANGE_*; BRANCH_NAME is
    // then "PR-N", the source branch is CHANGE_BRANCH.
    {
        .id = "jenkins",
        .name = "Jenkins",
        .detect = {"JENKINS_URL", "JENKINS_HOME"},
        .pull_request = {"{CHANGE_ID}"},
        .pr_number = {"{CHANGE_ID}"},
        .base = {"origin/{CHANGE_TARGET}"},
        .base_branch = {"{CHANGE_TARGET}"},
        .branch = {"{CHANGE_BRANCH}", "{BRANCH_NAME}", "{GIT_BRANCH:branch}"},
        .default_branch = {"{BRANCH_IS_PRIMARY=true}{BRANCH_NAME}"},
        .remote = {"{GIT_URL}"},
        .job_url = {"{BUILD_URL}"},
    },
    // BUILDKITE_PULL_REQUEST is the number, or "false" outside a pull request.
    {.id = "buildkite",
     .name = "Buildkite",
     .detect = {"BUILDKITE"},
     .pull_request = {"{BUILDKITE_PULL_REQUEST}"},
     .pr_number = {"{BUILDKITE_PULL_REQUEST}"},
     .base = {"origin/{BUILDKITE_PULL_REQUEST_BASE_BRANCH}"},
     .base_branch = {"{BUILDKITE_PULL_REQUEST_BASE_BRANCH}"},
     .branch = {"{BUILDKITE_BRANCH}"},
     .default_branch = {"{BUILDKITE_PIPELINE_DEFAULT_BRANCH}"},
     .remote = {"{BUILDKITE_REPO}"},
     .job_url = {"{BUILDKITE_BUILD_URL}#{BUILDKITE_JOB_ID}", "{BUILDKITE_BUILD_URL}"},
     .shard_index = "BUILDKITE_PARALLEL_JOB",
     .shard_total = "BUILDKITE_PARALLEL_JOB_COUNT",
     .shard_base = 0},
    // Branch variables hold refs ("refs/heads/main"). SYSTEM_JOBPOSITIONINPHASE is set for
    // matrix jobs too, so it never splits a suite on its own.
    {
        .id = "azure",
        .name = "Azure Pipelines",
        .detect = {"TF_BUILD"},
        .pull_request = {"{BUILD_REASON=PullRequest}"},
        .pr_number = {"{SYSTEM_PULLREQUEST_PULLREQUESTNUMBER}",
                      "{SYSTEM_PULLREQUEST_PULLREQUESTID}"},
        .base = {"origin/{SYSTEM_PULLREQUEST_TARGETBRANCH:branch}"},
        .base_branch = {"{SYSTEM_PULLREQUEST_TARGETBRANCH:branch}"},
        .branch = {"{SYSTEM_PULLREQUEST_SOURCEBRANCH:branch}", "{BUILD_SOURCEBRANCH:branch}"},
        .commit_url =
            {"{BUILD_REPOSITORY_PROVIDER=TfsGit}{BUILD_REPOSITORY_URI:url}/commit/{commit}"},
        .remote = {"{BUILD_REPOSITORY_URI}"},
        .job_url =
            {"{SYSTEM_COLLECTIONURI}{SYSTEM_TEAMPROJECT}/_build/results?buildId={BUILD_BUILDID}"},
    },
};

}  // namespace

std::span<const Provider> providers() {
    return kProviders;
}

const Provider* detect(const exec::EnvMap& env) {
    for (const auto& p : kProviders) {
        for (const auto name : p.detect) {
            if (!name.empty() && env.count(std::string(name)) != 0) return &p;
        }
    }
    return nullptr;
}

const Provider* find_provider(std::string_view id) {
    for (const auto& p : kProviders) {
        if (p.id == id) return &p;
    }
    return nullptr;
}

}  // namespace cgbench::ci
