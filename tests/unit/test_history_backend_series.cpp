// Every history backend (SQLite, memory) hands out series as history policy reads them: runs
// oldest first with each distinct fingerprint once, each benchmark's last N results, one
// series at a time, and a step's stored result with its numbers and kept functions.

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "backend_fixtures.hpp"
#include "history/stored_runs.hpp"

namespace cgbench::history {

using namespace testing_fixtures;

template <typename B>
class HistorySeries : public HistoryBackendTest<B> {};
TYPED_TEST_SUITE(HistorySeries, Backends, BackendNames);

TYPED_TEST(HistorySeries, LoadHistoryReadsSeriesOldestFirst) {
    auto& store = this->backend();
    const std::vector<std::pair<std::string, std::uint64_t>> costs = {
        {"r1", 1000}, {"r2", 1100}, {"r3", 0}, {"r4", 990}};
    int hour = 4;
    for (const auto& [id, cost] : costs) {
        auto r = run(id, {cost == 0 ? failed_bench("x") : bench("x", 500, cost), bench("y", 10)});
        r.started = fmt::format("2026-11-22T0{}:00:00Z", hour--);  // recorded newest first
        record_run(store, r);
    }
    const auto h = store.load_history("x");
    ASSERT_EQ(h.runs.size(), 4u);
    EXPECT_EQ(h.runs[0].id, "r4") << "runs by start time, not by recording";
    ASSERT_EQ(h.series.size(), 1u);
    const auto& s = h.series[0].results;
    ASSERT_EQ(s.size(), 4u);
    EXPECT_EQ(h.run_of(s[0]).id, "r4");
    EXPECT_EQ(h.run_of(s[3]).id, "r1");
    EXPECT_EQ(s[1].status, BenchStatus::Failed);
    EXPECT_FALSE(s[1].cost.has_value());
    EXPECT_EQ(s[0].cost, 990u);
    EXPECT_EQ(s[0].ir, 500u);
    EXPECT_EQ(s[0].position, 0);
    const auto last = store.load_history("x", 2);
    ASSERT_EQ(last.series[0].results.size(), 2u);
    EXPECT_EQ(last.run_of(last.series[0].results[1]).id, "r1");
    EXPECT_TRUE(store.load_history("nope").series.empty());
    EXPECT_EQ(store.benchmark_names(), (std::vector<std::string>{"x", "y"}));
}

TYPED_TEST(HistorySeries, LoadHistoryByNameWithFingerprints) {
    auto& store = this->backend();
    const std::vector<std::pair<std::string, std::uint64_t>> costs = {
        {"r1", 1000}, {"r2", 1100}, {"r3", 1500}, {"r4", 1650}};
    int hour = 1;
    for (const auto& [id, cost] : costs) {
        auto r = run(id, {bench("x", 500, cost), bench("y/" + id, 10)});
        r.started = fmt::format("2026-11-22T0{}:00:00Z", hour++);
        if (id >= "r3") r.fingerprint.weights = metrics::parse_weights("kcachegrind");
        record_run(store, r);
    }
    const auto h = store.load_history([](std::string_view n) { return n != "y/r2"; }, 3);
    ASSERT_EQ(h.series.size(), 4u);
    EXPECT_EQ(h.series[0].name, "x");
    EXPECT_EQ(h.series[1].name, "y/r1");
    EXPECT_EQ(h.series[2].name, "y/r3");
    const auto& x = h.series[0].results;
    ASSERT_EQ(x.size(), 3u) << "the last 3";
    EXPECT_EQ(h.run_of(x[0]).id, "r2");
    EXPECT_EQ(h.run_of(x[2]).id, "r4");
    ASSERT_EQ(h.fingerprints.size(), 2u) << "each distinct fingerprint read once";
    EXPECT_NE(h.key_of(x[0].run), h.key_of(x[1].run));
    EXPECT_EQ(h.key_of(x[1].run), run_by_id(store, "r3")->fingerprint.comparison_key());
    EXPECT_EQ(h.fingerprint_of(x[1]).weights.name, "kcachegrind");
    EXPECT_TRUE(store.load_history([](std::string_view) { return false; }).series.empty());
}

TYPED_TEST(HistorySeries, ScanSeriesHandsEachSeriesAsLoadHistoryReadsIt) {
    int hour = 1;
    for (const std::string id : {"r1", "r2", "r3", "r4"}) {
        auto r = run(id, {bench("x", 500, static_cast<std::uint64_t>(1000 + hour)),
                          bench("y/" + id, 10), id == "r2" ? failed_bench("z") : bench("z", 7)});
        r.started = fmt::format("2026-11-22T0{}:00:00Z", hour++);
        record_run(this->backend(), r);
    }
    this->close();
    const auto store = this->reopen_to_read();  // as `steps` reads it
    ASSERT_NE(store, nullptr);
    const auto keep = [](std::string_view n) { return n != "y/r2"; };
    const auto whole = store->load_history(keep, 3);
    const auto h = store->load_runs();
    EXPECT_TRUE(h.series.empty());
    ASSERT_EQ(h.runs.size(), whole.runs.size());
    EXPECT_EQ(h.fingerprints.size(), whole.fingerprints.size());
    std::vector<Series> seen;
    store->scan_series(h, keep, 3, [&](const Series& s) { seen.push_back(s); });
    ASSERT_EQ(seen.size(), whole.series.size());
    ASSERT_EQ(seen.size(), 5u) << "x, y/r1, y/r3, y/r4, z";
    for (std::size_t i = 0; i < seen.size(); ++i) {
        EXPECT_EQ(seen[i].name, whole.series[i].name);
        ASSERT_EQ(seen[i].results.size(), whole.series[i].results.size()) << seen[i].name;
        for (std::size_t k = 0; k < seen[i].results.size(); ++k) {
            const auto& a = seen[i].results[k];
            const auto& b = whole.series[i].results[k];
            EXPECT_EQ(h.runs[a.run].id, whole.runs[b.run].id);
            EXPECT_EQ(a.position, b.position);
            EXPECT_EQ(a.status, b.status);
            EXPECT_EQ(a.cost, b.cost);
            EXPECT_EQ(a.ir, b.ir);
        }
    }
    EXPECT_EQ(seen[0].results.size(), 3u) << "x: its last 3";
    EXPECT_EQ(seen[4].results.at(0).status, BenchStatus::Failed) << "z in r2";
    EXPECT_FALSE(seen[4].results.at(0).cost.has_value());
    std::vector<std::string> one;
    store->scan_series(h, "z", SIZE_MAX, [&](const Series& s) {
        one.push_back(s.name);
        EXPECT_EQ(s.results.size(), 4u);
    });
    EXPECT_EQ(one, std::vector<std::string>{"z"});
    store->scan_series(h, "nope", SIZE_MAX, [&](const Series&) { ADD_FAILURE(); });
}

TYPED_TEST(HistorySeries, StoredResultForAStep) {
    auto& store = this->backend();
    auto r = run("r1", {bench("a", 1000), bench("b", 5000), failed_bench("c")});
    r.benchmarks[1].functions = {{"src/hot.c", "hot", {}, 3000}, {"", kHostile, {}, 20}};
    r.benchmarks[2].cost = 99;  // never shown for a failed result
    record_run(store, r);
    const auto h = store.load_history("b");
    const auto& p = h.series.at(0).results.at(0);
    const auto b = store.stored_result(h.run_of(p), p.position);
    ASSERT_TRUE(b.has_value());
    EXPECT_EQ(b->name, "b");
    EXPECT_EQ(b->events, r.benchmarks[1].events);
    EXPECT_EQ(b->derived, r.benchmarks[1].derived);
    EXPECT_EQ(b->cost, r.benchmarks[1].cost);
    EXPECT_EQ(b->functions, kept_functions(r.benchmarks[1].functions));
    EXPECT_FALSE(store.stored_result(h.run_of(p), 7).has_value());
    const auto reader = store.result_reader();
    const auto failed = reader->read(h.run_of(p), 2);
    ASSERT_TRUE(failed.has_value());
    EXPECT_EQ(failed->status, BenchStatus::Failed);
    EXPECT_EQ(failed->cost, 0u) << "a cost only when ok";
    EXPECT_EQ(reader->read(h.run_of(p), 0)->name, "a");
}

}  // namespace cgbench::history
