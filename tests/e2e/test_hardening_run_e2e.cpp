// Hardening, `cgbench run` and the command line (reliability audit D7, D12, D15, D18, D19,
// D20 and rows C08, C27, C33, C37, M09, M10, M13, M19, O23, T16, T22, T23).

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>

#include "e2e/hardening.hpp"
#include "e2e/harness.hpp"

namespace cgbench::e2e {

TEST(Hardening, D7_NewlineInAnArgumentIsMeasured) {
    const auto dir = scratch("hardening-d7");
    // T22: a multi-line argument, as `python3 -c` takes; T23: one that looks like a header.
    for (const std::string& arg : {std::string("1000\nsecond line"), std::string("1000\nevents: Ir"),
                                  std::string("1000\n\nsummary: 1\nfl=x\n0 99")}) {
        const auto kr = dir / "kr";
        fs::remove_all(kr);
        const auto r = cgbench({"run", "-q", "--no-db", "--name", "w", "--keep-raw", kr.string(),
                                "--out", (dir / "r.json").string(), "--", program("workload"),
                                arg});
        ASSERT_EQ(r.exit_code, 0) << r.err;
        const auto doc = read_json(dir / "r.json");
        // Valgrind's own count of the run, from its log.
        const auto ir = log_instruction_refs(kr / "w.valgrind.log");
        ASSERT_TRUE(ir.has_value());
        EXPECT_EQ(doc["benchmarks"][0]["events"]["Ir"].get<std::uint64_t>(), *ir);
    }
}

TEST(Hardening, M19_RegionNameWithANewlineFailsTheBenchmark) {
    const auto r = cgbench({"run", "-q", "--no-db", "--regions", "--name", "r", "--",
                            program("regions"), "newline", "1000"});
    EXPECT_EQ(r.exit_code, 3) << r.err;
    EXPECT_NE(r.err.find("'a\\x0ab', which holds a newline"), std::string::npos) << r.err;
}

TEST(Hardening, D12_HugeTimeoutMeansNoTimeout) {
    const auto r = cgbench({"run", "-q", "--no-db", "--timeout", "1e10", "--", program("workload"),
                            "1000"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
}

TEST(Hardening, D15_DeepTomlKeyIsAnErrorNotACrash) {
    const auto dir = scratch("hardening-d15-toml");
    std::string header = "[a";
    for (int i = 0; i < 40000; ++i)
        header += ".a";
    const auto suite = write_suite(dir, header + "]\nx = 1\n");
    const auto r = cgbench({"config", "show", "--suite", suite.string()});
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_NE(r.err.find("cgbench.toml:1: a key of more than 64 dotted parts"), std::string::npos)
        << r.err;
}

TEST(Hardening, D15_FilterOverVeryLongNamesIsLinear) {
    const auto dir = scratch("hardening-d15-regex");
    const std::string name(50000, 'a');
    const auto suite = write_suite(
        dir, fmt::format("[[bench]]\nname = \"{}\"\ncommand = [\"{}\"]\n", name, program("workload")));
    for (const std::string filter : {"^(a|b)*$", "^a+$"}) {
        const auto r = cgbench({"config", "show", "--suite", suite.string(), "--filter", filter});
        EXPECT_EQ(r.exit_code, 0) << filter << ": " << r.err;
        EXPECT_NE(r.out.find("1 matching --filter"), std::string::npos) << r.out.substr(0, 200);
    }
}

TEST(Hardening, D18_ConfigShowValidatesWithoutAProgram) {
    const auto dir = scratch("hardening-d18");  // no cgbench.toml here
    const auto r = cgbench({"config", "show", "--weights", "foo"}, {.cwd = dir.string()});
    EXPECT_EQ(r.exit_code, 2) << r.out;
    EXPECT_NE(r.err.find("invalid weights 'foo'"), std::string::npos) << r.err;
    EXPECT_EQ(cgbench({"config", "show"}, {.cwd = dir.string()}).exit_code, 0);
}

TEST(Hardening, D19_ListingAGoogleBenchmarkBinaryHonoursTimeout) {
    const auto dir = scratch("hardening-d19");
    const auto fake = dir / "fakegb";  // says it is one (--benchmark_list_tests), then hangs
    std::ofstream(fake) << "#!/bin/sh\n# --benchmark_list_tests\nexec sleep 300\n";
    fs::permissions(fake, fs::perms::owner_all);
    const auto r = cgbench({"run", "-q", "--no-db", "--timeout", "2", "--gbench", fake.string()});
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_NE(r.err.find("timed out after 2 s"), std::string::npos) << r.err;
}

TEST(Hardening, C08_OverflowingWeightsAreRefusedBeforeMeasuring) {
    const auto dir = scratch("hardening-c08");
    const auto marker = dir / "ran";
    const auto r = cgbench({"run", "-q", "--no-db", "--weights", "18446744073709551615,1,1", "--",
                            program("print_env"), marker.string()});
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_NE(r.err.find("overflow"), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(marker)) << "measured first";
}

TEST(Hardening, C27_CountOptionsSayWhatIsWrong) {
    for (const auto& args : std::vector<std::vector<std::string>>{
             {"history", "-n", "0"}, {"report", "--html", "x.html", "--last", "0"}}) {
        const auto r = cgbench(args);
        EXPECT_EQ(r.exit_code, 2) << r.err;
        EXPECT_NE(r.err.find("'0' is not a whole number of at least 1"), std::string::npos)
            << r.err;
        EXPECT_LT(r.err.size(), 200u) << r.err;
    }
}

TEST(Hardening, C33_C37_UnknownSubcommandsAreNamed) {
    const auto top = cgbench({"frobnicate"});
    EXPECT_EQ(top.exit_code, 2);
    EXPECT_NE(top.err.find("unknown subcommand 'frobnicate' of cgbench"), std::string::npos)
        << top.err;
    const auto near = cgbench({"compar"});
    EXPECT_NE(near.err.find("did you mean 'compare'?"), std::string::npos) << near.err;
    const auto config = cgbench({"config", "bogus"});
    EXPECT_EQ(config.exit_code, 2);
    EXPECT_NE(config.err.find("unknown subcommand 'bogus' of cgbench config"), std::string::npos)
        << config.err;
    const auto none = cgbench({});
    EXPECT_EQ(none.exit_code, 2);
    EXPECT_NE(none.err.find("cgbench needs a subcommand"), std::string::npos) << none.err;
    EXPECT_NE(none.err.find("run, compare"), std::string::npos) << none.err;
}

TEST(Hardening, T16_StdinThatIsADirectoryIsRefused) {
    const auto dir = scratch("hardening-t16");
    const auto r = cgbench({"run", "-q", "--no-db", "--stdin", dir.string(), "--",
                            program("workload"), "100"});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("is a directory"), std::string::npos) << r.err;
}

TEST(Hardening, M09_AProgramThatIsNotValgrindIsNamed) {
    const auto r = cgbench({"run", "-q", "--no-db", "--", program("workload"), "100"},
                           {.env = {{"CGBENCH_VALGRIND", "/bin/true"}}});
    EXPECT_EQ(r.exit_code, 4);
    EXPECT_NE(r.err.find("/bin/true is not Valgrind: `true --version` printed"),
              std::string::npos)
        << r.err;
}

TEST(Hardening, M10_DeletedWorkingDirectoryIsAPlainError) {
    const auto dir = scratch("hardening-m10") / "gone";
    fs::create_directories(dir);
    const auto r = run_cgbench({"history", "--no-db"}, {.cwd = dir.string(), .remove_cwd = true});
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_NE(r.err.find("the working directory no longer exists"), std::string::npos) << r.err;
}

TEST(Hardening, M13_MissingGitInACheckoutIsAWarning) {
    const auto dir = scratch("hardening-m13");
    fs::create_directories(dir / ".git");  // what git's absence cannot tell from a checkout
    const auto out = dir / "r.json";
    const auto r = cgbench({"run", "--no-db", "--out", out.string(), "--", program("workload"),
                            "100"},
                           {.env = {{"PATH", "/nonexistent"},
                                    {"CGBENCH_VALGRIND", "/usr/bin/valgrind.bin"}},
                            .cwd = dir.string()});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto warnings = read_json(out)["run"]["warnings"].dump();
    EXPECT_NE(warnings.find("git is not on PATH"), std::string::npos) << warnings;
}

TEST(Hardening, O23_FullTmpIsNamed) {
    const auto dir = scratch("hardening-o23");
    HARDENING_EXPECT_OK(in_private_tmpfs("/tmp", "size=64k", [&](const fs::path& tmp) {
        Checks c;
        if (!fill_filesystem(tmp)) return std::string("cannot fill /tmp");
        const auto r = run_cgbench({"run", "--no-db", "--", program("workload"), "1000"});
        c.expect(r.exit_code == 4, "exit " + std::to_string(r.exit_code) + ": " + r.err);
        c.expect(r.err.find("/tmp is full") != std::string::npos, r.err);
        return c.failures();
    }));
}

}  // namespace cgbench::e2e
