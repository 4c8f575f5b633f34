// `cgbench ci env` and `cgbench ci providers`: what cgbench reads from the CI job it runs in,
// from the one table of CI systems (ci/providers.hpp), for scripts and people: a script asks
// cgbench instead of reading each system's variables itself.

#include <fmt/format.h>

#include <memory>
#include <nlohmann/json.hpp>

#include "base/errors.hpp"
#include "ci/facts.hpp"
#include "cli/cli11.hpp"
#include "cli/command.hpp"
#include "report/text_table.hpp"
#include "util/strings.hpp"

namespace cgbench::cli {

namespace {

// The facts as (name, value) pairs, in the order `ci env` prints them; unknown ones empty.
std::vector<std::pair<std::string, std::string>> fields(const ci::Facts& f) {
    const auto v = [](const std::optional<std::string>& o) { return o.value_or(""); };
    return {{"CGBENCH_CI", f.provider ? std::string(f.provider->id) : ""},
            {"CGBENCH_CI_NAME", f.provider ? std::string(f.provider->name) : ""},
            {"CGBENCH_CI_PULL_REQUEST", f.pull_request ? "true" : "false"},
            {"CGBENCH_CI_PR", v(f.pr_number)},
            {"CGBENCH_CI_BASE", v(f.base)},
            {"CGBENCH_CI_BASE_BRANCH", v(f.base_branch)},
            {"CGBENCH_CI_BRANCH", v(f.branch)},
            {"CGBENCH_CI_DEFAULT_BRANCH", v(f.default_branch)},
            {"CGBENCH_CI_COMMIT_URL", v(f.commit_url)},
            {"CGBENCH_CI_REMOTE", v(f.remote)},
            {"CGBENCH_CI_JOB_URL", v(f.job_url)},
            {"CGBENCH_CI_API_URL", v(f.api_url)},
            {"CGBENCH_CI_REPOSITORY", v(f.repository)},
            {"CGBENCH_CI_SHARD", f.shard ? f.shard->text : ""},
            {"CGBENCH_CI_MISSING", util::join(f.missing, " ")}};
}

int env(const std::string& format, const Context& ctx) {
    const auto facts = ci::read_facts(ctx.env);
    std::string out;
    if (format == "json") {
        nlohmann::ordered_json j;
        for (const auto& [k, value] : fields(facts))
            j[k] = value;
        out = j.dump(2) + "\n";
    } else if (format == "shell") {
        for (const auto& [k, value] : fields(facts))
            out += k + "=" + (value.empty() ? "''" : util::shell_quote(value)) + "\n";
    } else {
        throw UsageError(
            fmt::format("--format '{}' is neither shell nor json", util::printable(format)),
            "shell: KEY='value' lines (eval \"$(cgbench ci env)\"); json: one object");
    }
    print_out(out);
    return 0;
}

int providers() {
    report::TextTable t({{"id", report::Align::Left},
                         {"name", report::Align::Left},
                         {"recognised by", report::Align::Left},
                         {"parallel jobs", report::Align::Left}});
    for (const auto& p : ci::providers()) {
        std::vector<std::string> detect;
        for (const auto d : p.detect) {
            if (!d.empty()) detect.emplace_back(d);
        }
        t.add_row({std::string(p.id), std::string(p.name), util::join(detect, ", "),
                   p.shard_index.empty() ? "-"
                                         : fmt::format("{}/{} ({}-based)", p.shard_index,
                                                       p.shard_total, p.shard_base)});
    }
    print_out(t.render(0));
    return 0;
}

}  // namespace

Subcommand register_ci(CLI::App& app, GlobalOptions& global) {
    auto* ci = app.add_subcommand(
        "ci", "What cgbench reads from the CI job it runs in (`cgbench ci env`)");
    ci->require_subcommand(1);
    add_global_flags(*ci, global);
    auto* env_cmd = ci->add_subcommand(
        "env",
        "Print what this CI job says, as cgbench reads it (the table of CI systems): the system,\n"
        "whether the job is for a pull request, its number, base and base branch, the branch,\n"
        "the default branch, commit and job links, the API, the shard; CGBENCH_CI_MISSING names\n"
        "the variables a pull-request job lacks. Empty values: not known here.\n"
        "  eval \"$(cgbench ci env)\"; echo \"$CGBENCH_CI_BASE\"");
    add_global_flags(*env_cmd, global);
    auto format = std::make_shared<std::string>("shell");
    env_cmd->add_option("--format", *format, "shell (KEY='value' lines) or json [shell]");
    env_cmd->footer(exit_code_help());
    auto* providers_cmd = ci->add_subcommand("providers", "List the CI systems cgbench knows");
    add_global_flags(*providers_cmd, global);
    return {ci, [format, env_cmd](const Context& ctx) {
                return env_cmd->parsed() ? env(*format, ctx) : providers();
            }};
}

}  // namespace cgbench::cli
