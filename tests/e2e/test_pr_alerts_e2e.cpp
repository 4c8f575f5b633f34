// Alerts for the default branch, end to end: pushes to main measured by `cgbench pr
// --history` under the real Valgrind, the alerts delivered by curl to a receiver on 127.0.0.1
// (tests/e2e/http_receiver.hpp) that records them: the payload, one alert per step and never
// two, retries, a webhook that never answers (bounded, said, the exit code unchanged), and
// the GitHub and GitLab issue APIs with a token that may and one that may not.

#include <gtest/gtest.h>

#include <chrono>
#include <nlohmann/json.hpp>

#include "e2e/harness.hpp"
#include "e2e/http_receiver.hpp"
#include "e2e/pr_repo.hpp"
#include "util/fs.hpp"

namespace cgbench::e2e {

namespace {

const std::vector<std::string> kUnset = {
    "GITHUB_ACTIONS",     "GITHUB_EVENT_NAME", "GITHUB_BASE_REF",
    "GITHUB_HEAD_REF",    "GITHUB_REF_NAME",   "GITHUB_SERVER_URL",
    "GITHUB_REPOSITORY",  "GITHUB_API_URL",    "GITHUB_TOKEN",
    "GITLAB_CI",          "CI_PROJECT_URL",    "CI_MERGE_REQUEST_IID",
    "CI_COMMIT_REF_NAME", "CI_NODE_INDEX",     "CI_SERVER_URL",
    "CI_API_V4_URL",      "CI_PROJECT_ID",     "CGBENCH_GITLAB_TOKEN",
    "CGBENCH_DB",         "CGBENCH_THRESHOLD", "CGBENCH_ALERT_WEBHOOK",
    "JENKINS_URL",        "BUILDKITE",         "TF_BUILD",
    "FORGEJO_ACTIONS",    "GITEA_ACTIONS"};

// A repository on main whose pushes the test makes, measured with a history.
class Pushes {
  public:
    explicit Pushes(const std::string& name) : dir_(scratch(name)), repo_(dir_, Build::Cc) {
        repo_.checkout("main");
    }

    // cgbench pr on the current commit of main, with the history and `args`.
    Ran push(const std::vector<std::string>& args,
             const std::map<std::string, std::string>& env = {}) {
        std::vector<std::string> argv = {CGBENCH_BINARY, "pr",
                                         "--build",      "./build.sh",
                                         "--history",    (dir_ / "db/history.db").string()};
        argv.insert(argv.end(), args.begin(), args.end());
        return run_tool(argv, repo_.dir(), env, kUnset);
    }

    // A commit on main: accumulate does `extra`% more steps; "idle" fails with `idle_fails`.
    void commit(int extra, bool idle_fails = false, const std::string& subject = "change") {
        repo_.program(extra, idle_fails);
        repo_.commit(subject);
    }

    const fs::path& dir() const { return dir_; }
    PrRepo& repo() { return repo_; }

