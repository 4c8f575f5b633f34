// Every bad input and fault of `cgbench run`: the documented exit code, one line naming the
// cause (and the fix), and no result file.

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <thread>

#include "e2e/harness.hpp"

namespace cgbench::e2e {

namespace {

struct Case {
    std::vector<std::string> args;  // after `run --out FILE`
    int exit_code;
    std::string message;  // must appear in stderr
    Options options = {};
};

void expect_failure(const std::string& label, const Case& c) {
    const auto dir = scratch("errors-" + label);
    const auto out = dir / "result.json";
    std::vector<std::string> args = {"run", "--out", out.string()};
    args.insert(args.end(), c.args.begin(), c.args.end());
    const Result r = cgbench(args, c.options);
    EXPECT_EQ(r.exit_code, c.exit_code) << label << "\nstderr: " << r.err;
    EXPECT_NE(r.err.find(c.message), std::string::npos) << label << "\nstderr: " << r.err;
    EXPECT_NE(r.err.find("cgbench: error: "), std::string::npos) << label;
    EXPECT_FALSE(fs::exists(out)) << label << ": a result file was written";
    // Nothing else left behind either (no temporary of the atomic write).
    EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator()), 0) << label;
}

}  // namespace

TEST(RunErrors, ProgramNotFound) {
    expect_failure("not-found", {{"--", "./no-such-program"}, 2, "not found"});
    expect_failure("not-on-path", {{"--", "no-such-program-anywhere"}, 2, "not found on PATH"});
}

TEST(RunErrors, ProgramNotExecutable) {
    const auto dir = scratch("not-exec-prog");
    std::ofstream(dir / "script.sh") << "#!/bin/sh\necho hi\n";
    expect_failure("not-exec", {{"--", (dir / "script.sh").string()}, 2, "not executable"});
}

TEST(RunErrors, ProgramIsADirectory) {
    expect_failure("directory", {{"--", "/tmp"}, 2, "is a directory"});
}

TEST(RunErrors, ProgramWithABadInterpreter) {
    const auto dir = scratch("bad-interp");
    std::ofstream(dir / "script") << "#!/nonexistent/interpreter\n";
    fs::permissions(dir / "script", fs::perms::owner_all);
    expect_failure("bad-interpreter", {{"--", (dir / "script").string()}, 2, "bad interpreter"});
}

TEST(RunErrors, UsageErrors) {
    expect_failure("unknown-option",
                   {{"--frobnicate", "--", program("workload")}, 2, "frobnicate"});
    expect_failure("no-program", {{}, 2, "no program given"});
    expect_failure(
        "bad-geometry",
        {{"--geometry", "I1=30000,8,64", "--", program("workload")}, 2, "invalid I1 geometry"});
    expect_failure("bad-geometry-text",
                   {{"--geometry", "fast", "--", program("workload")}, 2, "invalid geometry"});
    expect_failure("bad-weights",
                   {{"--weights", "1,2", "--", program("workload")}, 2, "invalid weights"});
    expect_failure(
        "bad-baseline",
        {{"--cpu-baseline", "avx9", "--", program("workload")}, 2, "invalid CPU baseline"});
    expect_failure("bad-timeout",
                   {{"--timeout", "soon", "--", program("workload")}, 2, "invalid timeout"});
    expect_failure("bad-format",
                   {{"--format", "yaml", "--", program("workload")}, 2, "unknown format"});
    expect_failure("bad-env", {{"--env", "1BAD=x", "--", program("workload")}, 2, "--env"});
    expect_failure("env-geometry", {{"--", program("workload")},
                                    2,
                                    "invalid geometry",
                                    {.env = {{"CGBENCH_GEOMETRY", "nonsense"}}}});
}

TEST(RunErrors, ProgramExitsNonZero) {
    expect_failure(
        "exit", {{"--", program("exit_with"), "3", "the real reason"}, 3, "exited with status 3"});
    // The console report carries the tail of the program's stderr.
    const auto r = cgbench({"run", "--", program("exit_with"), "3", "the real reason"});
    EXPECT_EQ(r.exit_code, 3);
    EXPECT_NE(r.out.find("the real reason"), std::string::npos) << r.out;
}

TEST(RunErrors, ProgramKilledBySignal) {
    expect_failure("signal", {{"--", program("crash"), "11"}, 3, "SIGSEGV"});
}

TEST(RunErrors, TimeoutKillsTheProcessGroup) {
    const auto pidfile = scratch("timeout-pid") / "child.pid";
    const auto start = std::chrono::steady_clock::now();
    expect_failure("timeout",
                   {{"--timeout", "2", "--", program("spawn_and_sleep"), pidfile.string(), "60"},
                    3,
                    "timed out"});
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(30));
    std::ifstream in(pidfile);
    int pid = 0;
    in >> pid;
    ASSERT_GT(pid, 0) << "the program never started its child";
    // The pid is the child's own (in the sandbox's pid namespace): look for it by its argument.
    EXPECT_TRUE(processes_mentioning(pidfile.string()).empty()) << "its child outlived the timeout";
}

