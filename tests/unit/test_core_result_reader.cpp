// The fast reader of stored benchmark documents must read exactly what the result file's
// reader reads, and decline everything else.

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "core/result_reader.hpp"
#include "run_fixtures.hpp"

namespace cgbench {

using namespace testing_fixtures;

namespace {

// What core/result_json reads from the same document.
BenchmarkResult dom_read(const nlohmann::ordered_json& bench) {
    auto doc = to_json(run("id", {}));
    doc["benchmarks"].push_back(bench);
    return run_from_json(nlohmann::json(doc), "test").benchmarks.at(0);
}

void expect_same(const BenchmarkResult& a, const BenchmarkResult& b) {
    EXPECT_EQ(to_json(a).dump(), to_json(b).dump());
    EXPECT_EQ(a.derived, b.derived);
}

std::vector<BenchmarkResult> every_shape() {
    auto plain = bench("parse/small", 100000);
    auto hostile = bench(kHostile + " \"quoted\" \\ back\ttab é ✓ \x1b[31m", 5000);
    hostile.command = {"/bin/prog", "--flag=\"x\"", ""};
    hostile.warnings = {"first", "second\nline"};
    hostile.raw_file = "/tmp/raw.out";
    auto verified = bench("verified", 20000);
    verified.runs = 4;
    verified.spread = {{metrics::Event::Ir, 100, 120}, {metrics::Event::D1mr, 7, 9}};
    auto failed = failed_bench("broken");
    failed.stderr_tail = "line 1\nline 2 \x01 <tag>";
    auto signalled = failed_bench("crash");
    signalled.exit_code.reset();
    signalled.signal = 11;
    auto ir_only = bench("ir-only", 777);
    ir_only.events = {};
    ir_only.events.set(metrics::Event::Ir, 777);
    ir_only.derived.reset();
    ir_only.weights = metrics::parse_weights("ir");
    ir_only.cost = 777;
    ir_only.tool = "callgrind";
    auto custom = bench("custom", 3000);
    custom.weights = metrics::parse_weights("1,6,80");
    custom.wall_seconds = 12;
    auto suite = bench("suite/entry", 4000);
    suite.threshold = "cost=2%|100000";
    suite.position = 12;
    auto region = bench("prog/sort", 90000);
    region.tool = "callgrind";
    region.region = RegionInfo{"sort", 3};
    region.functions = {FunctionResult{"a.c", "qsort \"x\"", region.events, 80000},
                        FunctionResult{"", std::string(kOtherFunctions), {}, 10000}};
    region.functions[1].events.set(metrics::Event::Ir, 5);
    auto branchy = bench("branchy", 6000);
    for (const auto e :
         {metrics::Event::Bc, metrics::Event::Bcm, metrics::Event::Bi, metrics::Event::Bim})
        branchy.events.set(e, 50);
    branchy.weights = metrics::with_branch_sim(metrics::parse_weights("pythonspeed"), true);
    branchy.cost = metrics::cost(branchy.events, branchy.weights);
    return {plain, hostile, verified, failed, signalled, ir_only, custom, suite, region, branchy};
}

}  // namespace

TEST(ResultReader, ReadsEveryShapeExactlyLikeTheResultFileReader) {
    for (const auto& b : every_shape()) {
        const auto j = to_json(b);
        for (const int indent : {-1, 2}) {
            const auto fast = read_known_benchmark(j.dump(indent));
            ASSERT_TRUE(fast.has_value()) << j.dump();
            expect_same(*fast, dom_read(j));
            if (b.spread.empty()) expect_same(*fast, b);  // the DOM reader sorts spreads
        }
    }
}

TEST(ResultReader, DeclinesWhatItDoesNotKnow) {
    const auto base = to_json(bench("x", 1000));
    const auto declined = [&](const std::function<void(nlohmann::ordered_json&)>& edit) {
        auto j = base;
        edit(j);
        return !read_known_benchmark(j.dump()).has_value();
    };
    EXPECT_TRUE(declined([](auto& j) { j["added_later"] = 1; })) << "a new field";
    EXPECT_TRUE(declined([](auto& j) { j["functions"] = {{"main", 12}}; })) << "another shape";
    EXPECT_TRUE(declined([](auto& j) { j["region"] = {{"entries", 1}, {"name", "r"}}; }));
    EXPECT_TRUE(declined([](auto& j) { j["events"]["Xyz"] = 1; }));
    EXPECT_TRUE(declined([](auto& j) { j["cost"] = -1; }));
    EXPECT_TRUE(declined([](auto& j) { j["cost"] = 1.5; }));
    EXPECT_TRUE(declined([](auto& j) { j["status"] = "weird"; }));
    EXPECT_TRUE(declined([](auto& j) { j.erase("weights"); }));
    EXPECT_TRUE(declined([](auto& j) { j["weights"].erase("ram"); }));
    EXPECT_TRUE(declined([](auto& j) { j["command"] = {1, 2}; }));
    EXPECT_TRUE(declined([](auto& j) { j["events"]["DLmr"] = 999999999; })) << "inconsistent";
    EXPECT_FALSE(read_known_benchmark("").has_value());
    EXPECT_FALSE(read_known_benchmark("{").has_value());
    EXPECT_FALSE(read_known_benchmark(base.dump() + "x").has_value());
    EXPECT_FALSE(read_known_benchmark("[1]").has_value());
    std::string surrogate = base.dump();
    surrogate.replace(surrogate.find("\"x\""), 3, "\"\\ud83d\\ude00\"");
    EXPECT_FALSE(read_known_benchmark(surrogate).has_value()) << "left to nlohmann";
    std::string leading_zero = base.dump();
    leading_zero.replace(leading_zero.find("\"exit_code\":0"), 13, "\"exit_code\":00");
    EXPECT_FALSE(read_known_benchmark(leading_zero).has_value());
}

}  // namespace cgbench

namespace cgbench {

TEST(ResultReader, ReadsAFunctionsArrayInAnyKeyOrderLikeTheResultFileReader) {
    auto b = bench("f", 100);
    b.functions = stored_functions({"main", "q\"\\x"}, 90);
    const auto array = to_json(b)["functions"];
    const auto written = dump_json(array, -1);
    const auto dom = functions_from_json(nlohmann::json::parse(written), "test");
    ASSERT_EQ(dom, b.functions);
    EXPECT_EQ(read_known_functions(written), dom);
    // PostgreSQL's jsonb writes keys shortest first, with spaces.
    const auto jsonb = nlohmann::json::parse(written).dump(1);
    ASSERT_NE(jsonb.find("\"cost\""), std::string::npos);
    EXPECT_EQ(read_known_functions(jsonb), dom) << jsonb;
    EXPECT_EQ(read_known_functions("[]"), std::vector<FunctionResult>{});
    // What the result file reader would refuse or read otherwise, this one declines.
    for (const std::string bad :
         {R"([{"file":"a","name":"b","events":{"Ir":1}}])",                         // no cost
          R"([{"file":"a","name":"b","events":{"Ir":1},"cost":1,"cost":2}])",       // twice
          R"([{"file":"a","name":"b","events":{"Ir":1},"cost":1,"inline":true}])",  // unknown
          R"([{"file":"a","name":"b","events":{"Ir":1},"cost":1}] x)", "{}", ""}) {
        EXPECT_FALSE(read_known_functions(bad).has_value()) << bad;
    }
}

}  // namespace cgbench
