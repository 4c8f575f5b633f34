// `cgbench pr` on a push: the steps of this run against the previous run of its branch,
// alerted once each (a webhook, an issue), and never at the cost of the measurement.

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <nlohmann/json.hpp>
#include <thread>

#include "base/errors.hpp"
#include "cli/command.hpp"
#include "cli/pr.hpp"
#include "config/commit_url.hpp"
#include "exec/http.hpp"
#include "exec/interrupt.hpp"
#include "report/alert_payload.hpp"
#include "util/fs.hpp"
#include "util/strings.hpp"
#include "util/time.hpp"

namespace cgbench::cli::pr {

namespace {

using report::AlertStep;

constexpr std::size_t kLedgerSize = 1000;  // the newest keys kept

// This push's steps: benchmarks that got more expensive beyond their threshold, and ones that
// fail now and did not before. The key names the branch, the kind, the previous run's commit
// (the level the step left) and the benchmark: a re-run of the push, and the next push when
// this run was not kept, meet the same step under the same key.
std::vector<AlertStep> steps_of(const compare::Comparison& c) {
    std::vector<AlertStep> steps;
    const auto base = c.base.git.commit.value_or(c.base.run_id).substr(0, 12);
    for (const auto& b : c.benchmarks) {
        const bool broke = b.verdict == compare::Verdict::Failed;
        if (!broke && b.verdict != compare::Verdict::Regression) continue;
        steps.push_back({fmt::format("{}:{}:{}:{}", broke ? "failure" : "regression",
                                     c.head.git.branch.value_or(""), base, b.name),
                         &b, broke});
    }
    return steps;
}

// The keys of the steps alerted before (a JSON file, newest last); a damaged file is
// said and counts as empty, so alerts go out rather than stay silent.
class Ledger {
  public:
    explicit Ledger(std::optional<fs::path> file) : file_(std::move(file)) {
        if (!file_ || !fs::exists(*file_)) return;
        try {
            const auto doc = nlohmann::json::parse(util::read_file(*file_));
            for (const auto& k : doc.at("alerted"))
                keys_.push_back(k.at("key").get<std::string>());
        } catch (const std::exception&) {
            warn(fmt::format("{} is not a cgbench alert record; starting a new one",
                             file_->string()));
            keys_.clear();
        }
    }
    bool has(const std::string& key) const {
        return std::find(keys_.begin(), keys_.end(), key) != keys_.end();
    }
    void save(const std::vector<AlertStep>& sent) {
        if (!file_) return;
        for (const auto& s : sent)
            keys_.push_back(s.key);
        const auto first = keys_.size() > kLedgerSize ? keys_.size() - kLedgerSize : 0;
        nlohmann::json alerted = nlohmann::json::array();
        for (std::size_t i = first; i < keys_.size(); ++i)
            alerted.push_back({{"key", keys_[i]}});
        try {
            fs::create_directories(file_->parent_path());
            util::write_file_atomic(
                *file_,
                nlohmann::json{{"schema", "cgbench-alerts/1"}, {"alerted", alerted}}.dump(1) +
                    "\n");
        } catch (const std::exception& e) {
            warn(
                fmt::format("the alerted steps could not be kept ({}): a re-run may alert them "
                            "again",
                            e.what()));
        }
    }

