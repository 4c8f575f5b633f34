// `cgbench run --suite` end to end: parallel runs equal sequential ones, failures are kept,
// suite-relative paths, --filter, auto-discovery, `config show`.

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <fstream>

#include "e2e/harness.hpp"
#include "util/fs.hpp"

namespace cgbench::e2e {

namespace {

// A [[bench]] entry running a test program with arguments.
std::string entry(const std::string& name, const std::string& prog,
                  const std::vector<std::string>& args, const std::string& extra = "") {
    std::string command = fmt::format("\"{}\"", program(prog));
    for (const auto& a : args)
        command += fmt::format(", \"{}\"", a);
    return fmt::format("[[bench]]\nname = \"{}\"\ncommand = [{}]\n{}\n", name, command, extra);
}

std::vector<std::string> names(const nlohmann::json& result) {
    std::vector<std::string> out;
    for (const auto& b : result["benchmarks"])
        out.push_back(b["name"]);
    return out;
}

std::size_t count(const std::string& text, const std::string& what) {
    std::size_t n = 0;
    for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1))
        ++n;
    return n;
}

// Runs of spaces as one space, so table rows can be matched whatever the column widths.
std::string squeeze_spaces(const std::string& text) {
    std::string out;
    for (const char c : text) {
        if (c != ' ' || out.empty() || out.back() != ' ') out += c;
    }
    return out;
}

}  // namespace

TEST(SuiteE2E, ParallelRunEqualsSequentialRunEventForEvent) {
    const auto dir = scratch("suite-parallel");
    std::ofstream(dir / "input.txt") << "some bytes for stdin\n";
    write_suite(dir, "[defaults]\nthreshold = \"1%\"\n\n" + entry("w/2000", "workload", {"2000"}) +
                         entry("w/stdin", "workload", {"2000", "stdin"}, "stdin = \"input.txt\"") +
                         entry("w/slow", "workload", {"2000", "slow"}, "threshold = \"ir=0.5%\"") +
                         entry("w/3000", "workload", {"3000"}, "env = { MODE = \"x\" }"));
    const auto seq = cgbench({"run", "-j1", "--out", (dir / "j1.json").string()}, {.cwd = dir});
    ASSERT_EQ(seq.exit_code, 0) << seq.err;
    const auto par = cgbench({"run", "-j2", "--out", (dir / "j2.json").string()}, {.cwd = dir});
    ASSERT_EQ(par.exit_code, 0) << par.err;
    const auto a = read_json(dir / "j1.json");
    const auto b = read_json(dir / "j2.json");
    EXPECT_EQ(benchmarks_without_wall_time(a), benchmarks_without_wall_time(b));
    EXPECT_EQ(a["run"]["fingerprint"]["key"], b["run"]["fingerprint"]["key"]);
    EXPECT_EQ(names(b), (std::vector<std::string>{"w/2000", "w/stdin", "w/slow", "w/3000"}));
    EXPECT_EQ(b["benchmarks"][2]["threshold"], "ir=0.5%");
    EXPECT_EQ(b["benchmarks"][0]["threshold"], "1%");
    EXPECT_EQ(b["benchmarks"][3]["position"], 3);
    // stdin was read: more instructions than the same run without it.
    EXPECT_GT(b["benchmarks"][1]["events"]["Ir"], b["benchmarks"][0]["events"]["Ir"]);
    // Not a terminal: one plain progress line per benchmark, and the table on stdout.
    EXPECT_EQ(count(par.err, "cgbench: ["), 4u) << par.err;
    EXPECT_NE(par.err.find("cgbench: [4/4] "), std::string::npos) << par.err;
    EXPECT_LT(par.out.find("w/2000"), par.out.find("w/3000"));
    const auto quiet = cgbench({"run", "-q", "--filter", "^w/2000$"}, {.cwd = dir});
    EXPECT_EQ(quiet.exit_code, 0) << quiet.err;
    EXPECT_EQ(quiet.err, "");
    EXPECT_EQ(quiet.out, "");
}

