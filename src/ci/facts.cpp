#include "ci/facts.hpp"

#include "util/strings.hpp"

namespace cgbench::ci {

std::optional<ShardFact> ci_shard(const exec::EnvMap& env) {
    const auto* p = detect(env);
    if (p == nullptr || p->shard_index.empty()) return std::nullopt;
    const auto index = env.find(std::string(p->shard_index));
    const auto total = env.find(std::string(p->shard_total));
    if (index == env.end() || total == env.end() || index->second.empty()) return std::nullopt;
    if (total->second == "1") return std::nullopt;  // one job: the whole suite
    std::string k = index->second;
    if (const auto n = util::parse_u64(k); n && p->shard_base == 0) k = std::to_string(*n + 1);
    return ShardFact{k + "/" + total->second,
                     std::string(p->shard_index) + "/" + std::string(p->shard_total)};
}

std::optional<std::string> ci_branch(const exec::EnvMap& env) {
    const auto* p = detect(env);
    return p == nullptr ? std::nullopt : first_of(p->branch, env);
}

Facts read_facts(const exec::EnvMap& env) {
    Facts f;
    f.provider = detect(env);
    if (f.provider == nullptr) return f;
    const auto& p = *f.provider;
    f.pull_request = first_of(p.pull_request, env).has_value();
    if (f.pull_request) {
        f.pr_number = first_of(p.pr_number, env);
        f.base = first_of(p.base, env);
        f.base_branch = first_of(p.base_branch, env);
        if (!f.base) {
            for (auto& name : variables_of(p.base)) {
                if (!is_set(env, name)) f.missing.push_back(std::move(name));
            }
        }
    }
    f.branch = first_of(p.branch, env);
    f.default_branch = first_of(p.default_branch, env);
    f.commit_url = first_of(p.commit_url, env);
    f.remote = first_of(p.remote, env);
    f.job_url = first_of(p.job_url, env);
    f.api_url = first_of(p.api_url, env);
    f.repository = first_of(p.repository, env);
    f.shard = ci_shard(env);
    return f;
}

}  // namespace cgbench::ci
