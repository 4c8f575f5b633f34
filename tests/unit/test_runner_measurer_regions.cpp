// The measurer's region runs with a fake Valgrind (fake_valgrind.hpp): Callgrind's dump
// parts (Valgrind 3.19) and Cachegrind's marker run plus one run per region (3.22 and later),
// played back from files Valgrind wrote (tests/data/callgrind, tests/data/valgrind-3.24).

#include <gtest/gtest.h>

#include <algorithm>

#include "base/errors.hpp"
#include "fake_valgrind.hpp"
#include "runner/measurer.hpp"
#include "runner/run_pipeline.hpp"
#include "support/by_hand.hpp"

namespace cgbench::runner {

namespace {

using namespace test;

std::string data_324(const std::string& name) {
    return util::read_file(std::string(CGBENCH_TEST_DATA) + "/valgrind-3.24/" + name);
}

// The marker lines of a program that nests "inner" in "outer", as the header writes them.
std::string nested_markers() {
    return fmt::format(
        "**{0}** cgbench:begin:5:outer\n**{0}** cgbench:begin:5:inner\n"
        "**{0}** cgbench:end:5:inner\n**{0}** cgbench:end:5:outer\n",
        kPid);
}

// The value of `name` in the environment of `spec`, or nullopt.
std::optional<std::string> env_of(const exec::ProcessSpec& spec, const std::string& name) {
    for (const auto& e : spec.env) {
        if (util::starts_with(e, name + "=")) return e.substr(name.size() + 1);
    }
    return std::nullopt;
}

bool has_arg(const exec::ProcessSpec& spec, const std::string& arg) {
    return std::find(spec.argv.begin(), spec.argv.end(), arg) != spec.argv.end();
}

}  // namespace

TEST(Measurer, RegionRunGivesOneResultPerRegion) {
    FakeRunner fake;
    fake.callgrind_parts = "regions-nested.out";
    MeasureSettings settings;
    settings.keep_raw_dir = fs::path(::testing::TempDir()) / "cgbench-keep-raw-regions";
    fs::create_directories(settings.keep_raw_dir);
    Measurer m(fake_valgrind(), settings, fake, {});
    auto spec = workload_spec();
    spec.kind = MeasureKind::Regions;
    const auto results = m.measure_all(spec);
    const auto& argv = fake.calls.at(0).argv;
    EXPECT_NE(std::find(argv.begin(), argv.end(), "--tool=callgrind"), argv.end());
    EXPECT_NE(std::find(argv.begin(), argv.end(), "--collect-atstart=no"), argv.end());
    EXPECT_NE(std::find(argv.begin(), argv.end(), "--I1=32768,8,64"), argv.end());
    ASSERT_EQ(results.size(), 2u);
    EXPECT_EQ(results[0].name, "workload/outer");
    EXPECT_EQ(results[1].name, "workload/inner");
    for (const auto& r : results) {
        EXPECT_EQ(r.status, BenchStatus::Ok);
        EXPECT_EQ(r.tool, "callgrind");
        ASSERT_TRUE(r.region);
        EXPECT_EQ(r.region->entries, 1u);
        EXPECT_EQ(r.cost, metrics::cost(r.events, settings.weights));
    }
    EXPECT_GT(results[0].events.get(metrics::Event::Ir), results[1].events.get(metrics::Event::Ir));
    // Every part is kept.
    EXPECT_EQ(results[0].raw_file, (settings.keep_raw_dir / "workload.callgrind.out").string());
    EXPECT_TRUE(fs::exists(settings.keep_raw_dir / "workload.callgrind.out.4"));
}

TEST(Measurer, RegionRunWithoutCacheSimulationPinsNoGeometry) {
    FakeRunner fake;
    fake.callgrind_parts = "regions-nested.out";  // has cache events; the cost only needs Ir
    MeasureSettings settings;
    settings.weights = metrics::parse_weights("ir");
    Measurer m(fake_valgrind(), settings, fake, {});
    auto spec = workload_spec();
    spec.kind = MeasureKind::Regions;
    m.measure_all(spec);
    const auto& argv = fake.calls.at(0).argv;
    EXPECT_NE(std::find(argv.begin(), argv.end(), "--cache-sim=no"), argv.end());
    for (const auto& a : argv)
        EXPECT_FALSE(util::starts_with(a, "--I1=")) << a;
}

TEST(Measurer, RegionRunWithoutRegionsFails) {
    FakeRunner fake;
    fake.profile = [](int) { return std::string(); };
    fake.callgrind_parts = "varint-ir-only.out";  // a whole-program dump: no region markers
    MeasureSettings settings;
    settings.weights = metrics::parse_weights("ir");
    Measurer m(fake_valgrind(), settings, fake, {});
    auto spec = workload_spec();
    spec.kind = MeasureKind::Regions;
    const auto results = m.measure_all(spec);
    ASSERT_EQ(results.size(), 1u);
    EXPECT_EQ(results[0].name, "workload");
    EXPECT_EQ(results[0].status, BenchStatus::Failed);
    EXPECT_NE(results[0].error.find("reached no region"), std::string::npos);
}

TEST(Pipeline, RegionRunFingerprintSaysCallgrind) {
    FakeRunner fake;
    fake.callgrind_parts = "regions-repeated.out";
    RunRequest req;
    req.benchmarks = {workload_spec()};
    req.benchmarks[0].kind = MeasureKind::Regions;
    req.verify = 2;
    const auto run = execute_run(req, fake_valgrind(), fake, {});
    ASSERT_EQ(run.benchmarks.size(), 1u);
    EXPECT_EQ(run.benchmarks[0].status, BenchStatus::Ok);
    EXPECT_EQ(run.benchmarks[0].region->entries, 3u);
    EXPECT_EQ(run.benchmarks[0].runs, 2);
    EXPECT_EQ(run.fingerprint.tool, "callgrind");
    const auto& opts = run.fingerprint.valgrind_options;
    EXPECT_NE(std::find(opts.begin(), opts.end(), "--collect-atstart=no"), opts.end());
}

// Two regions one after the other: the first run measures "a" and logs both; "b" gets a run
// of its own.
TEST(Measurer, CachegrindRegionsRunOncePerRegion) {
    FakeRunner fake;
    fake.log_extra = [](int call) {
        return call == 0 ? fmt::format(
                               "**{0}** cgbench:begin:1:a\n**{0}** cgbench:end:1:a\n"
                               "**{0}** cgbench:begin:1:b\n**{0}** cgbench:end:1:b\n",
                               kPid)
                         : std::string();
    };
    const std::string region_file = data_324("regions-inner.cachegrind.out");
    fake.profile = [&](int) { return region_file; };
    Measurer m(fake_valgrind("3.24.0"), MeasureSettings{}, fake, {});
    auto spec = workload_spec();
    spec.kind = MeasureKind::Regions;
    spec.warmup = 1;
    const auto results = m.measure_all(spec);
    ASSERT_EQ(fake.calls.size(), 2u);
    EXPECT_EQ(fake.native.size(), 1u);  // one warm-up, before the first run only
    EXPECT_EQ(env_of(fake.calls[0], "CGBENCH_REGION"), "");
    EXPECT_EQ(env_of(fake.calls[1], "CGBENCH_REGION"), "b");
    for (const auto& call : fake.calls) {
        EXPECT_TRUE(has_arg(call, "--tool=cachegrind"));
        EXPECT_TRUE(has_arg(call, "--instr-at-start=no"));
    }
    ASSERT_EQ(results.size(), 2u);
    const auto summary = cgbench::test::counts_by_hand(region_file, "events:", "summary:");
    for (const auto& r : results) {
        EXPECT_EQ(r.status, BenchStatus::Ok) << r.error;
        EXPECT_EQ(r.tool, "cachegrind");
        ASSERT_TRUE(r.region);
        EXPECT_EQ(r.region->entries, 1u);
        EXPECT_EQ(r.events.get(metrics::Event::Ir), summary.at("Ir"));
        EXPECT_EQ(r.events.get(metrics::Event::DLmr), summary.at("DLmr"));
    }
    EXPECT_EQ(results[0].name, "workload/a");
    EXPECT_EQ(results[1].name, "workload/b");
}

// "inner" began inside "outer", the first region, so the first run only notes that regions
// nest: a run that instruments nothing (CGBENCH_REGION is a newline) logs every marker.
TEST(Measurer, CachegrindRegionsNestedInTheFirstGetAMarkerRun) {
    FakeRunner fake;
    fake.log_extra = [](int call) {
        if (call == 0) {
            return fmt::format(
                "**{0}** cgbench:begin:5:outer\n**{0}** cgbench:end:5:outer\n"
                "**{0}** cgbench:nested\n",
                kPid);
        }
        return call == 1 ? nested_markers() : std::string();
    };
    fake.profile = [](int) { return data_324("regions-inner.cachegrind.out"); };
    Measurer m(fake_valgrind("3.24.0"), MeasureSettings{}, fake, {});
    auto spec = workload_spec();
    spec.kind = MeasureKind::Regions;
    const auto results = m.measure_all(spec);
    ASSERT_EQ(fake.calls.size(), 3u);
    EXPECT_EQ(env_of(fake.calls[0], "CGBENCH_REGION"), "");
    EXPECT_EQ(env_of(fake.calls[1], "CGBENCH_REGION"), "\n");
    EXPECT_EQ(env_of(fake.calls[2], "CGBENCH_REGION"), "inner");
    ASSERT_EQ(results.size(), 2u);
    EXPECT_EQ(results[0].name, "workload/outer");
    EXPECT_EQ(results[1].name, "workload/inner");
}

TEST(Measurer, CachegrindRegionsThatDoNotNestFailNamingTheRegion) {
    FakeRunner fake;
    fake.log_extra = [](int call) {
        return call == 0 ? fmt::format(
                               "**{0}** cgbench:begin:1:a\n**{0}** cgbench:end:1:a\n"
                               "**{0}** cgbench:nested\n**{0}** cgbench:end:1:b\n",
                               kPid)
                         : fmt::format(
                               "**{0}** cgbench:begin:1:a\n**{0}** cgbench:begin:1:b\n"
                               "**{0}** cgbench:end:1:a\n**{0}** cgbench:end:1:b\n",
                               kPid);
    };
    fake.profile = [](int) { return data_324("regions-inner.cachegrind.out"); };
    Measurer m(fake_valgrind("3.24.0"), MeasureSettings{}, fake, {});
    auto spec = workload_spec();
    spec.kind = MeasureKind::Regions;
    const auto results = m.measure_all(spec);
    EXPECT_EQ(fake.calls.size(), 2u);  // the first run and the marker run: nothing more
    ASSERT_EQ(results.size(), 1u);
    EXPECT_EQ(results[0].name, "workload");
    EXPECT_EQ(results[0].status, BenchStatus::Failed);
    EXPECT_EQ(results[0].error,
              "ended region 'a' while 'b', begun inside it, was still open (regions must nest)");
}

// A program built against the older header writes no marker: Callgrind measures it, and
// the results say why.
TEST(Measurer, CachegrindRegionsWithoutMarkersFallBackToCallgrind) {
    FakeRunner fake;
    fake.profile = [](int) { return data_324("regions-inner.cachegrind.out"); };
    fake.callgrind_parts = "regions-nested.out";
    Measurer m(fake_valgrind("3.24.0"), MeasureSettings{}, fake, {});
    auto spec = workload_spec();
    spec.kind = MeasureKind::Regions;
    const auto results = m.measure_all(spec);
    ASSERT_EQ(fake.calls.size(), 2u);
    EXPECT_TRUE(has_arg(fake.calls[1], "--tool=callgrind"));
    ASSERT_EQ(results.size(), 2u);
    for (const auto& r : results) {
        EXPECT_EQ(r.tool, "callgrind");
        ASSERT_EQ(r.warnings.size(), 1u);
        EXPECT_NE(r.warnings[0].find("older"), std::string::npos) << r.warnings[0];
    }
}

TEST(Measurer, RegionToolChoice) {
    auto spec = workload_spec();
    spec.kind = MeasureKind::Regions;
    FakeRunner fake;
    fake.callgrind_parts = "regions-nested.out";
    MeasureSettings settings;
    settings.region_tool = valgrind::RegionTool::Callgrind;
    Measurer on_324(fake_valgrind("3.24.0"), settings, fake, {});
    on_324.measure_all(spec);
    EXPECT_TRUE(has_arg(fake.calls.at(0), "--tool=callgrind"));
    settings.region_tool = valgrind::RegionTool::Cachegrind;
    Measurer on_319(fake_valgrind("3.19.0"), settings, fake, {});
    try {
        on_319.measure_all(spec);
        FAIL() << "Cachegrind regions ran on Valgrind 3.19";
    } catch (const EnvironmentError& e) {
        EXPECT_EQ(std::string(e.what()),
                  "region tool cachegrind needs Valgrind 3.22 or later (this is 3.19.0)");
    }
}

}  // namespace cgbench::runner
