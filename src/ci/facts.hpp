#pragma once
// What the CI job cgbench runs in says about itself, read through the table of providers:
// the one place cgbench turns CI variables into facts (the branch a run records, the base of
// a pull request, commit and job links, a parallel job's shard, where alerts can be filed).

#include <optional>
#include <string>
#include <vector>

#include "ci/providers.hpp"
#include "exec/environment.hpp"

namespace cgbench::ci {

// A parallel job's place, 1-based, and where it was read ("CI_NODE_INDEX/CI_NODE_TOTAL").
struct ShardFact {
    std::string text;  // "K/N"
    std::string origin;
};

struct Facts {
    const Provider* provider = nullptr;  // null outside CI
    bool pull_request = false;
    std::optional<std::string> pr_number;
    std::optional<std::string> base;         // the ref or commit to take the merge base with
    std::optional<std::string> base_branch;  // the branch the base stands for
    std::optional<std::string> branch;       // HEAD's branch
    std::optional<std::string> default_branch;
    std::optional<std::string> commit_url;  // "{commit}" standing for the commit
    std::optional<std::string> remote;      // the repository's git URL
    std::optional<std::string> job_url;
    std::optional<std::string> api_url;
    std::optional<std::string> repository;
    std::optional<ShardFact> shard;
    // For a pull request the provider names no base of: the variables it should have set.
    std::vector<std::string> missing;
};

// The facts `env` gives (all empty outside CI).
Facts read_facts(const exec::EnvMap& env);

// HEAD's branch as CI names it, for a checkout git leaves detached; nullopt outside CI.
std::optional<std::string> ci_branch(const exec::EnvMap& env);

// The shard a parallel CI job stands for, 1-based (a 0-based index converted); nullopt when
// the job is not one of several (a count of 1 included), or the provider has no such
// variables. A value that is
// not a number is passed on as it is, for the shard option's own check to refuse.
std::optional<ShardFact> ci_shard(const exec::EnvMap& env);

}  // namespace cgbench::ci
