// Hardening, measuring and what it reads (reliability audit 2, K01, P08, X02, X03, X05, W01,
// W02, C02, C03, C04, M01): kept files never meet, messages stay a line, any argument is
// measured, forked children's counts are said, long commands get short names, weights files
// are checked before measuring, calibration writes only weights that fit, and shards of
// different suites are not merged.

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <gtest/gtest.h>

#include <fstream>
#include <regex>

#include "e2e/harness.hpp"

namespace cgbench::e2e {

namespace {

std::string quoted(const std::string& s) {
    return nlohmann::json(s).dump();
}

// A suite file in `dir` named `name` with benchmarks NAME = [ARGS...].
fs::path suite_file(const fs::path& dir, const std::string& name,
                    const std::vector<std::pair<std::string, std::vector<std::string>>>& benches) {
    std::string text;
    for (const auto& [bench, command] : benches) {
        std::vector<std::string> q;
        for (const auto& a : command)
            q.push_back(quoted(a));
        text += fmt::format("[[bench]]\nname = {}\ncommand = [{}]\n\n", quoted(bench),
                            fmt::join(q, ", "));
    }
    const auto path = dir / name;
    std::ofstream(path) << text;
    return path;
}

}  // namespace

TEST(Hardening, K01_KeptFilesOfAProcessAndABenchmarkNamedLikeItAreRefused) {
    const auto dir = scratch("hardening-k01");
    const auto marker = dir / "ran";
    const auto suite =
        suite_file(dir, "s.toml",
                   {{"a", {"/bin/sh", "-c", fmt::format("{0} 100; {0} 200", program("workload"))}},
                    {"a.process-2", {program("print_env"), marker.string()}}});
    const auto r = cgbench(
        {"run", "--no-db", "-j1", "--keep-raw", (dir / "raw").string(), "--suite", suite.string()});
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_NE(r.err.find("benchmarks 'a' and 'a.process-2' would share --keep-raw file names "
                         "(a.process-2.*)"),
              std::string::npos)
        << r.err;
    EXPECT_FALSE(fs::exists(marker)) << "measured before refusing";
    const auto verify = suite_file(dir, "v.toml",
                                   {{"b", {program("print_env"), marker.string()}},
                                    {"b.2", {program("print_env"), marker.string()}}});
    const auto v = cgbench({"run", "--no-db", "--verify", "2", "--keep-raw", (dir / "raw").string(),
                            "--suite", verify.string()});
    EXPECT_EQ(v.exit_code, 2) << v.err;
    EXPECT_NE(v.err.find("'b' and 'b.2' would share"), std::string::npos) << v.err;
    EXPECT_FALSE(fs::exists(marker));
}

TEST(Hardening, P08_TheProcessesLeftAtATimeoutAreCountedNotListedOneByOne) {
    const auto r =
        cgbench({"run", "--no-db", "--warmup", "0", "--weights", "ir", "--timeout", "12", "--",
                 "/bin/sh", "-c", "for i in 1 2 3; do sleep \"$0\" & done; wait", "60"});
    EXPECT_EQ(r.exit_code, 3) << r.err;
    const std::regex counted(R"(still running: .*\b([0-9]+) x [^,]*sleep 60)");
    std::smatch m;
    ASSERT_TRUE(std::regex_search(r.err, m, counted)) << r.err;
    EXPECT_GE(std::stoi(m[1]), 2) << r.err;
    const auto running = r.err.substr(r.err.find("still running"));
    EXPECT_EQ(running.find("sleep 60"), running.rfind("sleep 60")) << "listed twice: " << r.err;
}

TEST(Hardening, X02_AnArgumentThatLooksLikeAnEventsLineIsMeasured) {
    const std::string arg = "1000\nevents: Ir";
    for (const auto& script : {"exec \"$0\" \"$1\"", "\"$0\" \"$1\"; true"}) {
        const auto r = cgbench({"run", "-q", "--no-db", "--weights", "ir", "--", "/bin/sh", "-c",
                                script, program("workload"), arg});
        EXPECT_EQ(r.exit_code, 0) << script << ": " << r.err;
    }
}

TEST(Hardening, X03_ForkedChildrenThatRepeatTheirParentsCountsAreSaid) {
    const auto tree =
        run_document({"--no-db", "--weights", "ir", "--", program("forker"), "1000", "1000"});
    ASSERT_FALSE(tree.is_null());
    const auto warnings = tree["benchmarks"][0].value("warnings", nlohmann::json::array()).dump();
    EXPECT_NE(warnings.find("1 forked process(es) that did not exec are counted"),
              std::string::npos)
        << warnings;
    EXPECT_NE(warnings.find("--processes main counts the program alone"), std::string::npos);
    const auto main = run_document({"--no-db", "--weights", "ir", "--processes", "main", "--",
                                    program("forker"), "1000", "1000"});
    ASSERT_FALSE(main.is_null());
    EXPECT_EQ(
        main["benchmarks"][0].value("warnings", nlohmann::json::array()).dump().find("forked"),
        std::string::npos);
}

TEST(Hardening, X05_ALongCommandLineGetsAShortDistinctDefaultName) {
    const std::string big(300, 'x');
    std::vector<std::string> names;
    for (const auto& last : {"a", "b"}) {
        const auto doc = run_document(
            {"--no-db", "--weights", "ir", "--", program("workload"), "10", big, big + last});
        ASSERT_FALSE(doc.is_null());
        names.push_back(doc["benchmarks"][0]["name"].get<std::string>());
    }
    for (const auto& n : names) {
        EXPECT_LE(n.size(), 120u) << n;
        EXPECT_TRUE(std::regex_search(n, std::regex("^workload 10 x+… #[0-9a-f]{8}$"))) << n;
    }
    EXPECT_NE(names[0], names[1]);
}

TEST(Hardening, W01_AWeightAboveTheBoundInAFileIsRefusedBeforeMeasuring) {
    const auto dir = scratch("hardening-w01");
    const auto w = dir / "huge.toml";
    std::ofstream(w)
        << "schema = \"cgbench-weights/1\"\nname = \"huge\"\nl1 = 9223372036854775807\n"
           "ll = 5\nram = 35\n";
    const auto marker = dir / "ran";
    const auto r = cgbench(
        {"run", "--no-db", "--weights", w.string(), "--", program("print_env"), marker.string()});
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_NE(r.err.find(w.string() + ":3: 'l1' is above 1,000,000"), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(marker)) << "measured before refusing";
}

TEST(Hardening, W02_AWeightsNameWithControlCharactersIsRefused) {
    const auto dir = scratch("hardening-w02");
    const auto w = dir / "esc.toml";
    std::ofstream(w) << "name = \"\\u001b[2J\\u001b[31mRED\\u0007\"\nl1 = 1\nll = 5\nram = 35\n";
    const auto r =
        cgbench({"run", "--no-db", "--weights", w.string(), "--", program("workload"), "10"});
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_NE(r.err.find("'name' holds a control character"), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find('\x1b'), std::string::npos) << "an escape reached the terminal";
    EXPECT_EQ(r.out.find('\x1b'), std::string::npos);
}

TEST(Hardening, C02_AnOutOfRangeStepCountIsNamedAsGiven) {
    const auto steps = cgbench({"calibrate", "--steps", "99999999999999999999"});
    EXPECT_EQ(steps.exit_code, 2) << steps.err;
    EXPECT_NE(steps.err.find("invalid --steps '99999999999999999999'"), std::string::npos)
        << steps.err;
    EXPECT_EQ(steps.err.find("18446744073709551615"), std::string::npos) << steps.err;
}

TEST(Hardening, C03_ACpuThisProcessCannotUseIsRefused) {
    const auto cpu = cgbench({"calibrate", "--cpu", "999"});
    EXPECT_EQ(cpu.exit_code, 2) << cpu.err;
    EXPECT_NE(cpu.err.find("invalid --cpu 999: this process may run on CPUs"), std::string::npos)
        << cpu.err;
}

TEST(Hardening, C04_AFitThatDoesNotExplainTheTimesIsNotWritten) {
    const auto dir = scratch("hardening-c04");
    // Programs whose time is sleeping, which no count sees: they dominate the times and no
    // weights can explain them.
    const auto suite = suite_file(dir, "sleepers.toml",
                                  {{"sleep-a", {"/bin/sleep", "0.3"}},
                                   {"sleep-b", {"/bin/sleep", "0.6"}},
                                   {"sleep-c", {"/bin/sleep", "0.9"}}});
    const auto out = dir / "w.toml";
    const auto html = dir / "c.html";
    const auto r = cgbench({"calibrate", "--sizes", "4K", "--steps", "20000", "--rounds", "1",
                            "--repeat", "1", "--clock", "wall", "--max-noise", "100%", "--suite",
                            suite.string(), "--out", out.string(), "--html", html.string()});
    EXPECT_EQ(r.exit_code, 4) << r.out << r.err;
    // No weights explain sleeps: the fit either explains little, or puts an absurd weight on
    // some level to come close.
    EXPECT_TRUE(r.err.find("the fitted weights explain little of the times (R²") !=
                    std::string::npos ||
                r.err.find("a fitted weight is above 1,000,000") != std::string::npos)
        << r.err;
    EXPECT_NE(r.err.find(out.string() + " was not written"), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(out));
    EXPECT_TRUE(fs::exists(html)) << "the evidence (the page) was not written";
}

TEST(Hardening, M01_ShardsOfDifferentSuitesAreNotMerged) {
    const auto dir = scratch("hardening-m01");
    const auto w = program("workload");
    const auto s1 = suite_file(dir, "s1.toml", {{"a", {w, "100"}}, {"b", {w, "200"}}});
    const auto s2 =
        suite_file(dir, "s2.toml", {{"c", {w, "100"}}, {"d", {w, "200"}}, {"e", {w, "300"}}});
    for (const auto& [suite, shard, out] :
         {std::tuple{s1, "1/2", "one.json"}, std::tuple{s2, "2/2", "two.json"},
          std::tuple{s1, "2/2", "one-b.json"}}) {
        const auto r = cgbench({"run", "-q", "--no-db", "--weights", "ir", "--suite",
                                suite.string(), "--shard", shard, "--out", (dir / out).string()});
        ASSERT_EQ(r.exit_code, 0) << r.err;
    }
    const auto mixed = cgbench({"merge", "--no-db", (dir / "one.json").string(),
                                (dir / "two.json").string(), "--out", (dir / "m.json").string()});
    EXPECT_EQ(mixed.exit_code, 2) << mixed.err;
    EXPECT_NE(mixed.err.find("are shards of different splits"), std::string::npos) << mixed.err;
    EXPECT_FALSE(fs::exists(dir / "m.json"));
    const auto same = cgbench({"merge", "-q", "--no-db", (dir / "one.json").string(),
                               (dir / "one-b.json").string(), "--out", (dir / "m.json").string()});
    EXPECT_EQ(same.exit_code, 0) << same.err;
}

}  // namespace cgbench::e2e
