// The measurement pipeline with a fake process runner: how outcomes turn into results.
// (The real runner and the real Valgrind are exercised by tests/e2e.)

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <fstream>
#include <functional>
#include <thread>

#include "base/errors.hpp"
#include "exec/sandbox.hpp"
#include "exec/staging.hpp"
#include "fake_valgrind.hpp"
#include "runner/measurer.hpp"
#include "runner/run_pipeline.hpp"
#include "util/fs.hpp"
#include "util/strings.hpp"
#include "valgrind/cachegrind_parser.hpp"
#include "valgrind/callgrind_parser.hpp"

namespace cgbench::runner {

namespace {

using namespace test;

// The captured profile with `extra` more instructions in one (new) function.
std::string with_extra_ir(std::string text, std::uint64_t extra) {
    if (extra == 0) return text;
    const auto pos = text.rfind("\nsummary: ") + 10;
    const auto end = text.find(' ', pos);
    const auto ir = std::stoull(text.substr(pos, end - pos));
    text.replace(pos, end - pos, std::to_string(ir + extra));
    const auto line = text.find("\nfn=");
    text.insert(line + 1, "fn=extra\n999999 " + std::to_string(extra) + "\n");
    return text;
}

// Plays Valgrind from several threads at once. The profile's Ir grows by the program's last
// argument, earlier benchmarks take longer (so they finish out of order), the benchmark with
// argument 2 sees personality() refused, and the most simultaneous runs are counted.
class ConcurrentFake final : public exec::ProcessRunner {
  public:
    std::atomic<int> running{0};
    std::atomic<int> most{0};
    std::atomic<int> started{0};

