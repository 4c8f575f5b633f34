#include <gtest/gtest.h>

#include <fstream>

#include "base/errors.hpp"
#include "core/result_json.hpp"

namespace cgbench {

namespace {

RunResult sample_run() {
    RunResult run;
    run.id = "20261122T000000Z-0000abcd";
    run.started = "2026-11-22T00:00:00Z";
    run.git.commit = "0123456789abcdef0123456789abcdef01234567";
    run.git.branch = "main";
    run.git.dirty = false;
    run.fingerprint.cgbench_version = "0.1.0";
    run.fingerprint.valgrind_version = "3.19.0";
    run.fingerprint.geometry = valgrind::ci_default_geometry();
    run.fingerprint.weights = metrics::parse_weights("pythonspeed");
    run.fingerprint.cpu_baseline = "portable";
    run.fingerprint.selection.available = true;
    run.fingerprint.selection.id = "00000000deadbeef";
    BenchmarkResult b;
    b.name = "<img src=x onerror=alert(1)>|**x**";
    b.command = {"./prog", "arg with space"};
    for (const auto& e : metrics::kEvents) {
        if (e.source != metrics::EventSource::BranchSim) b.events.set(e.id, 10);
    }
    b.events.set(metrics::Event::Ir, 1000);
    b.derived = metrics::derive(b.events);
    b.weights = run.fingerprint.weights;
    b.cost = metrics::cost(b.events, b.weights);
    b.wall_seconds = 1.25;
    b.runs = 3;
    run.benchmarks.push_back(b);
    return run;
}

}  // namespace

TEST(ResultJson, ContractKeys) {
    const auto j = to_json(sample_run());
    EXPECT_EQ(j["schema"], "cgbench-result/1");
    for (const char* k : {"id", "started", "git", "fingerprint"})
        EXPECT_TRUE(j["run"].contains(k)) << k;
    for (const char* k : {"commit", "branch", "dirty"})
        EXPECT_TRUE(j["run"]["git"].contains(k)) << k;
    const auto& b = j["benchmarks"][0];
    for (const char* k : {"name", "command", "status", "exit_code", "events", "derived", "weights",
                          "cost", "wall_seconds"}) {
        EXPECT_TRUE(b.contains(k)) << k;
    }
    for (const char* k : {"Ir", "I1mr", "ILmr", "Dr", "D1mr", "DLmr", "Dw", "D1mw", "DLmw"}) {
        EXPECT_TRUE(b["events"].contains(k)) << k;
    }
    for (const char* k : {"l1_hits", "ll_hits", "ram_hits"})
        EXPECT_TRUE(b["derived"].contains(k));
    for (const char* k : {"l1", "ll", "ram"})
        EXPECT_TRUE(b["weights"].contains(k));
    EXPECT_EQ(b["status"], "ok");
    EXPECT_EQ(b["verify"]["runs"], 3);
    EXPECT_EQ(b["verify"]["identical"], true);
}

TEST(ResultJson, RoundTrip) {
    const RunResult run = sample_run();
    const auto back = run_from_json(nlohmann::json::parse(to_json(run).dump()), "test");
    EXPECT_EQ(back.id, run.id);
    EXPECT_EQ(back.git.commit, run.git.commit);
    EXPECT_EQ(back.fingerprint.comparison_key(), run.fingerprint.comparison_key());
    ASSERT_EQ(back.benchmarks.size(), 1u);
    const auto& b = back.benchmarks[0];
    EXPECT_EQ(b.name, run.benchmarks[0].name);
    EXPECT_EQ(b.command, run.benchmarks[0].command);
    EXPECT_EQ(b.events, run.benchmarks[0].events);
    EXPECT_EQ(b.derived, run.benchmarks[0].derived);
    EXPECT_EQ(b.cost, run.benchmarks[0].cost);
    EXPECT_EQ(b.weights, run.benchmarks[0].weights);
    EXPECT_EQ(b.runs, 3);
}

TEST(ResultJson, MispredictionWeightRoundTripsAndIsOmittedWithoutOne) {
    RunResult run = sample_run();
    EXPECT_FALSE(to_json(run)["benchmarks"][0]["weights"].contains("mispredict"));
    const auto key = run.fingerprint.comparison_key();
    auto& b = run.benchmarks[0];
    for (const auto e :
         {metrics::Event::Bc, metrics::Event::Bcm, metrics::Event::Bi, metrics::Event::Bim})
        b.events.set(e, 4);
    run.fingerprint.branch_sim = true;
    run.fingerprint.weights = metrics::with_branch_sim(run.fingerprint.weights, true);
    b.weights = run.fingerprint.weights;
    b.cost = metrics::cost(b.events, b.weights);
    const auto j = to_json(run);
    EXPECT_EQ(j["benchmarks"][0]["weights"]["mispredict"], b.weights.mispredict);
    EXPECT_EQ(j["run"]["fingerprint"]["weights"]["mispredict"], b.weights.mispredict);
    const auto back = run_from_json(nlohmann::json::parse(j.dump()), "test");
    EXPECT_EQ(back.benchmarks[0].weights, b.weights);
    EXPECT_EQ(back.benchmarks[0].cost, b.cost);
    EXPECT_EQ(back.fingerprint.comparison_key(), run.fingerprint.comparison_key());
    EXPECT_NE(run.fingerprint.comparison_key(), key);
}

TEST(ResultJson, SuiteFieldsRoundTripAndAreOmittedWhenUnset) {
    RunResult run = sample_run();
    EXPECT_FALSE(to_json(run)["benchmarks"][0].contains("threshold"));
    EXPECT_FALSE(to_json(run)["benchmarks"][0].contains("position"));
    EXPECT_FALSE(to_json(run)["run"].contains("shard"));
    run.shard = "2/3";
    run.benchmarks[0].threshold = "cost=2%|100000";
    run.benchmarks[0].position = 7;
    const auto j = to_json(run);
    EXPECT_EQ(j["run"]["shard"], "2/3");
    EXPECT_EQ(j["benchmarks"][0]["threshold"], "cost=2%|100000");
    EXPECT_EQ(j["benchmarks"][0]["position"], 7);
    const auto back = run_from_json(nlohmann::json::parse(j.dump()), "test");
    EXPECT_EQ(back.shard, "2/3");
    EXPECT_EQ(back.benchmarks[0].threshold, "cost=2%|100000");
    EXPECT_EQ(back.benchmarks[0].position, 7u);
}

TEST(ResultJson, TheCommitsFactsRoundTripAndAreOmittedWhenUnknown) {
    RunResult run = sample_run();
    const auto bare = to_json(run);
    for (const char* k :
         {"commit_time", "author_time", "parents", "subject", "first_parent_depth", "shallow"}) {
        EXPECT_FALSE(bare["run"]["git"].contains(k)) << k << ": unknown, so absent";
    }
    EXPECT_FALSE(bare["run"].contains("recorded_by"));
    run.git.commit_time = "2020-05-01T12:00:00+02:00";
    run.git.author_time = "2020-04-30T09:00:00-07:00";
    run.git.parents = {std::string(40, 'a'), std::string(40, 'b')};
    run.git.subject = "Merge pull request #1 from <x>";
    run.git.first_parent_depth = 3512;
    run.git.shallow = false;
    run.recorded_by = "backfill";
    const auto j = to_json(run);
    EXPECT_EQ(j["run"]["git"]["commit"], run.git.commit);  // the contract keys stay
    EXPECT_EQ(j["run"]["git"]["parents"].size(), 2u);
    EXPECT_EQ(j["run"]["git"]["first_parent_depth"], 3512);
    EXPECT_EQ(j["run"]["recorded_by"], "backfill");
    const auto back = run_from_json(nlohmann::json::parse(j.dump()), "test");
    EXPECT_EQ(to_json(back).dump(), j.dump());
    // A root commit read in a full clone: no parents, and the key says so.
    run.git.parents.clear();
    EXPECT_TRUE(to_json(run)["run"]["git"]["parents"].empty());
    EXPECT_TRUE(to_json(run)["run"]["git"].contains("parents"));
}

TEST(ResultJson, RegionsAndFunctionsRoundTrip) {
    RunResult run = sample_run();
    auto& b = run.benchmarks[0];
    b.region = RegionInfo{"parse/large", 3};
    b.functions = {FunctionResult{"a.c", "parse", b.events, b.cost},
                   FunctionResult{"", std::string(kOtherFunctions), {}, 0}};
    b.functions[1].events.set(metrics::Event::Ir, 0);
    const auto j = to_json(run);
    EXPECT_EQ(j["benchmarks"][0]["region"]["entries"], 3);
    EXPECT_EQ(j["benchmarks"][0]["functions"][0]["name"], "parse");
    EXPECT_EQ(j["benchmarks"][0]["functions"][0]["events"]["Ir"], 1000);
    const auto back = run_from_json(nlohmann::json::parse(j.dump()), "test");
    ASSERT_TRUE(back.benchmarks[0].region);
    EXPECT_EQ(back.benchmarks[0].region->name, "parse/large");
    EXPECT_EQ(back.benchmarks[0].region->entries, 3u);
    EXPECT_EQ(back.benchmarks[0].functions, b.functions);
    // Files written before functions were recorded have none.
    EXPECT_TRUE(run_from_json(nlohmann::json::parse(to_json(sample_run()).dump()), "old")
                    .benchmarks[0]
                    .functions.empty());
}

TEST(ResultJson, FingerprintDifferencesAreNamed) {
    Fingerprint a = sample_run().fingerprint;
    Fingerprint b = a;
    EXPECT_TRUE(a.differences(b).empty());
    b.geometry = valgrind::parse_geometry("LL=4194304,16,64");
    b.cpu_baseline = "native";
    const auto diffs = a.differences(b);
    ASSERT_EQ(diffs.size(), 2u);
    EXPECT_NE(diffs[0].find("geometry"), std::string::npos);
    EXPECT_NE(diffs[1].find("CPU baseline"), std::string::npos);
    EXPECT_NE(a.comparison_key(), b.comparison_key());
    b = a;
    b.env_block_bytes = 12345;  // informational only
    b.loader_cache = "0123456789abcdef";
    EXPECT_EQ(a.comparison_key(), b.comparison_key());
    EXPECT_TRUE(a.differences(b).empty());
}

TEST(ResultJson, LoaderCacheRoundTripsAndIsOmittedWhenUnknown) {
    RunResult run = sample_run();
    run.fingerprint.loader_cache = "";
    EXPECT_FALSE(to_json(run)["run"]["fingerprint"].contains("loader_cache"));
    run.fingerprint.loader_cache = "0123456789abcdef";
    const auto back = run_from_json(nlohmann::json(to_json(run)), "test");
    EXPECT_EQ(back.fingerprint.loader_cache, "0123456789abcdef");
}

TEST(ResultJson, InvalidDocumentsAreUsageErrors) {
    const auto bad = [](const std::string& text) {
        try {
            run_from_json(nlohmann::json::parse(text), "f.json");
        } catch (const UsageError& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    EXPECT_NE(bad("{}").find("no \"schema\""), std::string::npos);
    EXPECT_NE(bad(R"({"schema":"cgbench-result/9"})").find("this cgbench reads"),
              std::string::npos);
    auto j = nlohmann::json::parse(to_json(sample_run()).dump());
    j["benchmarks"][0]["events"]["Ir"] = -5;
    EXPECT_NE(bad(j.dump()).find("non-negative"), std::string::npos);
    j = nlohmann::json::parse(to_json(sample_run()).dump());
    j["benchmarks"][0]["events"]["Bogus"] = 1;
    EXPECT_NE(bad(j.dump()).find("unknown event"), std::string::npos);
    j = nlohmann::json::parse(to_json(sample_run()).dump());
    j["benchmarks"][0]["status"] = "maybe";
    EXPECT_NE(bad(j.dump()).find("status"), std::string::npos);
    j = nlohmann::json::parse(to_json(sample_run()).dump());
    j["benchmarks"][0]["functions"] = {{{"file", "a.c"}, {"name", "f"}, {"events", {{"Ir", 1}}}}};
    EXPECT_NE(bad(j.dump()).find("functions[0] has no \"cost\""), std::string::npos);

    const std::string path = ::testing::TempDir() + "/not-json.json";
    std::ofstream(path) << "{ truncated";
    EXPECT_THROW(load_result_file(path), UsageError);
    EXPECT_THROW(load_result_file("/nonexistent/result.json"), UsageError);
}

}  // namespace cgbench
