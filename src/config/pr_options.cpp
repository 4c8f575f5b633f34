#include "config/pr_options.hpp"

#include <fmt/format.h>

#include "base/errors.hpp"
#include "config/layered.hpp"
#include "config/shard.hpp"
#include "util/fs.hpp"
#include "util/shell_words.hpp"
#include "util/strings.hpp"

namespace cgbench::config {

namespace fs = std::filesystem;

namespace {

bool web_url(std::string_view url) {
    return util::starts_with(url, "https://") || util::starts_with(url, "http://");
}

// The run input both sides measure with: a suite, or one command split into words.
RunInput run_input(const PrInput& in) {
    if (in.suite && in.command) {
        throw UsageError("--suite and --command exclude each other", "pass one");
    }
    RunInput run;
    if (in.command) {
        run.command = util::split_shell_words(*in.command, "--command");
        run.name = in.name;
    } else {
        if (in.name) throw UsageError("--name names the benchmark of --command", "pass --command");
        run.suite = in.suite.value_or("cgbench.toml");
    }
    return run;
}

// The gate's thresholds, checked now: CGBENCH_THRESHOLD first, then --threshold.
std::vector<std::string> thresholds(const PrInput& in, const exec::EnvMap& env,
                                    compare::CompareOptions& gate) {
    std::vector<std::string> out;
    if (const auto it = env.find("CGBENCH_THRESHOLD"); it != env.end() && !it->second.empty()) {
        parse_layered(Layered{it->second, Source::Environment, "CGBENCH_THRESHOLD"},
                      [&gate](const std::string& v) { gate.thresholds.add(v); });
    }
    if (in.threshold) {
        gate.thresholds.add(*in.threshold);
        out.push_back(*in.threshold);
    }
    return out;
}

// One alert setting, layered: built-in < CGBENCH_* in `env` < its option.
Layered layered_alert(std::string value, const exec::EnvMap& env, std::string_view var,
                      const std::optional<std::string>& option, std::string flag) {
    Layered l = layered_default(std::move(value));
    apply_env(l, env, var);
    apply(l, option, Source::CommandLine, std::move(flag));
    return l;
}

// `l`'s value when it is one of `allowed` (the empty value too when `allowed` holds it);
// UsageError naming where it came from otherwise.
std::string one_of(const Layered& l, std::initializer_list<std::string_view> allowed,
                   std::string_view hint) {
    std::vector<std::string> names;
    for (const auto a : allowed) {
        if (l.value == a) return l.value;
        if (!a.empty()) names.emplace_back(a);
    }
    throw UsageError(fmt::format("{} '{}' is not one of {}", l.origin, util::printable(l.value),
                                 util::join(names, ", ")),
                     std::string(hint));
}

AlertPlan alert_plan(const PrInput& in, const exec::EnvMap& env,
                     const std::optional<history::Location>& db, const fs::path& cwd) {
    AlertPlan a;
    const auto hook =
        layered_alert("", env, "CGBENCH_ALERT_WEBHOOK", in.alert_webhook, "--alert-webhook");
    if (!hook.value.empty()) {
        if (!web_url(hook.value)) {
            throw UsageError(fmt::format("{} is not an http(s) URL", hook.origin),
                             "e.g. --alert-webhook https://hooks.slack.com/services/...");
        }
        a.webhook = hook.value;
    }
    a.slack =
        one_of(
            layered_alert("json", env, "CGBENCH_ALERT_FORMAT", in.alert_format, "--alert-format"),
            {"json", "slack"},
            "json: cgbench's payload (docs/ci/alerts.md); slack: {\"text\": ...}") == "slack";
    const auto issue =
        one_of(layered_alert("", env, "CGBENCH_ALERT_ISSUE", in.alert_issue, "--alert-issue"),
               {"", "github", "gitlab"}, "the issue is filed with the CI's token on that forge");
    if (!issue.empty()) a.issue = issue;
    if (in.alert_timeout) {
        const auto s = util::parse_seconds(*in.alert_timeout);
        if (!s || *s <= 0 || *s > 300) {
            throw UsageError(fmt::format("--alert-timeout '{}' is not a time from 0 to 300 s",
                                         util::printable(*in.alert_timeout)),
                             "e.g. --alert-timeout 10");
        }
        a.timeout_seconds = *s;
    }
    if (in.alert_state) {
        a.state = fs::absolute(cwd / *in.alert_state);
    } else if (const auto file = db ? db->file() : std::nullopt) {
        a.state = file->parent_path() / "alerts.json";
    }
    return a;
}

// The base the CI names for a pull request; UsageError naming the variables a pull-request
// job of a known CI lacks.
void base_from_ci(PrPlan& plan) {
    const auto& f = plan.ci;
    if (!f.pull_request) return;
    if (!f.base) {
        throw UsageError(
            fmt::format("{} runs this job for a pull request{}, but {} {} not set",
                        f.provider->name, f.pr_number ? " (#" + *f.pr_number + ")" : "",
                        util::join(f.missing, " and "), f.missing.size() == 1 ? "is" : "are"),
            fmt::format("run it as the pull-request job docs/ci/{}.md shows, or pass --base REF",
                        f.provider->id));
    }
    plan.base = f.base;
    plan.base_branch = f.base_branch;
}

}  // namespace

PrPlan plan_pr(const PrInput& in, const exec::EnvMap& env, const fs::path& cwd) {
    PrPlan plan;
    plan.ci = ci::read_facts(env);
    plan.run = run_input(in);
    plan.thresholds = thresholds(in, env, plan.gate);
    if (in.build && in.build->empty())
        throw UsageError("--build needs a command", "or leave it out");
    plan.build = in.build;
    if (in.out_dir.empty()) throw UsageError("--out-dir needs a directory");
    plan.out_dir = util::absolute_lexical(cwd / in.out_dir);
    plan.report_only = in.report_only;
    if (in.history) {
        if (in.history->empty()) {
            throw UsageError("--history needs a history", "pass a file path or a URL");
        }
        plan.history = history::Location(*in.history).absolute(cwd);
    }
    plan.warn_only = in.warn_only;
    plan.keep_raw = in.keep_raw;
    plan.flame = !in.no_flame;
    plan.reuse = !in.no_reuse;
    if (in.base) {
        if (in.base->empty()) throw UsageError("--base needs a git ref", "e.g. --base origin/main");
        plan.base = in.base;
    } else if (!in.report_only) {  // the report reads what the measuring jobs wrote
        base_from_ci(plan);
    }
    // A parallel job of a pull request measures its shard; a push (branch mode) and the
    // report measure nothing split.
    if (in.shard) {
        plan.shard = parse_shard(*in.shard, "--shard").text();
        if (!plan.base && !plan.report_only) {
            throw UsageError("--shard splits a pull request's measurement, and there is no base",
                             "pass --base REF, or leave --shard out on a push");
        }
    } else if (plan.ci.shard && plan.base && !plan.report_only) {
        plan.shard = parse_shard(plan.ci.shard->text, plan.ci.shard->origin).text();
    }
    plan.alerts = alert_plan(in, env, plan.history, cwd);
    return plan;
}

}  // namespace cgbench::config
