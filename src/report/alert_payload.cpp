#include "report/alert_payload.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

#include "config/commit_url.hpp"
#include "core/result_json.hpp"
#include "report/compare_summary.hpp"
#include "report/escape.hpp"
#include "report/function_report.hpp"
#include "util/strings.hpp"

namespace cgbench::report {

namespace {

using ojson = nlohmann::ordered_json;

constexpr std::size_t kFunctions = 5;  // the functions that moved most, per step

std::string alert_short_commit(const std::optional<std::string>& commit) {
    return commit ? commit->substr(0, 10) : "(no commit)";
}

std::optional<std::string> link(const Alert& a, const std::optional<std::string>& commit) {
    if (!a.commit_url || !commit) return std::nullopt;
    return config::commit_url(*a.commit_url, *commit);
}

// "sum/60000 cost +4.99%" or "copy/20000 fails now (exited with status 1)".
std::string step_line(const AlertStep& s) {
    const auto& b = *s.benchmark;
    if (s.broke) {
        return fmt::format("{} fails now ({})", util::printable(b.name),
                           util::printable(b.head ? b.head->error : "failed"));
    }
    const auto* h = b.headline();
    if (h == nullptr) return util::printable(b.name);
    return fmt::format("{} {} {}", util::printable(b.name), h->metric.name(), change_cell(*h));
}

// The functions that moved most, as the JSON reports write them.
ojson functions_json(const compare::BenchmarkComparison& b) {
    const auto n = std::min(b.moved.size(), kFunctions);
    return function_changes_json(
        {b.moved.begin(), b.moved.begin() + static_cast<std::ptrdiff_t>(n)});
}

ojson step_json(const AlertStep& s) {
    const auto& b = *s.benchmark;
    ojson j{{"key", s.key},
            {"benchmark", b.name},
            {"kind", s.broke ? "failure" : "regression"},
            {"reason", verdict_reason(b)}};
    const auto* h = b.headline();
    if (h != nullptr && !s.broke) {
        j["metric"] = std::string(h->metric.name());
        j["base"] = h->base;
        j["head"] = h->head;
        const double rel = h->relative();
        j["change"] = std::isfinite(rel) ? ojson(rel) : ojson();
    }
    if (s.broke && b.head) j["error"] = b.head->error;
    j["functions"] = functions_json(b);
    return j;
}

// Slack's mrkdwn: & < > are its markup.
std::string slack_escape(std::string_view text) {
    std::string out;
    for (const char c : util::printable(text)) {
        if (c == '&') {
            out += "&amp;";
        } else if (c == '<') {
            out += "&lt;";
        } else if (c == '>') {
            out += "&gt;";
        } else {
            out += c;
        }
    }
    return out;
}

// Markdown text of a name: escaped, and an @ kept from mentioning anyone (a zero-width
// joiner after it), since the alert is posted by the project's bot.
std::string md(std::string_view text) {
    std::string out;
    for (const char c : markdown_escape(text)) {
        out += c;
        if (c == '@') out += "\u200d";
    }
    return out;
}

}  // namespace

std::string alert_text(const Alert& a) {
    const auto& c = *a.comparison;
    std::vector<std::string> steps;
    for (const auto& s : a.steps)
        steps.push_back(step_line(s));
    return fmt::format("cgbench: {} new {} on {} at {}: {}", a.steps.size(),
                       a.steps.size() == 1 ? "step" : "steps",
                       util::printable(c.head.git.branch.value_or("(no branch)")),
                       alert_short_commit(c.head.git.commit), util::join(steps, "; "));
}

std::string alert_json(const Alert& a) {
    const auto& c = *a.comparison;
    ojson steps = ojson::array();
    for (const auto& s : a.steps)
        steps.push_back(step_json(s));
    ojson j{{"schema", "cgbench-alert/1"},
            {"text", alert_text(a)},
            {"repository", json_or_null(a.repository)},
            {"branch", json_or_null(c.head.git.branch)},
            {"commit", json_or_null(c.head.git.commit)},
            {"commit_url", json_or_null(link(a, c.head.git.commit))},
            {"previous_commit", json_or_null(c.base.git.commit)},
            {"previous_commit_url", json_or_null(link(a, c.base.git.commit))},
            {"report_url", json_or_null(a.report_url)},
            {"steps", std::move(steps)}};
    return j.dump() + "\n";
}

std::string alert_slack(const Alert& a) {
    const auto& c = *a.comparison;
    std::string commit = alert_short_commit(c.head.git.commit);
    if (const auto url = link(a, c.head.git.commit)) commit = fmt::format("<{}|{}>", *url, commit);
    std::string text = fmt::format("*cgbench*: {} new {} on `{}` at {}", a.steps.size(),
                                   a.steps.size() == 1 ? "step" : "steps",
                                   slack_escape(c.head.git.branch.value_or("(no branch)")), commit);
    if (a.report_url) text += fmt::format(" (<{}|report>)", *a.report_url);
    for (const auto& s : a.steps) {
        text += "\n• " + slack_escape(step_line(s));
        for (std::size_t i = 0; i < s.benchmark->moved.size() && i < 3 && !s.broke; ++i) {
            const auto& f = s.benchmark->moved[i];
            text += fmt::format("\n    {} {:+}", slack_escape(f.name), f.delta);
        }
    }
    return ojson{{"text", text}}.dump() + "\n";
}

std::string alert_issue_title(const std::string& branch) {
    return fmt::format("cgbench: performance alerts on {}", util::printable(branch));
}

std::string alert_markdown(const Alert& a) {
    const auto& c = *a.comparison;
    std::string commit = alert_short_commit(c.head.git.commit);
    if (const auto url = link(a, c.head.git.commit)) commit = fmt::format("[{}]({})", commit, *url);
    std::string out = fmt::format("**{} new {}** on {} at {} (against the previous run, {})",
                                  a.steps.size(), a.steps.size() == 1 ? "step" : "steps",
                                  md(c.head.git.branch.value_or("(no branch)")), commit,
                                  alert_short_commit(c.base.git.commit));
    if (a.report_url) out += fmt::format(" · [the job]({})", *a.report_url);
    out += "\n\n";
    for (const auto& s : a.steps) {
        out +=
            fmt::format("- **{}**: {}\n", md(s.benchmark->name), md(verdict_reason(*s.benchmark)));
        for (std::size_t i = 0; i < s.benchmark->moved.size() && i < kFunctions; ++i) {
            const auto& f = s.benchmark->moved[i];
            out += fmt::format("  - {} {:+} ({})\n", md(f.name), f.delta, md(f.file));
        }
    }
    return out;
}

}  // namespace cgbench::report