TEST(SuiteE2E, RegionsEntriesGiveOneResultPerRegionInSuiteOrder) {
    const auto dir = scratch("suite-regions");
    write_suite(dir, entry("nest", "regions", {"nested", "2000"}, "regions = true") +
                         entry("whole", "workload", {"2000"}) +
                         entry("rep", "regions", {"repeated", "2000"}, "regions = true"));
    const auto r = cgbench({"run", "-j2", "--out", (dir / "r.json").string()}, {.cwd = dir});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto j = read_json(dir / "r.json");
    EXPECT_EQ(names(j),
              (std::vector<std::string>{"nest/outer", "nest/inner", "whole", "rep/step"}));
    // Regions: Cachegrind where Valgrind has its start/stop requests, else Callgrind.
    const bool cachegrind_regions = valgrind_version() >= std::pair{3, 22};
    EXPECT_EQ(j["benchmarks"][0]["tool"], cachegrind_regions ? "cachegrind" : "callgrind");
    EXPECT_EQ(j["benchmarks"][2]["tool"], "cachegrind");
    EXPECT_EQ(j["benchmarks"][3]["region"]["entries"], 3);
    // Each region result keeps the position of its suite entry.
    EXPECT_EQ(j["benchmarks"][1]["position"], 0);
    EXPECT_EQ(j["benchmarks"][3]["position"], 2);
}

TEST(SuiteE2E, FailuresAreReportedAndSavedWithTheOthers) {
    const auto dir = scratch("suite-failures");
    const auto out = dir / "result.json";
    write_suite(
        dir, entry("ok/first", "workload", {"2000"}) +
                 entry("exits", "exit_with", {"3", "the real reason"}) +
                 entry("crashes", "crash", {"11"}) +
                 entry("sleeps", "spawn_and_sleep", {(dir / "pid").string(), "30"}, "timeout = 1") +
                 entry("ok/last", "workload", {"3000"}));
    const auto r =
        cgbench({"run", "-j2", "--suite", (dir / "cgbench.toml").string(), "--out", out.string()});
    EXPECT_EQ(r.exit_code, 3) << r.err;
    EXPECT_NE(r.err.find("cgbench: error: 3 of 5 benchmarks failed: 'exits' exited with status 3; "
                         "'crashes' killed by"),
              std::string::npos)
        << r.err;
    EXPECT_NE(r.err.find("'sleeps' timed out"), std::string::npos) << r.err;
    EXPECT_NE(r.out.find("the real reason"), std::string::npos) << r.out;
    ASSERT_TRUE(fs::exists(out)) << "the measured benchmarks were lost";
    const auto doc = read_json(out);
    EXPECT_EQ(names(doc),
              (std::vector<std::string>{"ok/first", "exits", "crashes", "sleeps", "ok/last"}));
    const auto& b = doc["benchmarks"];
    EXPECT_EQ(b[0]["status"], "ok");
    EXPECT_EQ(b[1]["status"], "failed");
    EXPECT_EQ(b[1]["exit_code"], 3);
    EXPECT_EQ(b[2]["status"], "failed");
    EXPECT_EQ(b[3]["status"], "timeout");
    EXPECT_EQ(b[4]["status"], "ok");
    EXPECT_GT(b[4]["events"]["Ir"], 0);
}

TEST(SuiteE2E, PathsAreRelativeToTheSuiteAndFilterSelects) {
    const auto root = scratch("suite-relative");
    const auto proj = root / "project";
    fs::create_directories(proj / "bin");
    fs::create_directories(proj / "data");
    fs::copy_file(program("print_env"), proj / "bin" / "print_env");
    write_suite(proj,
                "[[bench]]\nname = \"env/here\"\ncommand = [\"./bin/print_env\", \"seen.txt\"]\n"
                "cwd = \"data\"\n\n" +
                    entry("other", "workload", {"100"}));
    // Started from elsewhere, the suite's paths still mean the same files.
    const auto r =
        cgbench({"run", "--format", "json", "--filter", "^env/", "--suite", "project/cgbench.toml"},
                {.cwd = root});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(names(nlohmann::json::parse(r.out)), (std::vector<std::string>{"env/here"}));
    // It ran in project/data (its file is there), which the sandbox shows it as the tree's
    // top (no git checkout holds it).
    const std::string text = util::read_file(proj / "data" / "seen.txt");
    EXPECT_NE(text.find("cwd=/cgbench/tree\n"), std::string::npos) << text;
    EXPECT_EQ(nlohmann::json::parse(r.out)["benchmarks"][0]["command"][0], "./bin/print_env");
}

