// Several outputs from one invocation (--report FORMAT=FILE, repeatable): every file holds what
// `--format FORMAT` alone prints, from one comparison (or one run); a bad spec, a format the
// command does not write and a file named twice are refused before anything is done.

#include <gtest/gtest.h>

#include "e2e/harness.hpp"
#include "util/fs.hpp"

namespace cgbench::e2e {

namespace {

// Two measured results of the attribution workload, base and a head that is 10% slower.
fs::path two_results(const std::string& name) {
    const auto dir = scratch(name);
    for (const auto& [file, mode] :
         {std::pair{"base.json", "normal"}, {"head.json", "slow-beta"}}) {
        EXPECT_EQ(cgbench({"run", "-q", "--no-db", "--name", "attrib", "--out",
                           (dir / file).string(), "--", program("attrib"), mode, "50000"})
                      .exit_code,
                  0);
    }
    return dir;
}

}  // namespace

TEST(ReportOutputs, CompareWritesEveryReportFromOneComparison) {
    const auto dir = two_results("report-outputs-compare");
    const auto base = (dir / "base.json").string(), head = (dir / "head.json").string();
    const auto r = cgbench({"compare", "--no-db", "--report", "markdown=" + (dir / "r.md").string(),
                            "--report", "junit=" + (dir / "r.xml").string(), "--report",
                            "json=" + (dir / "r.json").string(), base, head});
    EXPECT_EQ(r.exit_code, 1) << r.err;  // beta +10%: a regression
    EXPECT_NE(r.out.find("REGRESSION"), std::string::npos) << "the console report is printed too";
    for (const auto& [format, file] :
         {std::pair{"markdown", "r.md"}, {"junit", "r.xml"}, {"json", "r.json"}}) {
        const auto alone = cgbench({"compare", "--no-db", "--format", format, base, head});
        EXPECT_EQ(util::read_file(dir / file), alone.out) << format;
    }
}

TEST(ReportOutputs, RunWritesFormatsAndExports) {
    const auto dir = scratch("report-outputs-run");
    const auto r =
        cgbench({"run", "-q", "--no-db", "--out", (dir / "run.json").string(), "--report",
                 "openmetrics=" + (dir / "metrics.txt").string(), "--report",
                 "junit=" + (dir / "run.xml").string(), "--", program("workload"), "1000"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto metrics = util::read_file(dir / "metrics.txt");
    EXPECT_NE(metrics.find("cgbench_cost{benchmark="), std::string::npos) << metrics;
    EXPECT_NE(metrics.find("# EOF"), std::string::npos);
    EXPECT_NE(util::read_file(dir / "run.xml").find("<testsuite"), std::string::npos);
    const auto exported =
        cgbench({"export", "--no-db", "--format", "openmetrics", (dir / "run.json").string()});
    EXPECT_EQ(metrics, exported.out) << "the same as `export` of the result file";
}

TEST(ReportOutputs, BadOutputsAreRefusedBeforeAnythingRuns) {
    const auto dir = scratch("report-outputs-bad");
    const auto refused = [&](std::vector<std::string> args, const std::string& why) {
        args.insert(args.end(), {"--", program("workload"), "1000"});
        const auto r = cgbench(args);
        EXPECT_EQ(r.exit_code, 2) << r.err;
        EXPECT_NE(r.err.find(why), std::string::npos) << r.err;
        EXPECT_FALSE(fs::exists(dir / "history.db")) << "nothing measured or recorded";
    };
    const auto db = (dir / "history.db").string();
    refused({"run", "--db", db, "--report", "markdown"}, "--report 'markdown' is not FORMAT=FILE");
    refused({"run", "--db", db, "--report", "yaml=x"}, "--report: unknown format 'yaml'");
    refused({"run", "--db", db, "--report", "json=" + (dir / "a").string(), "--report",
             "junit=" + (dir / "a").string()},
            "is written twice");
    refused({"run", "--db", db, "--out", (dir / "b").string(), "--report",
             "json=" + (dir / "b").string()},
            "is written twice");
    const auto c = cgbench({"compare", "--no-db", "--report", "openmetrics=x", "a.json", "b.json"});
    EXPECT_EQ(c.exit_code, 2);
    EXPECT_NE(c.err.find("unknown format 'openmetrics'"), std::string::npos) << c.err;
}

}  // namespace cgbench::e2e
