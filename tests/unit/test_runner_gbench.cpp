// Google Benchmark pieces: filters, listings, which dump parts are the measured loop (on
// synthetic parts in the order Callgrind 3.19 wrote them for libbenchmark 1.7.1), reports.

#include <gtest/gtest.h>

#include "base/errors.hpp"
#include "runner/gbench.hpp"
#include "runner/gbench_list.hpp"

namespace cgbench::runner {

namespace {

using metrics::Event;

metrics::Profile part(std::uint64_t ir, const std::string& trigger) {
    metrics::Profile p;
    p.tool = "callgrind";
    p.trigger = trigger;
    p.columns = {Event::Ir};
    p.column_names = {"Ir"};
    p.totals.set(Event::Ir, ir);
    p.functions.push_back({"a.c", "f", p.totals});
    return p;
}
metrics::Profile after(std::uint64_t ir, const std::string& fn) {
    return part(ir, "--dump-after=benchmark::State::" + fn + "()");
}
metrics::Profile before(std::uint64_t ir, const std::string& fn) {
    return part(ir, "--dump-before=benchmark::State::" + fn + "()");
}

// One repetition as libbenchmark 1.7.1 runs it: ResumeTiming inside StartKeepRunning, the
// loop, PauseTiming inside FinishKeepRunning; `untimed` before it.
std::vector<metrics::Profile> repetition(std::uint64_t untimed, std::uint64_t loop) {
    return {after(untimed, "ResumeTiming"), after(0, "StartKeepRunning"),
            before(loop, "FinishKeepRunning"), before(20, "PauseTiming")};
}

std::uint64_t ir(const metrics::Profile& p) {
    return p.totals.get(Event::Ir);
}

}  // namespace

TEST(Gbench, ExactFilterEscapesMetacharacters) {
    EXPECT_EQ(exact_filter("BM_Loop/1000"), "^BM_Loop/1000$");
    EXPECT_EQ(exact_filter("BM_T<int>/8/real_time"), "^BM_T<int>/8/real_time$");
    EXPECT_EQ(exact_filter("BM_x.y(1)+[2]*{3}|a?b^c$d\\e"),
              "^BM_x\\.y\\(1\\)\\+\\[2\\]\\*\\{3\\}\\|a\\?b\\^c\\$d\\\\e$");
}

TEST(Gbench, ListingAndVersion) {
    EXPECT_EQ(parse_benchmark_list("BM_a/1\nBM_a/2\r\n\nFix/Sum\n"),
              (std::vector<std::string>{"BM_a/1", "BM_a/2", "Fix/Sum"}));
    EXPECT_TRUE(parse_benchmark_list("").empty());
    EXPECT_TRUE(accepts_iteration_min_time("[--benchmark_min_time=`<integer>x` OR `<float>s` ]"));
    EXPECT_FALSE(accepts_iteration_min_time("[--benchmark_min_time=<min_time>]"));
}

TEST(Gbench, TheLastRepetitionsLoopIsSelected) {
    std::vector<metrics::Profile> parts;
    for (const auto& [untimed, loop] : {std::pair{900000, 4886}, {4000, 4019}, {4000, 4019}}) {
        const auto rep = repetition(untimed, loop);
        parts.insert(parts.end(), rep.begin(), rep.end());
    }
    parts.push_back(part(500000, "Program termination"));
    const auto found = select_loops(parts);
    ASSERT_EQ(found.error, "");
    ASSERT_EQ(found.loops.size(), 3u);
    EXPECT_EQ(ir(found.loops[0].profile()), 4886u);
    EXPECT_EQ(ir(found.loops[2].profile()), 4019u);
    EXPECT_EQ(found.loops[2].intervals, 1u);
}

TEST(Gbench, PausedCodeIsLeftOut) {
    const std::vector<metrics::Profile> parts = {
        after(1000, "ResumeTiming"), after(0, "StartKeepRunning"),     before(6, "PauseTiming"),
        after(1745, "ResumeTiming"), before(577, "FinishKeepRunning"), before(20, "PauseTiming")};
    const auto found = select_loops(parts);
    ASSERT_EQ(found.loops.size(), 1u);
    EXPECT_EQ(ir(found.loops[0].profile()), 6u + 577u);
    EXPECT_EQ(found.loops[0].intervals, 2u);
    EXPECT_EQ(found.loops[0].profile().functions.size(), 1u);  // "f", summed
}

TEST(Gbench, BrokenLoops) {
    EXPECT_NE(select_loops({after(0, "StartKeepRunning"), after(0, "StartKeepRunning")}).error, "");
    EXPECT_NE(select_loops({before(1, "FinishKeepRunning")}).error, "");
    EXPECT_EQ(select_loops({after(0, "StartKeepRunning")}).error,
              "the last measured loop never finished");
}

TEST(Gbench, ReportKeepsIterationRuns) {
    const auto runs = parse_gbench_report(R"({"context": {}, "benchmarks": [
        {"name": "BM_a", "run_type": "iteration", "iterations": 1, "threads": 1},
        {"name": "BM_b", "run_type": "iteration", "iterations": 1, "threads": 1,
         "error_occurred": true, "error_message": "no input"},
        {"name": "BM_c", "run_type": "iteration", "threads": 1, "skipped": true,
         "skip_message": "not on this CPU", "iterations": 1},
        {"name": "BM_a_mean", "run_type": "aggregate", "iterations": 3}]})");
    ASSERT_EQ(runs.size(), 3u);
    EXPECT_EQ(runs[0].name, "BM_a");
    EXPECT_FALSE(runs[0].error_occurred || runs[0].skipped);
    EXPECT_TRUE(runs[1].error_occurred);
    EXPECT_EQ(runs[1].error_message, "no input");
    // SkipWithMessage, as Google Benchmark 1.9.1 writes it: no error.
    EXPECT_FALSE(runs[2].error_occurred);
    EXPECT_TRUE(runs[2].skipped);
    EXPECT_EQ(runs[2].skip_message, "not on this CPU");
    EXPECT_THROW(parse_gbench_report("not json"), UsageError);
    EXPECT_THROW(parse_gbench_report("{}"), UsageError);
}

