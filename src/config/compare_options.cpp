#include "config/compare_options.hpp"

#include "config/layered.hpp"
#include "core/errors.hpp"

namespace cgbench::config {

ComparePlan plan_compare(const CompareInput& in, const exec::EnvMap& env) {
    ComparePlan plan;
    plan.base = in.base;
    plan.head = in.head;
    plan.db = resolve_db(in.db, env);

    Layered branch = layered_default("");
    apply_env(branch, env, "CGBENCH_BASE_BRANCH");
    apply(branch, in.base_branch, Source::CommandLine, "--base-branch");
    if (!branch.value.empty()) plan.base_branch = branch.value;

    if (const auto it = env.find("CGBENCH_THRESHOLD"); it != env.end() && !it->second.empty()) {
        plan.options.thresholds.add(it->second);
    }
    for (const auto& spec : in.thresholds)
        plan.options.thresholds.add(spec);
    plan.options.force = in.force;
    plan.options.fail_on_missing = in.fail_on_missing;
    plan.format = report::parse_format(in.format.value_or("console"));
    if (in.out) {
        if (in.out->empty()) throw UsageError("--out needs a file name");
        plan.out = *in.out;
    }
    return plan;
}

}  // namespace cgbench::config