  private:
    fs::path dir_;
    PrRepo repo_;
};

nlohmann::json body(const HttpReceiver::Request& r) {
    return nlohmann::json::parse(r.body);
}

}  // namespace

// The first push has no baseline; the regressing one alerts once with the documented payload;
// its step is not alerted again when the run is met again against the same previous run (a
// re-run whose earlier result was not kept), nor by the next pushes; a benchmark that breaks
// is a new step, alerted once, and still failing is no new step.
TEST(PrAlertsE2E, OneAlertPerStepWithTheDocumentedPayload) {
    HttpReceiver receiver([](const auto&, std::size_t) { return HttpReceiver::Reply{}; });
    Pushes p("alerts-steps");
    const std::vector<std::string> hook = {"--alert-webhook", receiver.url()};
    ASSERT_EQ(p.push(hook).exit_code, 0);
    EXPECT_TRUE(receiver.requests().empty()) << "the first run has nothing to compare with";
    fs::copy_file(p.dir() / "db/history.db", p.dir() / "before.db");
    const auto before = p.repo().rev("HEAD");

    p.commit(10);
    auto r = p.push(hook);
    EXPECT_EQ(r.exit_code, 1) << r.err;
    const auto got = receiver.requests();
    ASSERT_EQ(got.size(), 1U) << r.err;
    const auto& req = got[0];
    EXPECT_EQ(req.method, "POST");
    EXPECT_EQ(req.target, "/hook");
    EXPECT_EQ(req.headers.at("content-type"), "application/json");
    const auto a = body(req);
    EXPECT_EQ(a.at("schema"), "cgbench-alert/1");
    EXPECT_EQ(a.at("branch"), "main");
    EXPECT_EQ(a.at("commit"), p.repo().rev("HEAD"));
    EXPECT_EQ(a.at("previous_commit"), before);
    ASSERT_EQ(a.at("steps").size(), 1U) << a.dump(1);
    const auto& step = a.at("steps")[0];
    EXPECT_EQ(step.at("benchmark"), "work");
    EXPECT_EQ(step.at("kind"), "regression");
    EXPECT_EQ(step.at("metric"), "cost");
    EXPECT_GT(step.at("change").get<double>(), 0.01);
    EXPECT_GT(step.at("head").get<std::uint64_t>(), step.at("base").get<std::uint64_t>());
    ASSERT_FALSE(step.at("functions").empty());
    EXPECT_EQ(step.at("functions")[0].at("name"), "accumulate");
    EXPECT_NE(a.at("text").get<std::string>().find("work cost +"), std::string::npos) << a.dump(1);
    EXPECT_NE(r.err.find("alert sent to http://127.0.0.1:"), std::string::npos) << r.err;

    // The same push again, its previous run as before (the regressed run was not kept).
    fs::copy_file(p.dir() / "before.db", p.dir() / "db/history.db",
                  fs::copy_options::overwrite_existing);
    r = p.push(hook);
    EXPECT_EQ(r.exit_code, 1) << r.err;
    EXPECT_EQ(receiver.requests().size(), 1U) << "a step alerted before was alerted again";
    EXPECT_NE(r.err.find("1 step was alerted before, not again"), std::string::npos) << r.err;

    p.commit(10, false, "a comment");  // nothing moves
    EXPECT_EQ(p.push(hook).exit_code, 0);
    EXPECT_EQ(receiver.requests().size(), 1U);

    p.commit(10, true);  // idle breaks
    r = p.push(hook);
    EXPECT_EQ(r.exit_code, 3) << r.err;
    ASSERT_EQ(receiver.requests().size(), 2U) << r.err;
    const auto broke = body(receiver.requests()[1]).at("steps");
    ASSERT_EQ(broke.size(), 1U);
    EXPECT_EQ(broke[0].at("benchmark"), "idle");
    EXPECT_EQ(broke[0].at("kind"), "failure");

    p.commit(10, true, "still broken");
    EXPECT_EQ(p.push(hook).exit_code, 3);
    EXPECT_EQ(receiver.requests().size(), 2U) << "still failing is no new step";
    const auto ledger = read_json(p.dir() / "db/alerts.json");
    EXPECT_EQ(ledger.at("alerted").size(), 2U) << ledger.dump(1);
}

// A 503 is retried and the second attempt delivers; Slack's payload is one "text".
TEST(PrAlertsE2E, RetriedUntilDeliveredAndSlackShaped) {
    HttpReceiver receiver([](const auto&, std::size_t n) {
        return n == 0 ? HttpReceiver::Reply{503, "{}", false} : HttpReceiver::Reply{};
    });
    Pushes p("alerts-retry");
    const std::vector<std::string> hook = {"--alert-webhook", receiver.url(), "--alert-format",
                                           "slack"};
    ASSERT_EQ(p.push(hook).exit_code, 0);
    p.commit(10);
    const auto r = p.push(hook);
    EXPECT_EQ(r.exit_code, 1) << r.err;
    const auto got = receiver.requests();
    ASSERT_EQ(got.size(), 2U) << r.err;
    EXPECT_EQ(got[0].body, got[1].body);
    const auto slack = body(got[1]);
    ASSERT_EQ(slack.size(), 1U) << slack.dump();
    const auto text = slack.at("text").get<std::string>();
    EXPECT_NE(text.find("*cgbench*: 1 new step on `main`"), std::string::npos) << text;
    EXPECT_NE(text.find("work cost +"), std::string::npos) << text;
    EXPECT_NE(text.find("accumulate +"), std::string::npos) << text;
    EXPECT_NE(r.err.find("alert sent"), std::string::npos) << r.err;
}

// A webhook that never answers costs at most the attempts' timeouts and pauses, is said, and
// leaves the exit code what the gate made it; so does one that refuses connections.
TEST(PrAlertsE2E, AnUnreachableWebhookIsBoundedSaidAndHarmless) {
    HttpReceiver receiver([](const auto&, std::size_t) {
        return HttpReceiver::Reply{200, "", true};
    });
    Pushes p("alerts-hang");
    const std::vector<std::string> hook = {"--alert-webhook", receiver.url(), "--alert-timeout",
                                           "1"};
    ASSERT_EQ(p.push(hook).exit_code, 0);
    p.commit(10);
    const auto started = std::chrono::steady_clock::now();
    const auto r = p.push(hook);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    EXPECT_EQ(r.exit_code, 1) << r.err;
    EXPECT_EQ(receiver.requests().size(), 3U);
    EXPECT_NE(r.err.find("cgbench: warning: the alert was not delivered to http://127.0.0.1:"),
              std::string::npos)
        << r.err;
    EXPECT_NE(
        r.err.find("timed out after 1 s (3 attempts); the measurement and its exit code stand"),
        std::string::npos)
        << r.err;
    EXPECT_LT(seconds, 120) << "the attempts are bounded";
    EXPECT_FALSE(fs::exists(p.dir() / "db/alerts.json")) << "an undelivered step is not recorded";

    // Nobody listening: refused at once, said the same way.
    p.commit(20);
    const auto refused =
        p.push({"--alert-webhook", "http://127.0.0.1:1/hook", "--alert-timeout", "1"});
    EXPECT_EQ(refused.exit_code, 1) << refused.err;
    EXPECT_NE(refused.err.find("the alert was not delivered to http://127.0.0.1:1/…"),
              std::string::npos)
        << refused.err;
}

// GitHub: the first step opens an issue (labelled cgbench) with the job's token, the next one
// comments on it; a token without the permission is said and changes nothing.
TEST(PrAlertsE2E, GithubIssueOpenedThenCommentedOn) {
    bool opened = false;
    HttpReceiver receiver([&opened](const HttpReceiver::Request& r, std::size_t) {
        if (r.headers.count("authorization") == 0 ||
            r.headers.at("authorization") != "Bearer secret") {
            return HttpReceiver::Reply{403,
                                       R"({"message": "Resource not accessible by integration"})"};
        }
        if (r.method == "GET") {
            return HttpReceiver::Reply{
                200, opened ? R"([{"number": 7, "title": "cgbench: performance alerts on main"}])"
                            : "[]"};
        }
        opened = true;
        return HttpReceiver::Reply{201, R"({"number": 7})"};
    });
    Pushes p("alerts-github");
    std::map<std::string, std::string> env = {{"GITHUB_ACTIONS", "true"},
                                              {"GITHUB_EVENT_NAME", "push"},
                                              {"GITHUB_API_URL", receiver.url("")},
                                              {"GITHUB_SERVER_URL", "https://github.com"},
                                              {"GITHUB_REPOSITORY", "o/r"},
                                              {"GITHUB_RUN_ID", "99"},
                                              {"GITHUB_TOKEN", "secret"}};
    const std::vector<std::string> issue = {"--alert-issue", "github"};
    ASSERT_EQ(p.push(issue, env).exit_code, 0);
    p.commit(10);
    auto r = p.push(issue, env);
    EXPECT_EQ(r.exit_code, 1) << r.err;
    auto got = receiver.requests();
    ASSERT_EQ(got.size(), 2U) << r.err;
    EXPECT_EQ(got[0].method, "GET");
    EXPECT_EQ(got[0].target, "/repos/o/r/issues?state=open&labels=cgbench&per_page=100");
    EXPECT_EQ(got[1].target, "/repos/o/r/issues");
    const auto created = body(got[1]);
    EXPECT_EQ(created.at("title"), "cgbench: performance alerts on main");
    EXPECT_EQ(created.at("labels"), nlohmann::json::array({"cgbench"}));
    const auto text = created.at("body").get<std::string>();
    EXPECT_NE(text.find("**work**"), std::string::npos) << text;
    EXPECT_NE(text.find("https://github.com/o/r/commit/" + p.repo().rev("HEAD")), std::string::npos)
        << text;
    EXPECT_NE(text.find("https://github.com/o/r/actions/runs/99"), std::string::npos) << text;
    EXPECT_NE(r.err.find("alert filed as a new GitHub issue"), std::string::npos) << r.err;

    p.commit(20);
    r = p.push(issue, env);
    got = receiver.requests();
    ASSERT_EQ(got.size(), 4U) << r.err;
    EXPECT_EQ(got[3].target, "/repos/o/r/issues/7/comments");
    EXPECT_NE(r.err.find("alert added to GitHub issue #7"), std::string::npos) << r.err;

    env["GITHUB_TOKEN"] = "read-only";
    p.commit(30);
    r = p.push(issue, env);
    EXPECT_EQ(r.exit_code, 1) << r.err;
    EXPECT_NE(r.err.find("the GitHub issue was not opened: HTTP 403: Resource not accessible by "
                         "integration (the token needs the job's token with `permissions: issues: "
                         "write`)"),
              std::string::npos)
        << r.err;
}

// GitLab: the issue is opened through its API with CGBENCH_GITLAB_TOKEN.
TEST(PrAlertsE2E, GitlabIssueOpened) {
    HttpReceiver receiver([](const HttpReceiver::Request& r, std::size_t) {
        return r.method == "GET" ? HttpReceiver::Reply{200, "[]"}
                                 : HttpReceiver::Reply{201, R"({"iid": 3})"};
    });
    Pushes p("alerts-gitlab");
    const std::map<std::string, std::string> env = {
        {"GITLAB_CI", "true"},
        {"CI_API_V4_URL", receiver.url("/api/v4")},
        {"CI_PROJECT_ID", "11"},
        {"CI_PROJECT_URL", "https://gitlab.example.com/g/p"},
        {"CGBENCH_GITLAB_TOKEN", "glpat"}};
    ASSERT_EQ(p.push({"--alert-issue", "gitlab"}, env).exit_code, 0);
    p.commit(10);
    const auto r = p.push({"--alert-issue", "gitlab"}, env);
    EXPECT_EQ(r.exit_code, 1) << r.err;
    const auto got = receiver.requests();
    ASSERT_EQ(got.size(), 2U) << r.err;
    EXPECT_EQ(got[0].target, "/api/v4/projects/11/issues?state=opened&labels=cgbench&per_page=100");
    EXPECT_EQ(got[1].target, "/api/v4/projects/11/issues");
    EXPECT_EQ(got[1].headers.at("private-token"), "glpat");
    const auto created = body(got[1]);
    EXPECT_EQ(created.at("labels"), "cgbench");
    EXPECT_NE(created.at("description")
                  .get<std::string>()
                  .find("https://gitlab.example.com/g/p/-/commit/" + p.repo().rev("HEAD")),
              std::string::npos)
        << created.dump(1);
}

}  // namespace cgbench::e2e