TEST(Gbench, MeasuredLoopPerIteration) {
    GbenchLoops loops;
    loops.loops.resize(3);
    loops.loops[1].timed.add(part(10000, ""));
    loops.loops[2].timed.add(part(10001, ""));
    const std::vector<GbenchRun> runs(3, GbenchRun{"BM_a", 1000, 1, false, "", false, ""});
    const auto m = measured_loop("BM_a", runs, loops);
    ASSERT_EQ(m.error, "");
    EXPECT_EQ(ir(m.profile), 10u);  // 10001 / 1000, rounded
    EXPECT_EQ(m.info, (GbenchInfo{"BM_a", 1000, 3}));
    ASSERT_EQ(m.warnings.size(), 1u);  // repetitions 2 and 3 differ
    EXPECT_NE(m.warnings[0].find("Ir 10000 and 10001"), std::string::npos) << m.warnings[0];
}

TEST(Gbench, MeasuredLoopErrors) {
    GbenchLoops loops;
    loops.loops.resize(1);
    loops.loops[0].timed.add(part(5, ""));
    EXPECT_NE(measured_loop("BM_a", {}, loops).error.find("ran no benchmark"), std::string::npos);
    const GbenchRun skipped{"BM_a", 1, 1, true, "no input", false, ""};
    EXPECT_EQ(measured_loop("BM_a", {skipped}, loops).error, "called SkipWithError: no input");
    const GbenchRun message{"BM_a", 1, 1, false, "", true, "not on this CPU"};
    EXPECT_EQ(measured_loop("BM_a", {message}, loops).error,
              "was skipped (SkipWithMessage): not on this CPU");
    const GbenchRun threaded{"BM_a/threads:2", 1, 2, false, "", false, ""};
    EXPECT_NE(measured_loop("BM_a", {threaded}, loops).error.find("2 threads"), std::string::npos);
    const GbenchRun ok{"BM_a", 1, 1, false, "", false, ""};
    EXPECT_NE(measured_loop("BM_a", {ok}, GbenchLoops{}).error.find("no measured loop"),
              std::string::npos);
    EXPECT_NE(measured_loop("BM_a", {ok, ok}, loops).error.find("1 measured loops for 2"),
              std::string::npos);
}

TEST(Gbench, TargetsExpandToOneSpecPerBenchmark) {
    BenchmarkSpec target;
    target.name = "bin";
    target.command = {"./bin", "--extra"};
    target.gbench = GbenchTarget{"BM_", {}, "0"};
    const auto specs = expand_gbench_target(target, {{"BM_a/1", "BM_b"}, "1x"});
    ASSERT_EQ(specs.size(), 2u);
    EXPECT_EQ(specs[0].name, "bin/BM_a/1");
    EXPECT_EQ(specs[1].gbench->benchmark, "BM_b");
    EXPECT_EQ(specs[1].gbench->min_time, "1x");
    EXPECT_EQ(specs[1].command, target.command);
}

}  // namespace cgbench::runner
