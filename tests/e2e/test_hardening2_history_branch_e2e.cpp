// Hardening, the history kept on a branch (scripts/cgbench-history.sh; reliability audit 2,
// G02-G05): jobs pushing at the same moment all land, a file on the branch that is no valid
// result file or no regular file is skipped without failing the pull, and a push writes no
// file at a name another user can predict.

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <future>

#include "e2e/hardening.hpp"
#include "e2e/harness.hpp"
#include "exec/environment.hpp"
#include "exec/process.hpp"
#include "sqlite_store/sqlite_history.hpp"
#include "util/fs.hpp"

namespace cgbench::e2e {

namespace {

using json = nlohmann::json;
const std::string kBranch = "cgbench-data";

std::string script() {
    return std::string(CGBENCH_SOURCE_DIR) + "/scripts/cgbench-history.sh";
}

// Runs `argv` (argv[0] looked up on PATH) in `cwd` with this environment plus `extra`.
exec::ProcessOutcome run(const std::vector<std::string>& argv, const fs::path& cwd,
                         const std::map<std::string, std::string>& extra = {}) {
    auto env = exec::current_environment();
    env["CGBENCH"] = CGBENCH_BINARY;
    env["GIT_AUTHOR_NAME"] = env["GIT_COMMITTER_NAME"] = "cgbench test";
    env["GIT_AUTHOR_EMAIL"] = env["GIT_COMMITTER_EMAIL"] = "test@example.invalid";
    for (const auto& [k, v] : extra)
        env[k] = v;
    env.erase("RUNNER_TEMP");
    exec::ProcessSpec spec;
    spec.argv = {"/usr/bin/env"};
    spec.argv.insert(spec.argv.end(), argv.begin(), argv.end());
    spec.cwd = cwd.string();
    spec.disable_aslr = false;
    spec.timeout_seconds = 300;
    for (const auto& [k, v] : env)
        spec.env.push_back(k + "=" + v);
    exec::PosixProcessRunner runner;
    return runner.run(spec);
}

void git(const fs::path& cwd, const std::vector<std::string>& args) {
    std::vector<std::string> argv = {"git"};
    argv.insert(argv.end(), args.begin(), args.end());
    const auto r = run(argv, cwd);
    ASSERT_EQ(r.exit_code, 0) << fmt::format("git {}: {}", fmt::join(args, " "), r.stderr_tail);
}

// An origin (bare, with one commit on main) and `clones` clones of it under `dir`.
void origin_and_clones(const fs::path& dir, int clones) {
    fs::create_directories(dir / "seed");
    git(dir, {"init", "-q", "--bare", "-b", "main", (dir / "origin.git").string()});
    git(dir / "seed", {"init", "-q", "-b", "main"});
    std::ofstream(dir / "seed" / "README") << "x\n";
    git(dir / "seed", {"add", "README"});
    git(dir / "seed", {"commit", "-q", "-m", "one"});
    git(dir / "seed", {"push", "-q", (dir / "origin.git").string(), "main"});
    for (int i = 0; i < clones; ++i)
        git(dir,
            {"clone", "-q", (dir / "origin.git").string(), (dir / fmt::format("c{}", i)).string()});
}

// A measured result file, and copies of it as other runs (ids run-0, run-1, ...).
std::vector<fs::path> result_files(const fs::path& dir, int n) {
    measured_ir(dir);
    // In the order cgbench writes its keys: the script reads the run id as run's first key.
    auto doc = nlohmann::ordered_json::parse(util::read_file(dir / "measured.json"));
    std::vector<fs::path> files;
    for (int i = 0; i < n; ++i) {
        doc["run"]["id"] = fmt::format("run-{}", i);
        files.push_back(dir / fmt::format("run-{}.json", i));
        std::ofstream(files.back()) << doc.dump(2);
    }
    return files;
}

// Commits `files` (name -> content, or "-> TARGET" for a symbolic link) to the branch.
void add_to_branch(const fs::path& clone, const std::map<std::string, std::string>& files) {
    git(clone, {"fetch", "-q", "origin", kBranch});
    git(clone, {"checkout", "-q", "-B", kBranch, "FETCH_HEAD"});
    for (const auto& [name, content] : files) {
        if (content.rfind("-> ", 0) == 0) {
            fs::create_symlink(content.substr(3), clone / name);
        } else {
            std::ofstream(clone / name) << content;
        }
        git(clone, {"add", name});
    }
    git(clone, {"commit", "-q", "-m", "planted"});
    git(clone, {"push", "-q", "origin", kBranch});
}

}  // namespace

TEST(Hardening, G02_TwelveJobsPushingAtOnceAllLand) {
    const auto dir = scratch("hardening-g02");
    constexpr int kJobs = 12;
    origin_and_clones(dir, kJobs);
    const auto files = result_files(dir, kJobs);
    std::vector<std::future<exec::ProcessOutcome>> jobs;
    for (int i = 0; i < kJobs; ++i) {
        jobs.push_back(std::async(std::launch::async, [&, i] {
            return run({script(), "push", kBranch, files[static_cast<std::size_t>(i)].string()},
                       dir / fmt::format("c{}", i));
        }));
    }
    for (auto& j : jobs) {
        const auto r = j.get();
        EXPECT_EQ(r.exit_code, 0) << r.stderr_tail;
    }
    const auto r = run({"git", "ls-tree", "-r", "--name-only", kBranch}, dir / "origin.git");
    EXPECT_EQ(std::count(r.stdout_tail.begin(), r.stdout_tail.end(), '\n'), kJobs) << r.stdout_tail;
}

TEST(Hardening, G03_ABadFileOnTheBranchIsSkippedAndThePullGoesOn) {
    const auto dir = scratch("hardening-g03");
    origin_and_clones(dir, 2);
    const auto files = result_files(dir, 3);
    ASSERT_EQ(run({script(), "push", kBranch, files[0].string(), files[1].string()}, dir / "c0")
                  .exit_code,
              0);
    auto text = util::read_file(files[2]);
    const std::string wall = "\"wall_seconds\": ";
    const auto at = text.find(wall) + wall.size();
    text.replace(at, text.find_first_of(",\n", at) - at, "1e999");
    auto newer = nlohmann::ordered_json::parse(util::read_file(files[0]));
    newer["schema"] = "cgbench-result/2";
    newer["run"]["id"] = "from-the-future";
    add_to_branch(dir / "c1",
                  {{"runs/zz-wallinf.json", text}, {"runs/zz-newer.json", newer.dump()}});
    const auto db = dir / "pulled.db";
    const auto r = run({script(), "pull", kBranch, db.string()}, dir / "c0");
    EXPECT_EQ(r.exit_code, 0) << r.stderr_tail;
    EXPECT_NE(r.stderr_tail.find("zz-wallinf.json: not valid JSON"), std::string::npos)
        << r.stderr_tail;
    EXPECT_NE(
        r.stderr_tail.find("zz-newer.json: invalid result file: schema is \"cgbench-result/2\""),
        std::string::npos)
        << r.stderr_tail;
    EXPECT_NE(r.stderr_tail.find("were skipped"), std::string::npos) << r.stderr_tail;
    EXPECT_EQ(history_runs(db), 2u);
}

TEST(Hardening, G04_ASymbolicLinkOnTheBranchIsNotRead) {
    const auto dir = scratch("hardening-g04");
    origin_and_clones(dir, 2);
    const auto files = result_files(dir, 1);
    ASSERT_EQ(run({script(), "push", kBranch, files[0].string()}, dir / "c0").exit_code, 0);
    // Another result file, outside: read through the link, it would be imported.
    auto outside = nlohmann::ordered_json::parse(util::read_file(files[0]));
    outside["run"]["id"] = "outside";
    std::ofstream(dir / "outside.json") << outside.dump();
    add_to_branch(dir / "c1", {{"runs/zz-shadow.json", "-> " + (dir / "outside.json").string()}});
    const auto db = dir / "pulled.db";
    const auto r = run({script(), "pull", kBranch, db.string()}, dir / "c0");
    EXPECT_EQ(r.exit_code, 0) << r.stderr_tail;
    EXPECT_NE(
        r.stderr_tail.find("skipped runs/zz-shadow.json on " + kBranch + ": not a regular file"),
        std::string::npos)
        << r.stderr_tail;
    EXPECT_EQ(history_runs(db), 1u) << "the file the link leads to was imported";
}

TEST(Hardening, G05_APushWritesNoFileAtAPredictableName) {
    const auto dir = scratch("hardening-g05");
    origin_and_clones(dir, 1);
    const auto files = result_files(dir, 1);
    const auto tmp = dir / "tmp";
    fs::create_directories(tmp);
    const auto victim = dir / "victim.txt";
    std::ofstream(victim) << "precious\n";
    // A link at every name the next processes' pids would give, as another user would plant.
    long last = 0;
    std::ifstream("/proc/sys/kernel/ns_last_pid") >> last;
    for (long pid = last + 1; pid < last + 3000; ++pid)
        fs::create_symlink(victim, tmp / fmt::format("cgbench-push.{}", pid));
    const auto r =
        run({script(), "push", kBranch, files[0].string()}, dir / "c0", {{"TMPDIR", tmp.string()}});
    EXPECT_EQ(r.exit_code, 0) << r.stderr_tail;
    // A push that fails: git's message is shown, and written nowhere.
    const auto failed = run({script(), "push", kBranch, files[0].string()}, dir / "c0",
                            {{"TMPDIR", tmp.string()}, {"CGBENCH_HISTORY_REMOTE", "nowhere"}});
    EXPECT_EQ(failed.exit_code, 4) << failed.stderr_tail;
    EXPECT_EQ(util::read_file(victim), "precious\n");
    std::size_t entries = 0;
    for ([[maybe_unused]] const auto& e : fs::directory_iterator(tmp))
        ++entries;
    EXPECT_EQ(entries, 2999u) << "a file was left in TMPDIR";
}

}  // namespace cgbench::e2e