    exec::ProcessOutcome run(const exec::ProcessSpec& spec) override {
        const auto out = std::find_if(spec.argv.begin(), spec.argv.end(), [](const auto& a) {
            return util::starts_with(a, "--cachegrind-out-file=");
        });
        if (out == spec.argv.end()) return exited(1);  // the glibc probe: not available
        const int pid = 1000 + ++started;
        write_log(spec, pid);
        const int now = ++running;
        for (int seen = most.load(); now > seen && !most.compare_exchange_weak(seen, now);) {
        }
        const auto arg = std::stoull(spec.argv.back());
        std::this_thread::sleep_for(std::chrono::milliseconds(4 * (10 - static_cast<int>(arg))));
        std::ofstream(with_pid(host_path(spec, out->substr(22)), pid))
            << with_extra_ir(captured(), arg);
        --running;
        exec::ProcessOutcome o;
        o.pid = pid;
        if (arg == 2) o.aslr_errno = EPERM;
        return o;
    }
};

}  // namespace

TEST(Measurer, WarmupRunsNativelyWithTheMeasuredEnvironmentFirst) {
    FakeRunner fake;
    fake.profile = [](int) { return captured(); };
    Measurer m(fake_valgrind(), MeasureSettings{}, fake, {{"PATH", "/usr/bin"}});
    auto spec = workload_spec();
    spec.warmup = 2;
    EXPECT_EQ(m.measure(spec).status, BenchStatus::Ok);
    ASSERT_EQ(fake.native.size(), 2u);
    ASSERT_EQ(fake.calls.size(), 1u);
    const auto& valgrind = fake.calls[0];
    const auto program = std::find(valgrind.argv.begin(), valgrind.argv.end(), "--") + 1;
    EXPECT_EQ(fake.native[0].argv, std::vector<std::string>(program, valgrind.argv.end()));
    EXPECT_EQ(fake.native[0].env, valgrind.env);
    EXPECT_EQ(fake.native[0].cwd, valgrind.cwd);
    // Repeated measurements (--verify) warm up once.
    m.measure(spec, 1);
    EXPECT_EQ(fake.native.size(), 2u);
}

TEST(Measurer, ParsesAndScoresTheProfile) {
    FakeRunner fake;
    fake.profile = [](int) { return captured(); };
    Measurer m(fake_valgrind(), MeasureSettings{}, fake, {{"PATH", "/usr/bin"}});
    const auto r = m.measure(workload_spec());
    EXPECT_EQ(r.status, BenchStatus::Ok);
    EXPECT_EQ(r.exit_code, 0);
    const auto expected = valgrind::parse_cachegrind(captured()).totals;
    EXPECT_EQ(r.events, expected);
    EXPECT_EQ(r.cost, metrics::cost(expected, metrics::parse_weights("pythonspeed")));
}

TEST(Measurer, BuildsTheDocumentedCommandLine) {
    FakeRunner fake;
    fake.profile = [](int) { return captured(); };
    MeasureSettings settings;
    settings.weights = metrics::parse_weights("ir");
    Measurer m(fake_valgrind(), settings, fake, {});
    m.measure(workload_spec());
    const auto& argv = fake.calls.at(0).argv;
    const auto has = [&](const std::string& a) {
        return std::find(argv.begin(), argv.end(), a) != argv.end();
    };
    EXPECT_EQ(argv.front(), "/usr/bin/valgrind.bin");
    EXPECT_TRUE(has("--tool=cachegrind"));
    EXPECT_TRUE(has("--cache-sim=no"));  // --weights ir needs no cache simulation
    EXPECT_TRUE(has("--I1=32768,8,64"));
    EXPECT_TRUE(has("--LL=8388608,16,64"));
    const auto dashdash = std::find(argv.begin(), argv.end(), std::string("--"));
    ASSERT_NE(dashdash, argv.end());
    // The program runs by its fixed path in the sandbox (or through the fixed-path link),
    // keeping its last two components.
    const std::string staged = exec::isolation().namespaces ? std::string(exec::kSandboxStaging)
                                                            : exec::staging_root().string();
    EXPECT_TRUE(util::starts_with(*(dashdash + 1), staged + "/"));
    EXPECT_TRUE((dashdash + 1)->ends_with("/programs/workload"));
    EXPECT_TRUE(has("--trace-children=yes"));
    EXPECT_TRUE(has("--command-line-only=yes"));
    EXPECT_EQ(*(dashdash + 2), "100");
    EXPECT_TRUE(fake.calls[0].disable_aslr);
}

TEST(Measurer, ProgramFailuresBecomeResults) {
    FakeRunner fake;
    fake.profile = [](int) { return captured(); };
    Measurer m(fake_valgrind(), MeasureSettings{}, fake, {});

    fake.outcome = [](int) { return exited(3, "something broke\n"); };
    auto r = m.measure(workload_spec());
    EXPECT_EQ(r.status, BenchStatus::Failed);
    EXPECT_EQ(r.exit_code, 3);
    EXPECT_EQ(r.error, "exited with status 3");
    EXPECT_EQ(r.stderr_tail, "something broke");
    EXPECT_TRUE(r.events.empty());

    fake.outcome = [](int) {
        exec::ProcessOutcome o;
        o.how = exec::Termination::Signaled;
        o.signal = 11;
        return o;
    };
    r = m.measure(workload_spec());
    EXPECT_EQ(r.status, BenchStatus::Failed);
    EXPECT_NE(r.error.find("SIGSEGV"), std::string::npos);

    fake.outcome = [](int) {
        exec::ProcessOutcome o;
        o.how = exec::Termination::TimedOut;
        o.started = true;
        o.wall_seconds = 2.0137;  // killed a little after the limit
        return o;
    };
    auto limited = workload_spec();
    limited.timeout_seconds = 2;
    r = m.measure(limited);
    EXPECT_EQ(r.status, BenchStatus::Timeout);
    // The message names the limit the user set, not the wall time the kill took.
    EXPECT_EQ(r.error.rfind("timed out after 2 s;", 0), 0u) << r.error;

    // Stopped before its exec returned: the message says so, and where to look.
    fake.outcome = [](int) {
        exec::ProcessOutcome o;
        o.how = exec::Termination::TimedOut;
        return o;
    };
    r = m.measure(limited);
    EXPECT_EQ(r.status, BenchStatus::Timeout);
    EXPECT_EQ(r.error.rfind("timed out after 2 s before ", 0), 0u) << r.error;
    EXPECT_NE(r.error.find("never returned"), std::string::npos) << r.error;
}

TEST(Measurer, ValgrindProblemsAreEnvironmentErrors) {
    FakeRunner fake;  // writes no profile
    Measurer m(fake_valgrind(), MeasureSettings{}, fake, {});
    fake.outcome = [](int) { return exited(1, "valgrind: failed to start tool 'cachegrind'\n"); };
    EXPECT_THROW(m.measure(workload_spec()), EnvironmentError);

    fake.outcome = [](int) {
        exec::ProcessOutcome o;
        o.how = exec::Termination::SpawnFailed;
        o.spawn_step = "exec";
        o.spawn_errno = ENOENT;
        return o;
    };
    EXPECT_THROW(m.measure(workload_spec()), EnvironmentError);

    fake.profile = [](int) { return std::string("events: Ir\nfl=a\nfn=b\n1 5\n"); };  // truncated
    fake.outcome = [](int) { return exited(0); };
    EXPECT_THROW(m.measure(workload_spec()), EnvironmentError);
}

TEST(Measurer, UnexecutableProgramIsAUsageError) {
    FakeRunner fake;
    fake.outcome = [&fake](int) {
        const auto& argv = fake.calls.back().argv;
        const auto program = *(std::find(argv.begin(), argv.end(), std::string("--")) + 1);
        return exited(126, "valgrind: " + program + ": bad interpreter: No such file\n");
    };
    Measurer m(fake_valgrind(), MeasureSettings{}, fake, {});
    try {
        m.measure(workload_spec());
        FAIL();
    } catch (const UsageError& e) {
        EXPECT_NE(std::string(e.what()).find("bad interpreter"), std::string::npos);
    }
}

TEST(Measurer, KeepsRawFiles) {
    FakeRunner fake;
    fake.profile = [](int) { return captured(); };
    MeasureSettings settings;
    settings.keep_raw_dir = fs::path(::testing::TempDir()) / "cgbench-keep-raw";
    fs::create_directories(settings.keep_raw_dir);
    Measurer m(fake_valgrind(), settings, fake, {});
    auto spec = workload_spec();
    spec.name = "a/b c";
    const auto r = m.measure(spec);
    EXPECT_EQ(r.raw_file, (settings.keep_raw_dir / "a_b_c.cachegrind.out").string());
    EXPECT_EQ(util::read_file(r.raw_file), captured());
}

TEST(Pipeline, VerifyReportsTheSpreadOfUnrepeatableRuns) {
    FakeRunner fake;
    // The third run executes one more instruction in one function.
    fake.profile = [](int call) { return with_extra_ir(captured(), call == 2 ? 1 : 0); };
    RunRequest req;
    req.benchmarks = {workload_spec()};
    req.verify = 3;
    const auto run = execute_run(req, fake_valgrind(), fake, {});
    ASSERT_EQ(run.benchmarks.size(), 1u);
    const auto& b = run.benchmarks[0];
    EXPECT_EQ(b.status, BenchStatus::Failed);
    EXPECT_EQ(b.runs, 3);
    ASSERT_EQ(b.spread.size(), 1u);
    EXPECT_EQ(b.spread[0].event, metrics::Event::Ir);
    EXPECT_EQ(b.spread[0].max - b.spread[0].min, 1u);
    EXPECT_NE(b.error.find("not repeatable"), std::string::npos);
}

TEST(Pipeline, IdenticalRunsPassVerification) {
    FakeRunner fake;
    fake.profile = [](int) { return captured(); };
    RunRequest req;
    req.benchmarks = {workload_spec()};
    req.verify = 2;
    const auto run = execute_run(req, fake_valgrind(), fake, {});
    EXPECT_EQ(run.benchmarks[0].status, BenchStatus::Ok);
    EXPECT_TRUE(run.benchmarks[0].spread.empty());
    EXPECT_EQ(run.benchmarks[0].runs, 2);
    EXPECT_EQ(run.fingerprint.cpu_baseline, "portable");
    EXPECT_EQ(run.fingerprint.geometry.name, "ci-default");
}

TEST(Pipeline, ParallelRunsEqualSequentialOnesInSuiteOrder) {
    RunRequest req;
    for (int i = 0; i < 6; ++i) {
        auto spec = workload_spec();
        spec.name = "w" + std::to_string(i);
        spec.command.back() = std::to_string(i);
        spec.position = static_cast<std::size_t>(i);
        req.benchmarks.push_back(spec);
    }
    req.verify = 2;
    const auto measure = [&](int jobs, ConcurrentFake& fake) {
        req.jobs = jobs;
        return execute_run(req, fake_valgrind(), fake, {});
    };
    ConcurrentFake one, three;
    const auto sequential = measure(1, one);
    const auto parallel = measure(3, three);
    EXPECT_EQ(one.most, 1);
    EXPECT_EQ(three.most, 3);
    ASSERT_EQ(parallel.benchmarks.size(), 6u);
    const auto base_ir = valgrind::parse_cachegrind(captured()).totals.get(metrics::Event::Ir);
    for (std::size_t i = 0; i < 6; ++i) {
        const auto& p = parallel.benchmarks[i];
        EXPECT_EQ(p.name, "w" + std::to_string(i));
        EXPECT_EQ(p.position, i);
        EXPECT_EQ(p.events, sequential.benchmarks[i].events);
        EXPECT_EQ(p.events.get(metrics::Event::Ir), base_ir + i);
        EXPECT_TRUE(p.spread.empty());
    }
    // Facts are combined, not "whoever finished last".
    EXPECT_EQ(parallel.fingerprint.aslr, sequential.fingerprint.aslr);
    EXPECT_NE(parallel.fingerprint.aslr.find("refused"), std::string::npos);
    EXPECT_EQ(parallel.fingerprint.env_block_bytes, sequential.fingerprint.env_block_bytes);
}

}  // namespace cgbench::runner
