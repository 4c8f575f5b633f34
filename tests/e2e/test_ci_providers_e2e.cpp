// Every CI system of the table, with the variables its documentation says a job gets
// (tests/data/ci/*.env): `cgbench ci env` must read each set as the file's #expect lines
// say, and `cgbench pr` must find the pull request's base from the set alone (no --base) and
// label both sides with their branches, or, on a push, measure HEAD against its branch's
// history. All in a real repository with a bare origin, measured under the real Valgrind.

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "e2e/harness.hpp"
#include "e2e/pr_repo.hpp"
#include "util/fs.hpp"
#include "util/strings.hpp"

namespace cgbench::e2e {

namespace {

const fs::path kSets = fs::path(CGBENCH_TEST_DATA) / "ci";

struct VariableSet {
    std::map<std::string, std::string> env;
    std::vector<std::pair<std::string, std::string>> expect;
};

// Every variable a CI (this machine's own included) could set that the table reads: the test
// environment holds only what the set gives.
std::vector<std::string> ci_variables() {
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(kSets)) {
        if (e.path().extension() != ".env") continue;
        std::istringstream in(util::read_file(e.path()));
        for (std::string line; std::getline(in, line);) {
            if (!line.empty() && line[0] != '#') names.push_back(line.substr(0, line.find('=')));
        }
    }
    for (const char* n :
         {"GITHUB_ACTIONS", "GITLAB_CI", "CI_NODE_INDEX", "CI_NODE_TOTAL", "CGBENCH_DB",
          "CGBENCH_THRESHOLD", "GITHUB_TOKEN", "CGBENCH_GITLAB_TOKEN"})
        names.emplace_back(n);
    return names;
}

// The set `name`, its @placeholders@ replaced by `values`.
VariableSet load(const std::string& name, const std::map<std::string, std::string>& values) {
    VariableSet set;
    std::istringstream in(util::read_file(kSets / (name + ".env")));
    for (std::string line; std::getline(in, line);) {
        for (const auto& [k, v] : values) {
            for (auto at = line.find(k); at != std::string::npos; at = line.find(k))
                line.replace(at, k.size(), v);
        }
        const bool expect = util::starts_with(line, "#expect ");
        if (expect) line = line.substr(8);
        if (line.empty() || line[0] == '#') continue;
        const auto eq = line.find('=');
        if (expect) {
            set.expect.emplace_back(line.substr(0, eq), line.substr(eq + 1));
        } else {
            set.env[line.substr(0, eq)] = line.substr(eq + 1);
        }
    }
    return set;
}

// `cgbench ci env` output as KEY -> value (shell-quoted values unquoted).
std::map<std::string, std::string> ci_env(const PrRepo& repo, const VariableSet& set) {
    const auto r = run_tool({CGBENCH_BINARY, "ci", "env", "--format", "json"}, repo.dir(), set.env,
                            ci_variables());
    EXPECT_EQ(r.exit_code, 0) << r.err;
    std::map<std::string, std::string> out;
    const auto doc = nlohmann::json::parse(r.out);
    for (const auto& [k, v] : doc.items())
        out[k] = v.get<std::string>();
    return out;
}

class CiProviders : public ::testing::Test {
  protected:
    void SetUp() override {
        dir_ = scratch(std::string("ci-") +
                       ::testing::UnitTest::GetInstance()->current_test_info()->name());
        repo_ = std::make_unique<PrRepo>(dir_, Build::Cc);
        repo_->add_origin();
        std::ofstream(dir_ / "event.json")
            << R"({"pull_request": {"number": 42}, "repository": {"default_branch": "main"}})";
        values_ = {{"@HEAD@", repo_->rev("HEAD")},
                   {"@MERGE_BASE@", repo_->rev("main")},
                   {"@MAIN@", repo_->rev("main")},
                   {"@EVENT@", (dir_ / "event.json").string()}};
    }

    // `cgbench pr` ARGS in the repository with the set's variables only.
    Ran pr(const VariableSet& set, const std::vector<std::string>& args) {
        std::vector<std::string> argv = {CGBENCH_BINARY, "pr", "--build", "./build.sh"};
        argv.insert(argv.end(), args.begin(), args.end());
        return run_tool(argv, repo_->dir(), set.env, ci_variables());
    }

    void expect_read(const std::string& name) {
        const auto set = load(name, values_);
        ASSERT_FALSE(set.expect.empty()) << name;
        const auto got = ci_env(*repo_, set);
        for (const auto& [k, v] : set.expect) {
            ASSERT_TRUE(got.count(k)) << name << ": " << k;
            EXPECT_EQ(got.at(k), v) << name << ": " << k;
        }
    }