TEST(RunErrors, ValgrindMissing) {
    const auto empty_path = scratch("empty-path");
    expect_failure("no-valgrind", {{"--", program("workload")},
                                   4,
                                   "apt-get install valgrind",
                                   {.env = {{"PATH", empty_path.string()}}}});
    expect_failure("bad-valgrind", {{"--", program("workload")},
                                    4,
                                    "CGBENCH_VALGRIND",
                                    {.env = {{"CGBENCH_VALGRIND", "/nonexistent/valgrind"}}}});
}

TEST(RunErrors, UnwritableOutputFailsBeforeTheRun) {
    // If the program ran, it would write this marker.
    const auto marker = scratch("marker") / "ran";
    const auto r = cgbench({"run", "--out", "/nonexistent-dir/result.json", "--",
                            program("print_env"), marker.string()});
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_NE(r.err.find("/nonexistent-dir"), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(marker)) << "the program ran before the output path was checked";

    const auto file = scratch("keep-raw-file") / "plain-file";
    std::ofstream(file) << "x";
    const auto k = cgbench({"run", "--keep-raw", (file / "sub").string(), "--",
                            program("print_env"), marker.string()});
    EXPECT_EQ(k.exit_code, 2) << k.err;
    EXPECT_NE(k.err.find("--keep-raw"), std::string::npos) << k.err;
    EXPECT_FALSE(fs::exists(marker));
}

TEST(RunErrors, VerifyCatchesANondeterministicProgram) {
    const auto r = cgbench({"run", "--verify", "4", "--", program("nondeterministic")});
    EXPECT_EQ(r.exit_code, 3) << r.err;
    EXPECT_NE(r.err.find("not repeatable"), std::string::npos) << r.err;
    EXPECT_NE(r.out.find("differed across 4 runs"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("Ir"), std::string::npos);
}

// Programs that fork: the same tree of processes in every run repeats; one more process in
// each run (the count kept in a file of the working directory) is caught. (`forker 3` and
// `spawner` without arguments exit 2: a failed benchmark, not a difference.)
TEST(RunErrors, VerifyOfProgramsThatFork) {
    const auto dir = scratch("verify-forks");
    const auto same =
        cgbench({"run", "--no-db", "-q", "--verify", "3", "--", program("spawner"), "3", "tree"});
    EXPECT_EQ(same.exit_code, 0) << same.err;
    const std::string more =
        fmt::format("n=$(cat count 2>/dev/null || echo 1); echo $((n + 1)) > count; exec {} $n",
                    program("spawner"));
    const auto varying =
        cgbench({"run", "--no-db", "-q", "--verify", "3", "--", "/bin/sh", "-c", more},
                {.cwd = dir.string()});
    EXPECT_EQ(varying.exit_code, 3) << varying.err;
    EXPECT_NE(varying.err.find("not repeatable"), std::string::npos) << varying.err;
}

TEST(RunErrors, VerifyFailureShowsASmallSpreadAndWritesTheResult) {
    // ~10 M Ir, of which up to ~300 vary: a spread of a few parts per million.
    const auto dir = scratch("verify-small-spread");
    const auto out = dir / "result.json";
    const auto r = cgbench({"run", "--no-db", "--verify", "4", "--out", out.string(), "--",
                            program("nondeterministic"), "2000000", "64"});
    EXPECT_EQ(r.exit_code, 3) << r.err;
    const auto at = r.out.find("differed across 4 runs");
    ASSERT_NE(at, std::string::npos) << r.out;
    const std::string table = r.out.substr(at);
    EXPECT_EQ(table.find("0.00%"), std::string::npos) << "a spread shown as zero:\n" << table;
    // The Ir row's spread, e.g. "0.0025%", is above zero.
    const auto ir = table.find("\n  Ir ");
    ASSERT_NE(ir, std::string::npos) << table;
    const auto pct = table.find('%', ir);
    const auto start = table.rfind(' ', pct) + 1;
    EXPECT_GT(std::stod(table.substr(start, pct - start)), 0.0) << table;
    // The only benchmark failed --verify, and the result file still says so.
    ASSERT_TRUE(fs::exists(out)) << "--out wrote nothing";
    const auto doc = read_json(out);
    const auto& b = doc["benchmarks"][0];
    EXPECT_EQ(b["status"], "failed");
    EXPECT_EQ(b["verify"]["identical"], false);
    EXPECT_EQ(b["verify"]["runs"], 4);
    EXPECT_TRUE(b["verify"]["spread"].contains("Ir")) << b.dump();
}

TEST(RunErrors, ErrorsAreOneLine) {
    const auto r = cgbench({"run", "--geometry", "I1=30000,8,64", "--", program("workload")});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
}

}  // namespace cgbench::e2e
