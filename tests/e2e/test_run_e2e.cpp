// `cgbench run` end to end: the real binary, the real Valgrind, real programs.

#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <fstream>

#include "e2e/harness.hpp"
#include "e2e/sandbox_support.hpp"
#include "exec/process.hpp"
#include "runner/fingerprint.hpp"
#include "util/fs.hpp"

namespace cgbench::e2e {

namespace {

// Whether Valgrind itself accepts a Cachegrind option.
bool valgrind_accepts(const std::string& option) {
    exec::ProcessSpec spec;
    spec.argv = {
        "/usr/bin/valgrind.bin",           "--tool=cachegrind",    "--cache-sim=yes", option,
        "--cachegrind-out-file=/dev/null", "--log-file=/dev/null", "/bin/true"};
    spec.env = {"PATH=/usr/bin:/bin"};
    exec::PosixProcessRunner runner;
    return runner.run(spec).exit_code == 0;
}

std::uint64_t ram_hits(const nlohmann::json& events) {
    return events["ILmr"].get<std::uint64_t>() + events["DLmr"].get<std::uint64_t>() +
           events["DLmw"].get<std::uint64_t>();
}

}  // namespace

TEST(RunE2E, SameCommandTwiceGivesIdenticalEvents) {
    const auto a = measure_events({"--", program("workload"), "20000"});
    const auto b = measure_events({"--", program("workload"), "20000"});
    ASSERT_FALSE(a.empty());
    EXPECT_EQ(a, b);
}

TEST(RunE2E, EventsEqualValgrindsOwnTotals) {
    const auto dir = scratch("raw");
    const auto r = cgbench({"run", "-q", "--name", "workload", "--keep-raw", dir.string(), "--out",
                            (dir / "result.json").string(), "--", program("workload"), "20000"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto doc = read_json(dir / "result.json");
    const auto& events = doc["benchmarks"][0]["events"];
    const auto raw = dir / "workload.cachegrind.out";
    ASSERT_TRUE(fs::exists(raw));
    EXPECT_EQ(doc["benchmarks"][0]["raw_file"], raw.string());
    const auto totals = cg_annotate_totals(raw);
    ASSERT_EQ(totals.size(), 9u);
    for (const auto& [name, value] : totals)
        EXPECT_EQ(events[name].get<std::uint64_t>(), value) << name;
    EXPECT_EQ(log_instruction_refs(dir / "workload.valgrind.log"),
              events["Ir"].get<std::uint64_t>());
}

TEST(RunE2E, CallerEnvironmentDoesNotChangeTheResult) {
    // The same binary at a short and at a long absolute path (a copy, as another CI checkout
    // would have it), both ending in programs/workload.
    const auto root = scratch("checkout");
    const auto deep = root / "a" / "much" / "longer" / "checkout" / "path" / "on" / "the" / "ci" /
                      "runner" / "programs";
    fs::create_directories(deep);
    fs::copy_file(program("workload"), deep / "workload");
    const std::vector<std::string> args = {"--", program("workload"), "5000"};

    const auto base = measure_events(args);
    ASSERT_FALSE(base.empty());
    EXPECT_EQ(measure_events(args, {.env = {{"CGBENCH_TEST_HUGE", std::string(5000, 'x')}}}), base)
        << "an extra 5000-byte variable";
    EXPECT_EQ(measure_events(args, {.cwd = "/"}), base) << "another working directory";
    EXPECT_EQ(measure_events(args, {.env = {{"_", "/some/other/launcher/path"}}}), base)
        << "another _";
    EXPECT_EQ(measure_events(args, {.env = {{"PWD", "/elsewhere"}, {"OLDPWD", "/x"}}}), base)
        << "PWD and OLDPWD";
    EXPECT_EQ(measure_events({"--", "./workload", "5000"}, {.cwd = CGBENCH_TEST_PROGRAMS}), base)
        << "a relative path";
    EXPECT_EQ(measure_events({"--", (deep / "workload").string(), "5000"}), base)
        << "a long absolute path";
}

TEST(RunE2E, LinearVersusRandomMemoryWalk) {
    // Seed 002's table: the same instructions, very different cache behaviour.
    const auto linear = measure_events({"--", example("memory_cache"), "linear", "1000000"});
    const auto random = measure_events({"--", example("memory_cache"), "random", "1000000"});
    ASSERT_FALSE(linear.empty());
    ASSERT_FALSE(random.empty());
    const double ir_l = linear["Ir"].get<double>();
    const double ir_r = random["Ir"].get<double>();
    EXPECT_LT(std::abs(ir_l - ir_r) / ir_l, 0.01);
    EXPECT_GT(ram_hits(random), 5 * ram_hits(linear));
}

TEST(RunE2E, ResultFileHasTheContractAndMatchesStdout) {
    const auto dir = scratch("out");
    const auto out = dir / "result.json";
    const auto r = cgbench({"run", "--format", "json", "--name", "w", "--out", out.string(), "--",
                            program("workload"), "2000"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto file = read_json(out);
    const auto printed = nlohmann::json::parse(r.out);
    EXPECT_EQ(file, printed);
    EXPECT_EQ(file["schema"], "cgbench-result/1");
    const auto& b = file["benchmarks"][0];
    EXPECT_EQ(b["name"], "w");
    EXPECT_EQ(b["status"], "ok");
    EXPECT_EQ(b["exit_code"], 0);
    EXPECT_EQ(b["command"][1], "2000");
    const auto& e = b["events"];
    const std::uint64_t ram = ram_hits(e);
    const std::uint64_t ll = e["I1mr"].get<std::uint64_t>() + e["D1mr"].get<std::uint64_t>() +
                             e["D1mw"].get<std::uint64_t>() - ram;
    const std::uint64_t l1 = e["Ir"].get<std::uint64_t>() + e["Dr"].get<std::uint64_t>() +
                             e["Dw"].get<std::uint64_t>() - ram - ll;
    EXPECT_EQ(b["derived"]["ram_hits"], ram);
    EXPECT_EQ(b["derived"]["ll_hits"], ll);
    EXPECT_EQ(b["derived"]["l1_hits"], l1);
    EXPECT_EQ(b["cost"], l1 + 5 * ll + 35 * ram);
    const auto& fp = file["run"]["fingerprint"];
    EXPECT_EQ(fp["tool"], "cachegrind");
    EXPECT_EQ(fp["geometry"]["LL"], "8388608,16,64");
    EXPECT_EQ(fp["cpu_baseline"], "portable");
    EXPECT_EQ(fp["glibc_selection"]["usable"], "SSE2");
    EXPECT_EQ(fp["valgrind_wrapper_bypassed"], true);
    EXPECT_EQ(fp["cache_sim"], true);
    // The dynamic loader cache the run saw (informational, not part of the key).
    EXPECT_EQ(fp["loader_cache"], runner::loader_cache_hash("/etc/ld.so.cache"));
    EXPECT_EQ(fp["loader_cache"].get<std::string>().size(), 16u);
    // What built the program: the string gcc leaves in its .comment section, found by hand.
    const auto bytes = util::read_file(program("workload"));
    const auto gcc = bytes.find("GCC: (");
    ASSERT_NE(gcc, std::string::npos);
    EXPECT_EQ(fp["compilers"],
              nlohmann::json::array({bytes.substr(gcc, bytes.find('\0', gcc) - gcc)}));
}

TEST(RunE2E, InstructionOnlyMode) {
    const auto r =
        cgbench({"run", "--format", "json", "--weights", "ir", "--", program("workload"), "2000"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto doc = nlohmann::json::parse(r.out);
    const auto& b = doc["benchmarks"][0];
    EXPECT_EQ(b["events"].size(), 1u);
    EXPECT_TRUE(b["derived"].is_null());
    EXPECT_EQ(b["cost"], b["events"]["Ir"]);
    EXPECT_EQ(doc["run"]["fingerprint"]["cache_sim"], false);
}

TEST(RunE2E, GeometryIsValidatedTheWayValgrindValidatesIt) {
    // For each cache: Valgrind's own verdict (run directly) equals cgbench's, which cgbench
    // reaches before running anything. (cgbench also rejects associativity 0, which Valgrind
    // 3.19 accepts; it is not in this table.)
    for (const std::string g :
         {"32768,8,64", "30000,8,64", "32768,8,48", "32768,8,8", "64,1,64", "256,16,16", "96,3,32",
          "32768,8,128", "32768,1024,64", "12582912,12,64", "2147483648,8,64"}) {
        const bool valgrind_ok = valgrind_accepts("--D1=" + g);
        const auto r =
            cgbench({"run", "-q", "--geometry", "D1=" + g, "--", program("workload"), "10"});
        EXPECT_EQ(r.exit_code, valgrind_ok ? 0 : 2) << g << ": " << r.err;
        if (!valgrind_ok) {
            EXPECT_NE(r.err.find("invalid D1 geometry"), std::string::npos) << r.err;
        }
    }
}

TEST(RunE2E, CpuBaselines) {
    const auto portable = cgbench({"run", "--format", "json", "--cpu-baseline", "portable", "--",
                                   program("workload"), "2000"});
    const auto native = cgbench(
        {"run", "--format", "json", "--cpu-baseline", "native", "--", program("workload"), "2000"});
    ASSERT_EQ(portable.exit_code, 0) << portable.err;
    ASSERT_EQ(native.exit_code, 0) << native.err;
    const auto p = nlohmann::json::parse(portable.out);
    const auto n = nlohmann::json::parse(native.out);
    EXPECT_EQ(p["run"]["fingerprint"]["glibc_selection"]["platform"], "x86_64");
    EXPECT_NE(p["run"]["fingerprint"]["key"], n["run"]["fingerprint"]["key"]);
    EXPECT_EQ(n["run"]["fingerprint"]["glibc_tunables"], "");
}

// -q and -v work before the subcommand as after it (CLI11 2.4 reset the former).
TEST(RunE2E, QuietAndVerboseBeforeOrAfterTheSubcommand) {
    for (const auto& args : {std::vector<std::string>{"-q", "run"}, {"run", "-q"}}) {
        auto all = args;
        all.insert(all.end(), {"--no-db", "--warmup", "0", "--", program("workload"), "10"});
        const auto r = cgbench(all);
        EXPECT_EQ(r.exit_code, 0) << r.err;
        EXPECT_EQ(r.out, "") << args[0];
    }
    for (const auto& args : {std::vector<std::string>{"-v", "run"}, {"run", "-v"}}) {
        auto all = args;
        all.insert(all.end(), {"--no-db", "--warmup", "0", "--", program("workload"), "10"});
        const auto r = cgbench(all);
        EXPECT_EQ(r.exit_code, 0) << r.err;
        EXPECT_NE(r.err.find("cgbench: debug: running: "), std::string::npos) << args[0] << r.err;
    }
}

TEST(RunE2E, ArgumentsAfterTheProgramBelongToIt) {
    CGBENCH_NEEDS_NAMESPACES();
    const auto dir = scratch("argv");
    const auto read = [](const fs::path& p) { return util::read_file(p); };
    // Options after the program (and a later --) are the program's.
    auto r = cgbench({"run", "-q", "--env", "MODE=x", "--env", "OTHER=y", program("print_env"),
                      (dir / "a").string(), "--name", "-q", "--", "z"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    auto seen = read(dir / "a");
    EXPECT_NE(seen.find("argv[2]=--name\nargv[3]=-q\nargv[4]=--\nargv[5]=z\n"), std::string::npos)
        << seen;
    EXPECT_NE(seen.find("env MODE=x\n"), std::string::npos);
    EXPECT_NE(seen.find("env OTHER=y\n"), std::string::npos);
    // After --, even option-looking words are the program's.
    r = cgbench({"run", "-q", "--", program("print_env"), (dir / "b").string(), "--verify"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    seen = read(dir / "b");
    EXPECT_NE(seen.find("argv[2]=--verify\n"), std::string::npos) << seen;
    EXPECT_NE(seen.find("argv[0]=/cgbench/program"), std::string::npos) << seen;
    EXPECT_EQ(seen.find("HOME=/nonexistent\nPATH"), std::string::npos);  // caller's HOME/PATH kept
}

TEST(RunE2E, VerifyPassesForADeterministicProgram) {
    const auto r =
        cgbench({"run", "--format", "json", "--verify", "3", "--", program("workload"), "2000"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto doc = nlohmann::json::parse(r.out);
    EXPECT_EQ(doc["benchmarks"][0]["verify"]["runs"], 3);
    EXPECT_EQ(doc["benchmarks"][0]["verify"]["identical"], true);
}

TEST(RunE2E, NamesThatAreNotUtf8AreWrittenInEveryFormat) {
    const auto dir = scratch("not-utf8");
    const std::string name = "latin1-caf\xe9";  // "café" in ISO-8859-1: not UTF-8
    const auto out = (dir / "r.json").string();
    const auto db = (dir / "h.db").string();
    const auto r = cgbench(
        {"run", "-q", "--db", db, "--name", name, "--out", out, "--", program("workload"), "100"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto doc = read_json(out);  // valid JSON: the byte became U+FFFD
    EXPECT_EQ(doc["benchmarks"][0]["name"], "latin1-caf\xef\xbf\xbd");
    for (const auto& format : {"json", "markdown", "junit", "console"}) {
        const auto again = cgbench({"run", "--no-db", "--format", format, "--name", name, "--",
                                    program("workload"), "100"});
        EXPECT_EQ(again.exit_code, 0) << format << ": " << again.err;
        // Never the byte itself: the name is made UTF-8 once, when the run is planned, so every
        // format (the console too) shows the one name the history stores.
        EXPECT_NE(again.out.find("latin1-caf\xef\xbf\xbd"), std::string::npos) << format;
        EXPECT_EQ(again.out.find("caf\xe9"), std::string::npos) << format;
    }
    const auto history = cgbench({"history", "--db", db, "--format", "json"});
    EXPECT_EQ(history.exit_code, 0) << history.err;
}

}  // namespace cgbench::e2e