    // A pull-request job: the base found from the variables alone, both sides labelled.
    void expect_pull_request(const std::string& name) {
        expect_read(name);
        const auto r = pr(load(name, values_), {});
        EXPECT_EQ(r.exit_code, 1) << name << "\n" << r.err;  // accumulate +10%: a regression
        const auto out = repo_->dir() / "cgbench-pr";
        EXPECT_EQ(util::trim(util::read_file(out / "base-commit")), repo_->rev("main")) << name;
        EXPECT_EQ(util::trim(util::read_file(out / "base-label")), "merge base with main") << name;
        const auto report = util::read_file(out / "report.md");
        EXPECT_NE(report.find("- **Base:** merge base with main"), std::string::npos) << report;
        EXPECT_NE(report.find("branch main"), std::string::npos) << name << "\n" << report;
        EXPECT_NE(report.find("branch pr"), std::string::npos) << name << "\n" << report;
    }

    // A push job on main: HEAD measured against the branch's history, recorded as main's.
    void expect_push(const std::string& name) {
        repo_->checkout("main");
        values_["@HEAD@"] = repo_->rev("HEAD");
        expect_read(name);
        const auto db = dir_ / "history.db";
        const auto r = pr(load(name, values_), {"--history", db.string()});
        EXPECT_EQ(r.exit_code, 0) << name << "\n" << r.err;
        EXPECT_NE(r.err.find("no base: measuring HEAD"), std::string::npos) << r.err;
        const auto h = cgbench({"history", "--db", db.string(), "--format", "json", "work"});
        EXPECT_NE(h.out.find("\"branch\": \"main\""), std::string::npos) << h.out;
    }

    fs::path dir_;
    std::unique_ptr<PrRepo> repo_;
    std::map<std::string, std::string> values_;
};

}  // namespace

TEST_F(CiProviders, GithubActions) {
    expect_pull_request("github-pull_request");
    expect_push("github-push");
}

TEST_F(CiProviders, GitlabCi) {
    expect_pull_request("gitlab-merge_request");
    expect_read("gitlab-merged_result");
    expect_push("gitlab-push");
}

TEST_F(CiProviders, Jenkins) {
    expect_pull_request("jenkins-change_request");
    expect_push("jenkins-branch");
}

TEST_F(CiProviders, Buildkite) {
    expect_pull_request("buildkite-pull_request");
    expect_push("buildkite-push");
}

TEST_F(CiProviders, AzurePipelines) {
    expect_pull_request("azure-pull_request");
    expect_push("azure-push");
}

TEST_F(CiProviders, ForgejoActions) {
    expect_pull_request("forgejo-pull_request");
    expect_push("forgejo-push");
}

// Every provider of the table has its docs page and at least one variable set here.
TEST(CiProvidersTable, EachHasADocsPageAndVariableSets) {
    const auto r = cgbench({"ci", "providers"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    std::istringstream in(r.out);
    std::string line;
    std::getline(in, line);  // the header
    int rows = 0;
    for (; std::getline(in, line); ++rows) {
        const auto id = line.substr(0, line.find(' '));
        EXPECT_TRUE(fs::exists(fs::path(CGBENCH_SOURCE_DIR) / "docs/ci" / (id + ".md"))) << id;
        bool pull_request = false;
        for (const auto& e : fs::directory_iterator(kSets)) {
            pull_request |= e.path().filename().string().rfind(id + "-", 0) == 0;
        }
        EXPECT_TRUE(pull_request) << "no variable set for " << id << " in " << kSets;
    }
    EXPECT_GE(rows, 6);
}

// A pull-request job whose CI left out the base's variables fails at once, naming them.
TEST(CiProvidersTable, APullRequestJobWithoutItsBaseNamesTheMissingVariables) {
    const auto dir = scratch("ci-missing");
    const PrRepo repo(dir, Build::Cc);
    const auto r = run_tool({CGBENCH_BINARY, "pr", "--build", "./build.sh"}, repo.dir(),
                            {{"GITLAB_CI", "true"}, {"CI_MERGE_REQUEST_IID", "5"}}, ci_variables());
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_NE(r.err.find("GitLab CI runs this job for a pull request (#5), but "
                         "CI_MERGE_REQUEST_TARGET_BRANCH_SHA and CI_MERGE_REQUEST_DIFF_BASE_SHA "
                         "are not set"),
              std::string::npos)
        << r.err;
    EXPECT_NE(r.err.find("docs/ci/gitlab.md"), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(repo.dir() / "cgbench-pr")) << "nothing is written before the check";
}

}  // namespace cgbench::e2e
