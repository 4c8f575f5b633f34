#include "config/compare_options.hpp"

#include <fmt/format.h>

#include "base/errors.hpp"
#include "config/layered.hpp"

namespace cgbench::config {

ComparePlan plan_compare(const CompareInput& in, const exec::EnvMap& env) {
    ComparePlan plan;
    plan.base = in.base;
    plan.head = in.head;
    plan.base_choice = in.base ? BaseChoice::Named : BaseChoice::MergeBase;
    if (in.previous || in.no_baseline) {
        if (in.previous && in.no_baseline) {
            throw UsageError("--previous and --no-baseline exclude each other",
                             "pass one: --previous takes BASE from the history");
        }
        const char* option = in.previous ? "--previous" : "--no-baseline";
        if (in.head) {
            throw UsageError(fmt::format("{} takes no BASE, only HEAD", option),
                             fmt::format("cgbench compare {} [HEAD]", option));
        }
        plan.head = in.base;
        plan.base.reset();
        plan.base_choice = in.previous ? BaseChoice::Previous : BaseChoice::NoBaseline;
        if (in.no_baseline) {
            if (in.no_baseline->empty()) {
                throw UsageError("--no-baseline needs the reason there is no baseline",
                                 "e.g. --no-baseline 'the merge base has no cgbench.toml'");
            }
            plan.no_baseline = *in.no_baseline;
        }
    }
    for (const auto* label : {&in.base_label, &in.head_label}) {
        if (*label && (*label)->empty()) {
            throw UsageError("--base-label and --head-label need a text",
                             "e.g. --base-label 'merge base with main'");
        }
    }
    plan.base_label = in.base_label;
    plan.head_label = in.head_label;
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
    if (in.out) {
        if (in.out->empty()) throw UsageError("--out needs a file name");
        plan.out = *in.out;
    }
    return plan;
}

}  // namespace cgbench::config
