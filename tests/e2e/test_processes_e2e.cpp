// Programs that fork and exec, scripts and interpreters: every process counted, each one's
// numbers exactly its own Valgrind file, the same counts every run, whoever runs them.

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <map>

#include "e2e/harness.hpp"
#include "util/fs.hpp"

namespace cgbench::e2e {

namespace {

constexpr const char* kEvents[] = {"Ir",   "I1mr", "ILmr", "Dr",  "D1mr",
                                   "DLmr", "Dw",   "D1mw", "DLmw"};

fs::path write_script(const fs::path& path, const std::string& text) {
    std::ofstream(path) << text;
    fs::permissions(path, fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                              fs::perms::others_read | fs::perms::others_exec);
    return path;
}

std::string python_script() {
    return "#!/usr/bin/env python3\n" +
           util::read_file(fs::path(CGBENCH_SOURCE_DIR) / "tests/programs/pydict.py");
}

// A benchmark measured with its raw files kept.
struct Kept {
    nlohmann::json bench;  // null when the run failed
    fs::path dir;
    std::string label;
    // The kept profile of process `k` (1-based, as listed).
    fs::path profile(std::size_t k) const {
        return dir / (k == 1 ? label + ".cachegrind.out"
                             : label + ".process-" + std::to_string(k) + ".cachegrind.out");
    }
};

// Runs `run ARGS` keeping the raw files in a scratch directory.
Kept run_kept(const std::string& label, const std::vector<std::string>& args,
              const Options& options = {}) {
    Kept k{{}, scratch("proc-" + label), label};
    std::vector<std::string> all = {"run",          "-q",    "--no-db",
                                    "--name",       label,   "--keep-raw",
                                    k.dir.string(), "--out", (k.dir / "r.json").string()};
    all.insert(all.end(), args.begin(), args.end());
    const auto r = cgbench(all, options);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    if (r.exit_code == 0) k.bench = read_json(k.dir / "r.json")["benchmarks"][0];
    return k;
}

// Checks that the benchmark's events are the sum of the counted processes' own files, read
// by cg_annotate, and that each listed process's events are exactly its own file.
void expect_sum_of_own_files(const Kept& k) {
    const auto& b = k.bench;
    const auto& procs = b["processes"];
    ASSERT_TRUE(procs.is_array()) << b.dump(2);
    std::map<std::string, std::uint64_t> sum;
    for (std::size_t i = 0; i < procs.size(); ++i) {
        const auto own = cg_annotate_totals(k.profile(i + 1));
        ASSERT_EQ(own.size(), 9u) << "process " << i + 1;
        for (const auto* e : kEvents) {
            EXPECT_EQ(procs[i]["events"][e].get<std::uint64_t>(), own.at(e))
                << "process " << i + 1 << " " << e;
            if (procs[i]["counted"].get<bool>()) sum[e] += own.at(e);
        }
    }
    for (const auto* e : kEvents)
        EXPECT_EQ(b["events"][e].get<std::uint64_t>(), sum[e]) << e;
}

// Checks that the benchmark's events are exactly the started process's own file.
void expect_own_file(const Kept& k) {
    const auto own = cg_annotate_totals(k.profile(1));
    ASSERT_EQ(own.size(), 9u);
    for (const auto* e : kEvents)
        EXPECT_EQ(k.bench["events"][e].get<std::uint64_t>(), own.at(e)) << e;
}

}  // namespace

TEST(Processes, ForkedChildIsCountedAndEachProcessIsItsOwnFile) {
    const auto small = run_kept("fork-small", {"--", program("forker"), "1000", "1000"});
    const auto big = run_kept("fork-big", {"--", program("forker"), "200000", "1000"});
    ASSERT_FALSE(big.bench.is_null());
    ASSERT_EQ(big.bench["processes"].size(), 2u);
    EXPECT_EQ(big.bench["processes"][1]["parent"], 0);
    EXPECT_TRUE(big.bench["processes"][1]["forked"].get<bool>());
    expect_sum_of_own_files(big);
    // 199,000 more iterations of the child's loop (at least 3 instructions each).
    EXPECT_GT(big.bench["events"]["Ir"].get<std::uint64_t>(),
              small.bench["events"]["Ir"].get<std::uint64_t>() + 3 * 199000);
}

TEST(Processes, MainModeLeavesTheChildOutAndEqualsTheParentsOwnFile) {
    const auto k =
        run_kept("fork-main", {"--processes", "main", "--", program("forker"), "200000", "1000"});
    ASSERT_FALSE(k.bench.is_null());
    ASSERT_EQ(k.bench["processes"].size(), 2u);
    EXPECT_FALSE(k.bench["processes"][1]["counted"].get<bool>());
    EXPECT_EQ(k.bench["process_mode"], "main");
    expect_own_file(k);
    expect_sum_of_own_files(k);
}

TEST(Processes, EnvShebangPythonScriptIsMeasuredAndRepeats) {
    const auto dir = scratch("env-shebang");
    const auto script = write_script(dir / "pydict.py", python_script());
    const Options path = {.env = {{"PATH", "/usr/bin:/bin"}}};  // the system's python3
    const auto a = run_kept("py-a", {"--", script.string()}, path);
    ASSERT_FALSE(a.bench.is_null());
    EXPECT_GT(a.bench["events"]["Ir"].get<std::uint64_t>(), 1000000u) << "Python was measured";
    EXPECT_FALSE(a.bench.contains("processes")) << "env exec'd python3 in the same process";
    expect_own_file(a);
    EXPECT_EQ(a.bench["events"], run_kept("py-b", {"--", script.string()}, path).bench["events"]);
}

TEST(Processes, ShellWrapperThatExecsACProgram) {
    const auto dir = scratch("exec-wrapper");
    const auto wrapper =
        write_script(dir / "wrapper.sh", "#!/bin/sh\nexec " + program("workload") + " \"$@\"\n");
    const auto direct = measure_events({"--", program("workload"), "20000"});
    const auto a = run_kept("wrapper-a", {"--", wrapper.string(), "20000"});
    ASSERT_FALSE(a.bench.is_null());
    EXPECT_FALSE(a.bench.contains("processes")) << "exec keeps the process";
    expect_own_file(a);
    EXPECT_EQ(a.bench["events"],
              run_kept("wrapper-b", {"--", wrapper.string(), "20000"}).bench["events"]);
    // What runs before the exec is in no profile: the program's work, as if run directly
    // (its argv[0] differs, which may move a cache miss, not an instruction of its loop).
    const auto ir = a.bench["events"]["Ir"].get<std::int64_t>();
    EXPECT_LT(std::abs(ir - direct["Ir"].get<std::int64_t>()), 2000) << "a: " << ir;
}

TEST(Processes, ShellScriptRunningTwoProgramsInSequence) {
    const auto dir = scratch("two-programs");
    const auto script =
        write_script(dir / "both.sh", "#!/bin/sh\n" + program("workload") + " 20000\n" +
                                          program("workload") + " 5000\n");
    const auto a = run_kept("seq-a", {"--", script.string()});
    ASSERT_FALSE(a.bench.is_null());
    const auto& procs = a.bench["processes"];
    ASSERT_EQ(procs.size(), 3u) << a.bench.dump(2);
    EXPECT_FALSE(procs[1]["forked"].get<bool>()) << "forked, then exec'd";
    EXPECT_NE(procs[1]["command"].get<std::string>().find("workload 20000"), std::string::npos);
    EXPECT_NE(procs[2]["command"].get<std::string>().find("workload 5000"), std::string::npos);
    expect_sum_of_own_files(a);
    EXPECT_EQ(a.bench["events"], run_kept("seq-b", {"--", script.string()}).bench["events"]);
}

TEST(Processes, CrashingChildFailsTheBenchmarkUnlessAllowed) {
    const auto r = cgbench(
        {"run", "--no-db", "--format", "json", "--", program("forker"), "1000", "1000", "crash"});
    EXPECT_EQ(r.exit_code, 3) << r.err;
    EXPECT_NE(r.err.find("process 2 ("), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("SIGSEGV"), std::string::npos) << r.err;
    const auto doc = nlohmann::json::parse(r.out);
    EXPECT_EQ(doc["benchmarks"][0]["status"], "failed");
    EXPECT_EQ(doc["benchmarks"][0]["processes"][1]["signal"], SIGSEGV);
    const auto ok = run_kept(
        "crash-allowed", {"--allow-child-crash", "--", program("forker"), "1000", "1000", "crash"});
    EXPECT_EQ(ok.bench["status"], "ok");
}

TEST(Processes, TimeoutKillsTheWholeTreeAndNamesWhatWasRunning) {
    const auto dir = scratch("timeout-tree");
    const auto pidfile = dir / "child.pid";
    const auto r = cgbench({"run", "--no-db", "--timeout", "20", "--warmup", "0", "--",
                            program("spawn_and_sleep"), pidfile.string(), "300"});
    EXPECT_EQ(r.exit_code, 3) << r.err;
    EXPECT_NE(r.err.find("timed out"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("2 still running"), std::string::npos) << r.err;
    std::ifstream in(pidfile);
    int pid = 0;
    in >> pid;
    ASSERT_GT(pid, 0);
    // The pid is the child's own (in the sandbox's pid namespace): look for it by its argument.
    EXPECT_TRUE(processes_mentioning(pidfile.string()).empty()) << "the child must be gone";
}

TEST(Processes, ARunawayTreeIsStoppedAtTheProcessLimit) {
    const auto r = cgbench({"run", "--no-db", "--max-processes", "20", "--timeout", "120", "--",
                            program("spawner"), "12", "tree"});
    EXPECT_EQ(r.exit_code, 3) << r.err;
    EXPECT_NE(r.err.find("started more than 20 processes"), std::string::npos) << r.err;
    const auto many =
        cgbench({"run", "--no-db", "--max-processes", "5", "--", program("spawner"), "10"});
    EXPECT_EQ(many.exit_code, 3) << many.err;
    EXPECT_NE(many.err.find("started more than 5 processes"), std::string::npos) << many.err;
}

}  // namespace cgbench::e2e
