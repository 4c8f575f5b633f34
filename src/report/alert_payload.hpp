#pragma once
// What an alert says, in the forms it is delivered in: cgbench's JSON payload (schema
// "cgbench-alert/1", documented in docs/ci/alerts.md), a Slack-compatible payload ({"text":
// ...} in Slack's mrkdwn, which Mattermost and Rocket.Chat take too) and Markdown for an
// issue. Pure renderers, like the reporters: the policy of what to alert is the caller's.

#include <optional>
#include <string>
#include <vector>

#include "compare/comparison.hpp"

namespace cgbench::report {

// One step of a benchmark's series: it got more expensive beyond its threshold, or it fails
// now and did not before.
struct AlertStep {
    std::string key;  // identifies the step, so that it is alerted once
    const compare::BenchmarkComparison* benchmark = nullptr;
    bool broke = false;  // fails now; else a regression
};

// The alert of one push: its new steps, against the previous run of the branch.
struct Alert {
    const compare::Comparison* comparison = nullptr;
    std::vector<AlertStep> steps;
    std::optional<std::string> commit_url;  // a template with "{commit}"
    std::optional<std::string> report_url;  // the CI job's page
    std::optional<std::string> repository;
};

// The one-line summary: "cgbench: 1 regression on main at 1a2b3c4d5e: sum/60000 cost +4.99%".
std::string alert_text(const Alert& alert);

// cgbench's payload (cgbench-alert/1): the summary, the commit, the branch, the previous
// commit, links, and per step the change and the functions that moved.
std::string alert_json(const Alert& alert);

// {"text": ...}: the summary and a line per step with the functions that moved most, in
// Slack's mrkdwn (& < > escaped, links as <url|text>).
std::string alert_slack(const Alert& alert);

// The title of the issue alerts are filed in for `branch`.
std::string alert_issue_title(const std::string& branch);

// The alert as Markdown (an issue's body or a comment on it); names escaped.
std::string alert_markdown(const Alert& alert);

}  // namespace cgbench::report