  private:
    std::optional<fs::path> file_;
    std::vector<std::string> keys_;
};

// "https://hooks.example.com/…": where a request goes, without the path (a webhook's path is
// its secret).
std::string where(const std::string& url) {
    const auto scheme = url.find("://");
    const auto slash = url.find('/', scheme == std::string::npos ? 0 : scheme + 3);
    return util::printable(url.substr(0, slash)) + (slash == std::string::npos ? "" : "/…");
}

// Waits `seconds`, or until cgbench is interrupted (then throws Interrupted).
void pause(double seconds) {
    const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    while (std::chrono::steady_clock::now() < end) {
        exec::throw_if_interrupted();
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
}

// Sends `request` up to `plan.attempts` times (again after no answer, 429 or 5xx; 1 s, then
// 2 s between); the last response.
exec::HttpResponse send(exec::HttpRequest request, const config::AlertPlan& plan,
                        const Context& ctx) {
    request.timeout_seconds = plan.timeout_seconds;
    exec::HttpResponse r;
    for (int attempt = 1; attempt <= plan.attempts; ++attempt) {
        if (attempt > 1) pause(attempt - 1.0);
        r = exec::send_http(request, ctx.env, ctx.runner);
        if (r.answered && r.status < 500 && r.status != 429) break;
    }
    return r;
}

// "HTTP 403: Resource not accessible by integration", or why nothing answered.
std::string failure_of(const exec::HttpResponse& r, const config::AlertPlan& plan) {
    if (!r.answered) {
        return fmt::format("{} ({} attempt{})", r.error, plan.attempts,
                           plan.attempts == 1 ? "" : "s");
    }
    std::string message;
    try {
        message = nlohmann::json::parse(r.body).value("message", "");
    } catch (const std::exception&) {  // not JSON: the status says enough
    }
    return fmt::format("HTTP {}{}", r.status,
                       message.empty() ? "" : ": " + util::printable(message.substr(0, 200)));
}

bool ok(const exec::HttpResponse& r) {
    return r.answered && r.status >= 200 && r.status < 300;
}

bool webhook(const config::PrPlan& plan, const report::Alert& alert, const Context& ctx) {
    exec::HttpRequest req;
    req.url = *plan.alerts.webhook;
    req.headers = {"Content-Type: application/json", "User-Agent: cgbench"};
    req.body = plan.alerts.slack ? report::alert_slack(alert) : report::alert_json(alert);
    const auto r = send(req, plan.alerts, ctx);
    if (ok(r)) {
        say(ctx, fmt::format("alert sent to {} ({} step{})", where(req.url), alert.steps.size(),
                             alert.steps.size() == 1 ? "" : "s"));
        return true;
    }
    warn(
        fmt::format("the alert was not delivered to {}: {}; the measurement and its exit code "
                    "stand",
                    where(req.url), failure_of(r, plan.alerts)));
    return false;
}

// How a forge files issues: its API's paths and names.
struct Forge {
    std::string_view name;
    std::string_view token_variable;
    std::string_view auth;     // the header, before the token
    std::string_view list;     // open issues labelled cgbench, from the repository's path
    std::string_view comment;  // a comment on issue {n}
    std::string_view create;
    std::string_view body_key;    // "body" or "description"
    std::string_view number_key;  // "number" or "iid"
    std::string_view permission;  // what the token needs
};

constexpr Forge kGithub{"GitHub",
                        "GITHUB_TOKEN",
                        "Authorization: Bearer ",
                        "/repos/{}/issues?state=open&labels=cgbench&per_page=100",
                        "/repos/{}/issues/{}/comments",
                        "/repos/{}/issues",
                        "body",
                        "number",
                        "the job's token with `permissions: issues: write`"};
constexpr Forge kGitlab{"GitLab",
                        "CGBENCH_GITLAB_TOKEN",
                        "PRIVATE-TOKEN: ",
                        "/projects/{}/issues?state=opened&labels=cgbench&per_page=100",
                        "/projects/{}/issues/{}/notes",
                        "/projects/{}/issues",
                        "description",
                        "iid",
                        "a token with `api` scope and at least the Reporter role"};

// The number of the open issue titled `title` the list `r` holds, if any.
std::optional<std::uint64_t> issue_titled(const exec::HttpResponse& r, const Forge& f,
                                          const std::string& title) {
    if (!ok(r)) return std::nullopt;
    try {
        for (const auto& issue : nlohmann::json::parse(r.body)) {
            if (issue.value("title", "") == title) {
                return issue.at(std::string(f.number_key)).get<std::uint64_t>();
            }
        }
    } catch (const std::exception&) {  // an answer that is no issue list: open a new issue
    }
    return std::nullopt;
}

// The request that comments on issue `number`, or opens one when there is none.
exec::HttpRequest issue_post(exec::HttpRequest req, const Forge& f, const config::PrPlan& plan,
                             std::optional<std::uint64_t> number, const std::string& title,
                             const std::string& markdown) {
    req.method = "POST";
    const auto& repo = *plan.ci.repository;
    if (number) {
        req.url = *plan.ci.api_url + fmt::format(fmt::runtime(f.comment), repo, *number);
        req.body = nlohmann::json{{"body", markdown}}.dump();
        return req;
    }
    req.url = *plan.ci.api_url + fmt::format(fmt::runtime(f.create), repo);
    const bool github = *plan.alerts.issue == "github";
    req.body = nlohmann::json{{"title", title},
                              {std::string(f.body_key), markdown},
                              {"labels", github ? nlohmann::json::array({"cgbench"})
                                                : nlohmann::json("cgbench")}}
                   .dump();
    return req;
}

bool file_issue(const config::PrPlan& plan, const report::Alert& alert, const Context& ctx) {
    const Forge& f = *plan.alerts.issue == "github" ? kGithub : kGitlab;
    const auto token = ctx.env.find(std::string(f.token_variable));
    const bool here = plan.ci.api_url && plan.ci.repository;
    if (!here || token == ctx.env.end() || token->second.empty()) {
        warn(fmt::format("no {} issue was filed: {} (give the job {} in {})", f.name,
                         here ? std::string(f.token_variable) + " is not set"
                              : "this job is not on " + std::string(f.name),
                         f.permission, f.token_variable));
        return false;
    }
    exec::HttpRequest req;
    req.headers = {std::string(f.auth) + token->second, "Content-Type: application/json",
                   "Accept: application/json", "User-Agent: cgbench"};
    req.method = "GET";
    req.url = *plan.ci.api_url + fmt::format(fmt::runtime(f.list), *plan.ci.repository);
    const auto title = report::alert_issue_title(alert.comparison->head.git.branch.value_or(""));
    const auto number = issue_titled(send(req, plan.alerts, ctx), f, title);
    const auto r = send(issue_post(req, f, plan, number, title, report::alert_markdown(alert)),
                        plan.alerts, ctx);
    if (ok(r)) {
        say(ctx, number ? fmt::format("alert added to {} issue #{}", f.name, *number)
                        : fmt::format("alert filed as a new {} issue", f.name));
        return true;
    }
    warn(fmt::format(
        "the {} issue was not {}: {} (the token needs {}); the measurement and its "
        "exit code stand",
        f.name, number ? "commented on" : "opened", failure_of(r, plan.alerts), f.permission));
    return false;
}

}  // namespace

void send_alerts(const config::PrPlan& plan, const compare::Comparison& comparison,
                 const Context& ctx) {
    if (!plan.history) {
        warn("alerts compare a push with the previous run of its branch: pass --history DB");
        return;
    }
    if (!comparison.has_baseline) return;  // the branch's first run: no step to see
    auto steps = steps_of(comparison);
    Ledger ledger(plan.alerts.state);
    const auto before = steps.size();
    steps.erase(std::remove_if(steps.begin(), steps.end(),
                               [&](const AlertStep& s) { return ledger.has(s.key); }),
                steps.end());
    if (steps.size() < before) {
        say(ctx, fmt::format("{} step{} alerted before, not again", before - steps.size(),
                             before - steps.size() == 1 ? " was" : "s were"));
    }
    if (steps.empty()) return;
    report::Alert alert{&comparison, steps, config::commit_url_from_ci(ctx.env), plan.ci.job_url,
                        plan.ci.repository};
    bool delivered = false;
    if (plan.alerts.webhook) delivered = webhook(plan, alert, ctx) || delivered;
    if (plan.alerts.issue) delivered = file_issue(plan, alert, ctx) || delivered;
    if (delivered) ledger.save(steps);
}

}  // namespace cgbench::cli::pr