TEST(SuiteE2E, FindsCgbenchTomlInTheCurrentDirectory) {
    const auto dir = scratch("suite-discover");
    write_suite(dir, entry("only", "workload", {"100"}));
    const auto r = cgbench({"run", "--format", "json"}, {.cwd = dir});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(names(nlohmann::json::parse(r.out)), (std::vector<std::string>{"only"}));
}

TEST(SuiteE2E, ErrorsStopEverythingBeforeAnyRun) {
    const auto dir = scratch("suite-errors");
    const auto marker = dir / "ran";
    const auto first = entry("first", "print_env", {marker.string()});
    const auto expect = [&](const std::string& suite, const std::string& message) {
        write_suite(dir, suite);
        const auto r = cgbench({"run", "--out", (dir / "out.json").string()}, {.cwd = dir});
        EXPECT_EQ(r.exit_code, 2) << r.err;
        EXPECT_NE(r.err.find(message), std::string::npos) << r.err;
        EXPECT_FALSE(fs::exists(marker)) << message << ": a benchmark ran";
        EXPECT_FALSE(fs::exists(dir / "out.json"));
    };
    expect(first + "[[bench]]\nname = \"second\"\ncomand = [\"x\"]\n",
           "cgbench.toml:7: unknown key 'comand' in [[bench]] 'second'");
    expect(first + entry("first", "workload", {}), "duplicate benchmark name 'first'");
    expect(first + "[[bench]]\nname = \"second\"\ncommand = [\"./missing\"]\n", "not found");
    expect(first + entry("second", "workload", {}, "stdin = \"missing.txt\""),
           "stdin file " + (dir / "missing.txt").string());
    expect(first + entry("second", "workload", {}, "cwd = \"nowhere\""), "does not exist");
}

TEST(SuiteE2E, ConfigShowNamesWhereEachValueCameFrom) {
    const auto dir = scratch("suite-config");
    write_suite(dir, "[defaults]\nthreshold = \"1%\"\ntimeout = 100\n\n" +
                         entry("a", "workload", {"100"}, "timeout = 5") +
                         entry("b", "workload", {"200"}));
    const auto r =
        cgbench({"config", "show", "--weights", "ir"},
                {.env = {{"CGBENCH_THRESHOLD", "2%"}, {"CGBENCH_JOBS", "3"}}, .cwd = dir});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto o = squeeze_spaces(r.out);
    EXPECT_NE(o.find("suite cgbench.toml: 2 benchmark(s)\n"), std::string::npos) << o;
    EXPECT_NE(o.find("weights ir command line (--weights)"), std::string::npos) << o;
    EXPECT_NE(o.find("jobs 3 environment (CGBENCH_JOBS)"), std::string::npos) << o;
    EXPECT_NE(o.find("geometry ci-default built-in"), std::string::npos) << o;
    EXPECT_NE(o.find("timeout 5 suite entry (cgbench.toml:8)"), std::string::npos) << o;
    EXPECT_NE(o.find("timeout 100 suite [defaults] (cgbench.toml:3)"), std::string::npos) << o;
    EXPECT_NE(o.find("threshold 2% environment (CGBENCH_THRESHOLD)"), std::string::npos) << o;
    EXPECT_EQ(count(o, "environment (CGBENCH_THRESHOLD)"), 2u) << o;
    EXPECT_NE(o.find("built-in: the suite's directory"), std::string::npos) << o;
    // Without a suite: the run-wide settings only.
    const auto none = cgbench({"config", "show"}, {.cwd = scratch("suite-config-none")});
    EXPECT_EQ(none.exit_code, 0) << none.err;
    EXPECT_NE(none.out.find("run-wide settings only"), std::string::npos) << none.out;
}

}  // namespace cgbench::e2e
