// The storage contract every history backend keeps, run against each (SQLite, memory): a run
// read back equals the run recorded, with its kept functions; batches store whole runs on
// commit; runs are found by their facts; series, names, stored results, removal and the
// costs for shard balancing.

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "backend_fixtures.hpp"
#include "base/errors.hpp"
#include "core/result_json.hpp"
#include "history/stored_runs.hpp"

namespace cgbench::history {

using namespace testing_fixtures;

template <typename B>
class HistoryBackends : public HistoryBackendTest<B> {};
TYPED_TEST_SUITE(HistoryBackends, Backends, BackendNames);

TYPED_TEST(HistoryBackends, ARunReadBackEqualsTheRunRecorded) {
    auto& store = this->backend();
    const auto recorded = rich_run("20261122T031500Z-00000001");
    record_run(store, recorded);
    const auto loaded = run_by_id(store, recorded.id);
    ASSERT_TRUE(loaded.has_value());
    expect_same_run(*loaded, recorded);
    EXPECT_EQ(loaded->benchmarks[1].name, kHostile);
    EXPECT_EQ(loaded->benchmarks[2].status, BenchStatus::Failed);
    EXPECT_FALSE(run_by_id(store, "no-such-run").has_value());
    EXPECT_EQ(store.run_count(), 1u);
}

TYPED_TEST(HistoryBackends, TheCommitsFactsAndWhatRecordedTheRunAreKept) {
    auto& store = this->backend();
    auto with = rich_run("20261122T031500Z-0000000a");
    auto& git = with.git;
    git.commit_time = "2020-05-01T12:00:00+02:00";
    git.author_time = "2020-04-30T09:30:00-07:00";
    git.parents = {std::string(40, '1'), std::string(40, '2')};
    git.subject = std::string("merge: ") + kHostile;
    git.first_parent_depth = 3512;
    git.shallow = false;
    with.recorded_by = "backfill";
    auto shallow = rich_run("20261122T031500Z-0000000b");
    shallow.git.commit = std::string(40, 'c');
    shallow.git.commit_time = "2020-05-02T00:00:00Z";
    shallow.git.author_time = "2020-05-02T00:00:00Z";
    shallow.git.subject = "";
    shallow.git.shallow = true;  // no place on the line, no parents (the clone's boundary)
    shallow.recorded_by = std::string(kRecordedByBisect);
    auto without = rich_run("20261122T031500Z-0000000c");  // an older cgbench's run
    for (const auto* r : {&with, &shallow, &without})
        record_run(store, *r);
    this->close();
    const auto read = this->reopen_to_read();
    for (const auto* r : {&with, &shallow, &without}) {
        const auto loaded = run_by_id(*read, r->id);
        ASSERT_TRUE(loaded.has_value());
        expect_same_run(*loaded, *r);
    }
    const auto h = read->load_runs();
    ASSERT_EQ(h.runs.size(), 3u);
    for (const auto& run : h.runs) {
        const RunResult& r = run.id == with.id ? with : run.id == shallow.id ? shallow : without;
        EXPECT_EQ(to_json(run.git).dump(), to_json(r.git).dump()) << run.id;
        EXPECT_EQ(run.recorded_by, r.recorded_by);
    }
    RunFilter f;
    f.id = with.id;
    const auto found = read->find_runs(f);
    ASSERT_EQ(found.size(), 1u);
    EXPECT_EQ(found[0].git.first_parent_depth, 3512u);
    EXPECT_EQ(found[0].git.parents, with.git.parents);
    EXPECT_EQ(found[0].recorded_by, "backfill");
    for (const auto& row : read->runs(10)) {
        const RunResult& r = row.id == with.id ? with : row.id == shallow.id ? shallow : without;
        EXPECT_EQ(row.git.subject, r.git.subject) << row.id;
        EXPECT_EQ(row.git.commit_time, r.git.commit_time);
        EXPECT_EQ(row.recorded_by, r.recorded_by);
    }
}

TYPED_TEST(HistoryBackends, KeepsTheCostliestFunctionsFolded) {
    auto& store = this->backend();
    auto r = rich_run("20261122T031500Z-00000002");
    auto& b = r.benchmarks[0];
    std::uint64_t total = 0;
    for (std::uint64_t i = 0; i < kStoredFunctions + 5; ++i) {
        metrics::EventCounts e;
        e.set(metrics::Event::Ir, 1000 - i);
        e.set(metrics::Event::D1mr, 3);
        b.functions.push_back({"f.c", "f" + std::to_string(i), e, 2000 - i});
        total += 2000 - i;
    }
    record_run(store, r);
    const auto loaded = run_by_id(store, r.id)->benchmarks[0].functions;
    ASSERT_EQ(loaded.size(), kStoredFunctions + 1);
    EXPECT_EQ(loaded[0].name, "f0");
    EXPECT_EQ(loaded[0].cost, 2000u);
    EXPECT_EQ(loaded[0].events.get(metrics::Event::Ir), 1000u);
    EXPECT_FALSE(loaded[0].events.has(metrics::Event::D1mr)) << "cost and Ir only";
    EXPECT_EQ(loaded.back().name, kOtherFunctions);
    std::uint64_t sum = 0;
    for (const auto& f : loaded)
        sum += f.cost;
    EXPECT_EQ(sum, total) << "the folded costs add up to the same total";
}

TYPED_TEST(HistoryBackends, FunctionNamesThatAreNotUtf8AreStoredWithReplacements) {
    auto& store = this->backend();
    auto r = run("run-u", {bench("x", 1000)});
    r.benchmarks[0].functions = stored_functions({"bad\xff\xfename", "caf\xc3\xa9"}, 900);
    r.benchmarks[0].functions[0].file = "dir\x80/f.c";
    record_run(store, r);
    const auto f = run_by_id(store, "run-u")->benchmarks[0].functions;
    ASSERT_EQ(f.size(), 3u);
    EXPECT_EQ(f[0].name, "bad\xef\xbf\xbd\xef\xbf\xbdname");
    EXPECT_EQ(f[0].file, "dir\xef\xbf\xbd/f.c");
    EXPECT_EQ(f[1].name, "caf\xc3\xa9");
}

namespace {

// `n` lines of `file`, costliest first, every third without text, with a cache event too.
std::vector<LineResult> some_lines(const std::string& file, std::size_t n) {
    std::vector<LineResult> out;
    for (std::size_t i = 0; i < n; ++i) {
        LineResult l{file,
                     i % 2 ? "parse" : kHostile,
                     static_cast<std::uint32_t>(10 + i),
                     i % 3 ? fmt::format("x += \"{}\" \\ caf\xc3\xa9;", i) : std::string(),
                     {},
                     5000 - i};
        l.events.set(metrics::Event::Ir, 4000 - i);
        l.events.set(metrics::Event::D1mr, 2);
        out.push_back(std::move(l));
    }
    return out;
}

}  // namespace

TYPED_TEST(HistoryBackends, KeepsTheCostliestLinesWithTheirTexts) {
    auto& store = this->backend();
    auto r = rich_run("20261122T031500Z-00000003");
    r.benchmarks[0].lines = some_lines("src/p.c", kStoredLines + 4);
    r.benchmarks[1].lines = some_lines("src/p.c", 3);  // the same names and texts again
    r.benchmarks[1].lines[1].file = "dir\x80/q.c";
    r.benchmarks[1].lines[1].text = "bad\xff";
    auto second = run("20261122T031500Z-00000004", {bench("z", 7)});
    second.benchmarks[0].lines = some_lines("src/p.c", 2);
    record_run(store, r);
    record_run(store, second);
    this->close();
    const auto read = this->reopen_to_read();
    const auto loaded = run_by_id(*read, r.id);
    ASSERT_TRUE(loaded.has_value());
    const auto& lines = loaded->benchmarks[0].lines;
    ASSERT_EQ(lines.size(), kStoredLines);
    EXPECT_EQ(lines, kept_lines(r.benchmarks[0].lines));
    EXPECT_TRUE(lines[0].text.empty());
    EXPECT_EQ(lines[1].text, "x += \"1\" \\ caf\xc3\xa9;");
    EXPECT_EQ(lines[2].function, kHostile);
    EXPECT_FALSE(lines[1].events.has(metrics::Event::D1mr)) << "cost and Ir only";
    const auto& other = loaded->benchmarks[1].lines;
    ASSERT_EQ(other.size(), 3u);
    EXPECT_EQ(other[1].file, "dir\xef\xbf\xbd/q.c");
    EXPECT_EQ(other[1].text, "bad\xef\xbf\xbd");
    EXPECT_TRUE(loaded->benchmarks[2].lines.empty());
    EXPECT_EQ(run_by_id(*read, second.id)->benchmarks[0].lines,
              kept_lines(second.benchmarks[0].lines));
    // Read one result only: the lines go to that result.
    const auto only = read->load_run(
        read->find_runs({.id = r.id})[0].handle, [](std::string_view n) { return n == kHostile; },
        SourceLines::Read);
    ASSERT_EQ(only->benchmarks.size(), 1u);
    EXPECT_EQ(only->benchmarks[0].lines, other);
}

TYPED_TEST(HistoryBackends, ARunReadWithoutLinesOrFunctionsIsTheSameRunWithoutThem) {
    auto& store = this->backend();
    auto r = rich_run("20261122T031500Z-00000005");
    r.benchmarks[0].lines = some_lines("src/p.c", 4);
    r.benchmarks[1].lines = some_lines("src/q.c", 2);
    r.benchmarks[1].functions = stored_functions({"parse", kHostile}, 900);
    record_run(store, r);
    this->close();
    const auto read = this->reopen_to_read();
    auto with = run_by_id(*read, r.id, SourceLines::Read);
    const auto without = run_by_id(*read, r.id, SourceLines::Skip);
    ASSERT_TRUE(with.has_value());
    ASSERT_TRUE(without.has_value());
    ASSERT_EQ(with->benchmarks[0].lines.size(), 4u) << "the lines are stored";
    ASSERT_EQ(without->benchmarks.size(), r.benchmarks.size());
    for (const auto& b : without->benchmarks)
        EXPECT_TRUE(b.lines.empty()) << b.name;
    drop_unread(with->benchmarks, SourceLines::Skip);
    expect_same_run(*without, *with);
    // Some results only, as completing a run from its commit reads them.
    const auto handle = read->find_runs({.id = r.id})[0].handle;
    const auto hostile = [](std::string_view n) { return n == kHostile; };
    const auto one = read->load_run(handle, hostile, SourceLines::Skip);
    ASSERT_EQ(one->benchmarks.size(), 1u);
    EXPECT_EQ(one->benchmarks[0].name, kHostile);
    EXPECT_TRUE(one->benchmarks[0].lines.empty());
    ASSERT_FALSE(with->benchmarks[1].functions.empty()) << "the functions are stored";
    EXPECT_EQ(one->benchmarks[0].functions, with->benchmarks[1].functions);
    // Without functions either (what `compare` reads), then one result's functions alone
    // (what it reads for a benchmark it gates).
    const RunParts numbers{SourceLines::Skip, KeptFunctions::Skip};
    const auto bare = read->load_run(handle, {}, numbers);
    ASSERT_TRUE(bare.has_value());
    ASSERT_EQ(bare->benchmarks.size(), r.benchmarks.size());
    for (const auto& b : bare->benchmarks)
        EXPECT_TRUE(b.functions.empty() && b.lines.empty()) << b.name;
    auto stripped = *with;
    drop_unread(stripped.benchmarks, numbers);
    expect_same_run(*bare, stripped);
    const auto functions_only =
        read->load_run(handle, hostile, {SourceLines::Skip, KeptFunctions::Read});
    ASSERT_EQ(functions_only->benchmarks.size(), 1u);
    EXPECT_EQ(functions_only->benchmarks[0].functions, with->benchmarks[1].functions);
}

TYPED_TEST(HistoryBackends, BatchesStoreWholeRunsOnCommitAndEachIdOnce) {
    auto& store = this->backend();
    record_run(store, rich_run("run-1"));
    EXPECT_THROW(record_run(store, rich_run("run-1")), EnvironmentError) << "the same id twice";
    {
        auto batch = store.begin_batch();
        EXPECT_FALSE(batch->add(run("run-2", {bench("a", 1), bench("b", 2)})));
        const auto stored = batch->add(run("run-1", {bench("a", 1)}));
        ASSERT_TRUE(stored.has_value()) << "stored already: nothing written";
        EXPECT_EQ(stored->benchmarks, 3u);
        EXPECT_EQ(batch->find("run-2")->benchmarks, 2u) << "added to this batch";
        EXPECT_EQ(batch->runs(), 1u);
        EXPECT_EQ(batch->results(), 2u);
        // Destroyed without commit(), as on Ctrl-C.
    }
    EXPECT_EQ(store.run_count(), 1u);
    EXPECT_FALSE(run_by_id(store, "run-2").has_value());
    auto batch = store.begin_batch();
    batch->add(run("run-2", {bench("a", 1), bench("b", 2)}));
    batch->add(run("run-3", {bench("a", 1)}));
    batch->commit();
    EXPECT_EQ(store.run_count(), 3u);
    EXPECT_EQ(store.benchmark_names(),
              (std::vector<std::string>{kHostile, "a", "b", "broken", "parse/small"}));
}

TYPED_TEST(HistoryBackends, RunsAreFoundByTheirFactsNewestFirst) {
    auto& store = this->backend();
    auto a = run_at("a", {bench("x", 1000), bench("y", 10)}, "2026-11-22T01:00:00Z");
    auto b = run_at("b", {bench("x", 1100)}, "2026-11-22T03:00:00Z");
    b.git.dirty = true;
    auto c = run_at("c", {bench("x", 1200)}, "2026-11-22T02:00:00Z");
    c.git.branch = "feature";
    c.fingerprint.weights = metrics::parse_weights("kcachegrind");
    auto d = run_at("d", {bench("x", 1300)}, "2026-11-22T03:00:00Z");  // b's time, later
    d.git.commit = "ffff";
    for (const auto& r : {a, b, c, d})
        record_run(store, r);
    const auto ids = [&store](const RunFilter& f) {
        std::vector<std::string> out;
        for (const auto& r : store.find_runs(f))
            out.push_back(r.id);
        return out;
    };
    using Ids = std::vector<std::string>;
    EXPECT_EQ(ids({}), (Ids{"d", "b", "c", "a"})) << "by start time, then recording";
    EXPECT_EQ(ids({.commit = a.git.commit}), (Ids{"b", "c", "a"}));
    RunFilter clean;
    clean.commit = a.git.commit;
    clean.clean_only = true;
    clean.limit = 1;
    EXPECT_EQ(ids(clean), (Ids{"c"}));
    RunFilter on_main;
    on_main.branch = "main";
    on_main.fingerprint_key = a.fingerprint.comparison_key();
    EXPECT_EQ(ids(on_main), (Ids{"d", "b", "a"}));
    EXPECT_EQ(ids({.id = "c"}), (Ids{"c"}));
    const auto found = store.find_runs({.id = "a"});
    ASSERT_EQ(found.size(), 1u);
    EXPECT_EQ(found[0].fingerprint_key, a.fingerprint.comparison_key());
    EXPECT_EQ(found[0].git.commit, a.git.commit);
    const auto only_y = store.load_run(
        found[0].handle, [](std::string_view n) { return n == "y"; }, SourceLines::Read);
    ASSERT_TRUE(only_y.has_value());
    ASSERT_EQ(only_y->benchmarks.size(), 1u);
    EXPECT_EQ(only_y->benchmarks[0].name, "y");
    const auto rows = store.runs(2);
    ASSERT_EQ(rows.size(), 2u);
    EXPECT_EQ(rows[0].id, "d");
    EXPECT_EQ(rows[1].id, "b");
    EXPECT_EQ(rows[1].git.dirty, true);
    EXPECT_EQ(rows[0].benchmarks, 1u);
    EXPECT_EQ(store.runs(10).back().benchmarks, 2u);
}

TYPED_TEST(HistoryBackends, RemoveRunsTakesOutTheirResultsAndFunctions) {
    auto& store = this->backend();
    auto a = run_at("a", {bench("x", 1000), bench("y", 10)}, "2026-11-22T01:00:00Z");
    a.benchmarks[0].functions = stored_functions({"only-in-a", "other"}, 600);
    auto b = run_at("b", {bench("x", 1100)}, "2026-11-22T02:00:00Z");
    b.benchmarks[0].functions = stored_functions({"other"}, 700);
    for (const auto& r : {a, b})
        record_run(store, r);
    const auto h = store.load_runs();
    ASSERT_EQ(h.runs.size(), 2u);
    const auto removed = store.remove_runs({h.runs[0]});
    EXPECT_EQ(removed.runs, 1u);
    EXPECT_EQ(removed.results, 2u);
    EXPECT_EQ(removed.functions, a.benchmarks[0].functions.size());
    EXPECT_EQ(store.run_count(), 1u);
    EXPECT_FALSE(run_by_id(store, "a").has_value());
    EXPECT_EQ(run_by_id(store, "b")->benchmarks[0].functions, b.benchmarks[0].functions);
    EXPECT_EQ(store.benchmark_names(), std::vector<std::string>{"x"});
    EXPECT_EQ(store.remove_runs({h.runs[0]}).runs, 0u) << "removed already";
}

TYPED_TEST(HistoryBackends, LatestCostsComeFromTheNewestCompleteRun) {
    auto& store = this->backend();
    EXPECT_FALSE(latest_costs(store, {"a", "b"}).has_value());
    record_run(store, run_at("full-1", {bench("a", 100), bench("b", 200), bench("c", 5)},
                             "2026-11-22T01:00:00Z"));
    const auto full2 =
        run_at("full-2", {bench("a", 110), failed_bench("b")}, "2026-11-22T02:00:00Z");
    record_run(store, full2);
    // A shard run is newer but measured part of a split: never a source of costs.
    auto shard = run_at("shard", {bench("a", 999)}, "2026-11-22T03:00:00Z");
    shard.shard = "1/2";
    shard.shard_balance = "names";
    record_run(store, shard);
    const auto costs = latest_costs(store, {"a", "b"});
    ASSERT_TRUE(costs.has_value());
    EXPECT_EQ(costs->run_id, "full-2");
    // b failed there, so only a's cost from that run.
    EXPECT_EQ(costs->costs,
              (std::map<std::string, std::uint64_t>{{"a", full2.benchmarks[0].cost}}));
    EXPECT_EQ(latest_costs(store, {"c"})->run_id, "full-1");
    const auto loaded = run_by_id(store, "shard");
    ASSERT_TRUE(loaded.has_value());
    EXPECT_EQ(loaded->shard, "1/2");
    EXPECT_EQ(loaded->shard_balance, "names");
}

}  // namespace cgbench::history
