// The history store: a run read back equals the run recorded; one transaction per run; the
// queries compare and history rely on; concurrent writers lose nothing.

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/errors.hpp"
#include "run_fixtures.hpp"
#include "store/history_store.hpp"
#include "store/sqlite.hpp"

namespace cgbench::store {

using namespace testing_fixtures;

namespace {

RunResult rich_run(std::string id) {
    auto r = run(std::move(id),
                 {bench("parse/small", 100000), bench(kHostile, 200000), failed_bench("broken")});
    r.warnings = {"ASLR could not be disabled"};
    r.benchmarks[0].warnings = {"a per-benchmark warning"};
    r.benchmarks[1].runs = 3;
    r.fingerprint.valgrind_options = {"--fair-sched=yes"};
    return r;
}

// What fold_functions stores: `names` costliest first (cost and Ir), then "(other)".
std::vector<FunctionResult> stored_functions(const std::vector<std::string>& names,
                                             std::uint64_t base) {
    std::vector<FunctionResult> out;
    for (std::size_t i = 0; i < names.size(); ++i) {
        metrics::EventCounts e;
        e.set(metrics::Event::Ir, base - i * 10);
        out.push_back({"src/" + names[i] + ".c", names[i], e, 2 * (base - i * 10)});
    }
    metrics::EventCounts other;
    other.set(metrics::Event::Ir, 7);
    out.push_back({"", std::string(kOtherFunctions), other, 11});
    return out;
}

// A run whose results carry functions with hostile names, shared between its results.
RunResult run_with_functions(std::string id, std::uint64_t base) {
    auto r = rich_run(std::move(id));
    r.benchmarks[0].functions = stored_functions({"main", kHostile, "parse"}, base);
    r.benchmarks[1].functions = stored_functions({kHostile, "main"}, base + 1000);
    r.benchmarks[1].functions[1].events = {};  // a function without Ir reads back without it
    return r;
}

std::int64_t count(const std::filesystem::path& db, std::string_view sql) {
    Database d(db, Database::Mode::Existing);
    return d.query_int(sql);
}

}  // namespace

TEST(HistoryStore, ARunReadBackEqualsTheRunRecorded) {
    const auto dir = fresh_dir("cgbench-store-roundtrip");
    auto store = HistoryStore::open_for_recording(dir / "sub" / "history.db");
    const auto recorded = rich_run("20261122T031500Z-00000001");
    store.record_run(recorded);
    const auto loaded = store.run_by_id(recorded.id);
    ASSERT_TRUE(loaded.has_value());
    expect_same_run(*loaded, recorded);
    EXPECT_EQ(loaded->benchmarks[1].name, kHostile);
    EXPECT_EQ(loaded->benchmarks[2].status, BenchStatus::Failed);
    EXPECT_FALSE(store.run_by_id("no-such-run").has_value());
}

TEST(HistoryStore, KeepsTheCostliestFunctionsFolded) {
    const auto dir = fresh_dir("cgbench-store-functions");
    auto store = HistoryStore::open_for_recording(dir / "history.db");
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
    store.record_run(r);
    const auto loaded = store.run_by_id(r.id)->benchmarks[0].functions;
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

TEST(HistoryStore, FunctionsRoundTripOutsideTheDocument) {
    const auto path = fresh_dir("cgbench-store-function-table") / "history.db";
    auto store = HistoryStore::open_for_recording(path);
    const auto recorded = run_with_functions("run-f", 5000);
    store.record_run(recorded);
    const auto loaded = store.run_by_id("run-f");
    ASSERT_TRUE(loaded.has_value());
    expect_same_run(*loaded, recorded);
    EXPECT_EQ(loaded->benchmarks[0].functions, recorded.benchmarks[0].functions);
    EXPECT_EQ(loaded->benchmarks[1].functions[0].name, kHostile);
    EXPECT_FALSE(loaded->benchmarks[1].functions[1].events.has(metrics::Event::Ir));
    EXPECT_TRUE(loaded->benchmarks[2].functions.empty());
    EXPECT_EQ(count(path, "SELECT COUNT(*) FROM result_functions"), 4 + 3);
    EXPECT_EQ(count(path, "SELECT COUNT(*) FROM results WHERE instr(data, 'functions') > 0"), 0)
        << "the documents no longer carry the functions";
}

TEST(HistoryStore, SymbolsAreStoredOnce) {
    const auto path = fresh_dir("cgbench-store-symbols") / "history.db";
    auto store = HistoryStore::open_for_recording(path);
    store.record_run(run_with_functions("run-1", 5000));
    store.record_run(run_with_functions("run-2", 6000));
    // main, the hostile name, parse and "(other)": the second result and the second run
    // add none.
    const auto symbols = count(path, "SELECT COUNT(*) FROM symbols");
    EXPECT_EQ(symbols, 4);
    EXPECT_EQ(count(path, "SELECT COUNT(DISTINCT symbol) FROM result_functions"), symbols);
    EXPECT_EQ(count(path, "SELECT COUNT(*) FROM result_functions"), 2 * 7);
    EXPECT_EQ(store.run_by_id("run-2")->benchmarks[1].functions[0].cost, 2 * 7000u);
}

TEST(HistoryStore, FunctionNamesThatAreNotUtf8AreStoredWithReplacements) {
    const auto path = fresh_dir("cgbench-store-function-utf8") / "history.db";
    auto store = HistoryStore::open_for_recording(path);
    auto r = run("run-u", {bench("x", 1000)});
    r.benchmarks[0].functions = stored_functions({"bad\xff\xfename", "caf\xc3\xa9"}, 900);
    r.benchmarks[0].functions[0].file = "dir\x80/f.c";
    store.record_run(r);
    const auto f = store.run_by_id("run-u")->benchmarks[0].functions;
    ASSERT_EQ(f.size(), 3u);
    EXPECT_EQ(f[0].name, "bad\xef\xbf\xbd\xef\xbf\xbdname");
    EXPECT_EQ(f[0].file, "dir\xef\xbf\xbd/f.c");
    EXPECT_EQ(f[1].name, "caf\xc3\xa9");
}

TEST(HistoryStore, RecordingIsAllOrNothing) {
    const auto path = fresh_dir("cgbench-store-atomic") / "history.db";
    auto store = HistoryStore::open_for_recording(path);
    store.record_run(rich_run("run-1"));
    {
        // Make the third result of the next run fail, after its run row and two results.
        Database db(path, Database::Mode::Existing);
        db.exec(
            "CREATE TRIGGER poison BEFORE INSERT ON results WHEN NEW.name = 'poison' "
            "BEGIN SELECT RAISE(ABORT, 'poisoned'); END");
    }
    auto r = run("run-2", {bench("parse/small", 1), bench("other", 2), bench("poison", 3)});
    EXPECT_THROW(store.record_run(r), EnvironmentError);
    EXPECT_EQ(store.run_count(), 1u);
    EXPECT_EQ(store.load_history("parse/small").series.at(0).results.size(), 1u);
    EXPECT_TRUE(store.load_history("other").series.empty());
    // The same id twice is refused too, and changes nothing.
    EXPECT_THROW(store.record_run(rich_run("run-1")), EnvironmentError);
    EXPECT_EQ(store.run_count(), 1u);
}

TEST(HistoryStore, LatestRunsAndRunsAtACommit) {
    auto store = HistoryStore::open_for_recording(fresh_dir("cgbench-store-latest") / "h.db");
    const auto a = run_at("a", {bench("x", 1000)}, "2026-11-22T01:00:00Z");
    auto b = run_at("b", {bench("x", 1100)}, "2026-11-22T02:00:00Z");
    b.git.dirty = true;
    auto c = run_at("c", {bench("x", 1200)}, "2026-11-22T03:00:00Z");
    c.git.commit = "ffff";
    for (const auto& r : {a, b, c})
        store.record_run(r);

    EXPECT_EQ(store.latest_run()->id, "c");
    EXPECT_EQ(store.latest_run("c")->id, "b");
    // b is newer at that commit, but dirty: a clean run wins.
    EXPECT_EQ(store.latest_run_at_commit(*a.git.commit)->id, "a");
    EXPECT_EQ(store.latest_run_at_commit(*a.git.commit, {"a"})->id, "b");
    EXPECT_FALSE(store.latest_run_at_commit("0000").has_value());
    const auto rows = store.runs(2);
    ASSERT_EQ(rows.size(), 2u);
    EXPECT_EQ(rows[0].id, "c");
    EXPECT_EQ(rows[1].id, "b");
    EXPECT_EQ(rows[1].git.dirty, true);
    EXPECT_EQ(rows[0].benchmarks, 1u);
}

TEST(HistoryStore, ARunIsCompletedFromItsCommit) {
    // One `cgbench run` per benchmark: x, then y, at the same commit; a dirty run and a run
    // with other weights at that commit must not mix in.
    auto store = HistoryStore::open_for_recording(fresh_dir("cgbench-store-complete") / "h.db");
    auto x = run_at("x-run", {bench("x", 1000)}, "2026-11-22T01:00:00Z");
    x.benchmarks[0].functions = stored_functions({"decode", kHostile}, 600);
    const auto y = run_at("y-run", {bench("y", 2000)}, "2026-11-22T02:00:00Z");
    auto dirty = run("dirty-run", {bench("z", 3000)});
    dirty.git.dirty = true;
    auto other = run("other-run", {bench("w", 4000)});
    other.fingerprint.weights = metrics::parse_weights("kcachegrind");
    for (const auto& r : {x, y, dirty, other})
        store.record_run(r);

    std::vector<std::string> used;
    const auto all = store.complete_from_commit(*store.run_by_id("y-run"), {}, used);
    ASSERT_EQ(all.benchmarks.size(), 2u);
    EXPECT_EQ(all.benchmarks[0].name, "y");
    EXPECT_EQ(all.benchmarks[1].name, "x");
    EXPECT_EQ(all.benchmarks[1].functions, x.benchmarks[0].functions);
    EXPECT_EQ(all.id, "y-run");
    EXPECT_EQ(used, (std::vector<std::string>{"y-run", "x-run"}));
    expect_same_run(run("y-run", {}), [&] {
        auto bare = all;
        bare.started = "2026-11-22T03:15:00Z";
        bare.benchmarks.clear();
        return bare;
    }());

    used.clear();
    const auto alone = store.complete_from_commit(*store.run_by_id("y-run"), {"x-run"}, used);
    EXPECT_EQ(alone.benchmarks.size(), 1u);
    EXPECT_EQ(used, (std::vector<std::string>{"y-run"}));
}

TEST(HistoryStore, LoadHistoryReadsSeriesOldestFirst) {
    auto store = HistoryStore::open_for_recording(fresh_dir("cgbench-store-series") / "h.db");
    const std::vector<std::pair<std::string, std::uint64_t>> costs = {
        {"r1", 1000}, {"r2", 1100}, {"r3", 0}, {"r4", 990}};
    int hour = 4;
    for (const auto& [id, cost] : costs) {
        auto r = run(id, {cost == 0 ? failed_bench("x") : bench("x", 500, cost), bench("y", 10)});
        r.started = fmt::format("2026-11-22T0{}:00:00Z", hour--);  // recorded newest first
        store.record_run(r);
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

TEST(HistoryStore, LoadHistoryByNameWithFingerprints) {
    auto store = HistoryStore::open_for_recording(fresh_dir("cgbench-store-all-series") / "h.db");
    const std::vector<std::pair<std::string, std::uint64_t>> costs = {
        {"r1", 1000}, {"r2", 1100}, {"r3", 1500}, {"r4", 1650}};
    int hour = 1;
    for (const auto& [id, cost] : costs) {
        auto r = run(id, {bench("x", 500, cost), bench("y/" + id, 10)});
        r.started = fmt::format("2026-11-22T0{}:00:00Z", hour++);
        if (id >= "r3") r.fingerprint.weights = metrics::parse_weights("kcachegrind");
        store.record_run(r);
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
    EXPECT_EQ(h.key_of(x[1].run), store.run_by_id("r3")->fingerprint.comparison_key());
    EXPECT_EQ(h.fingerprint_of(x[1]).weights.name, "kcachegrind");
    EXPECT_TRUE(store.load_history([](std::string_view) { return false; }).series.empty());
}

TEST(HistoryStore, ScanSeriesHandsEachSeriesAsLoadHistoryReadsIt) {
    const auto path = fresh_dir("cgbench-store-scan-series") / "h.db";
    {
        auto store = HistoryStore::open_for_recording(path);
        int hour = 1;
        for (const std::string id : {"r1", "r2", "r3", "r4"}) {
            auto r = run(id, {bench("x", 500, static_cast<std::uint64_t>(1000 + hour)),
                              bench("y/" + id, 10),
                              id == "r2" ? failed_bench("z") : bench("z", 7)});
            r.started = fmt::format("2026-11-22T0{}:00:00Z", hour++);
            store.record_run(r);
        }
    }
    auto store = HistoryStore::open_existing(path);  // as `steps` reads it: read-only
    ASSERT_TRUE(store.has_value());
    const auto keep = [](std::string_view n) { return n != "y/r2"; };
    const auto whole = store->load_history(keep, 3);
    const auto h = store->load_runs();
    EXPECT_TRUE(h.series.empty());
    ASSERT_EQ(h.runs.size(), whole.runs.size());
    EXPECT_EQ(h.fingerprints.size(), whole.fingerprints.size());
    std::vector<history::Series> seen;
    store->scan_series(h, keep, 3, [&](const history::Series& s) { seen.push_back(s); });
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
    store->scan_series(h, "z", SIZE_MAX, [&](const history::Series& s) {
        one.push_back(s.name);
        EXPECT_EQ(s.results.size(), 4u);
    });
    EXPECT_EQ(one, std::vector<std::string>{"z"});
    store->scan_series(h, "nope", SIZE_MAX, [&](const history::Series&) { ADD_FAILURE(); });
}

TEST(HistoryStore, StoredResultForAStep) {
    auto store = HistoryStore::open_for_recording(fresh_dir("cgbench-store-result") / "h.db");
    auto r = run("r1", {bench("a", 1000), bench("b", 5000)});
    r.benchmarks[1].functions = stored_functions({"hot", kHostile}, 3000);
    store.record_run(r);
    const auto h = store.load_history("b");
    const auto& p = h.series.at(0).results.at(0);
    const auto b = store.stored_result(h.run_of(p), p.position);
    ASSERT_TRUE(b.has_value());
    EXPECT_EQ(b->name, "b");
    EXPECT_EQ(b->events, r.benchmarks[1].events);
    EXPECT_EQ(b->derived, r.benchmarks[1].derived);
    EXPECT_EQ(b->cost, r.benchmarks[1].cost);
    EXPECT_EQ(b->functions, fold_functions(r.benchmarks[1].functions, kStoredFunctions));
    EXPECT_FALSE(store.stored_result(h.run_of(p), 7).has_value());
}

TEST(HistoryStore, CleanRunAtCommitAndRemoveRuns) {
    const auto path = fresh_dir("cgbench-store-remove") / "h.db";
    auto store = HistoryStore::open_for_recording(path);
    auto a = run_at("a", {bench("x", 1000), bench("y", 10)}, "2026-11-22T01:00:00Z");
    a.benchmarks[0].functions = stored_functions({"only-in-a", "other"}, 600);
    auto b = run_at("b", {bench("x", 1100)}, "2026-11-22T02:00:00Z");
    b.git.dirty = true;
    for (const auto& r : {a, b})
        store.record_run(r);
    EXPECT_EQ(store.clean_run_at_commit(*a.git.commit)->id, "a") << "the dirty one is newer";
    EXPECT_FALSE(store.clean_run_at_commit("0000").has_value());

    const auto h = store.load_history([](std::string_view) { return true; });
    const auto removed = store.remove_runs({h.runs[0]});
    EXPECT_EQ(removed.runs, 1u);
    EXPECT_EQ(removed.results, 2u);
    EXPECT_EQ(removed.functions, a.benchmarks[0].functions.size());
    EXPECT_EQ(removed.symbols, 3u) << "names only run a used, \"(other)\" included";
    EXPECT_EQ(store.run_count(), 1u);
    EXPECT_FALSE(store.run_by_id("a").has_value());
    EXPECT_TRUE(store.run_by_id("b").has_value());
    Database db(path, Database::Mode::Existing);
    EXPECT_EQ(db.query_int("SELECT COUNT(*) FROM results"), 1);
    EXPECT_EQ(db.query_int("SELECT COUNT(*) FROM result_functions"), 0);
}

TEST(HistoryStore, LatestCostsComeFromTheNewestCompleteRun) {
    auto store = HistoryStore::open_for_recording(fresh_dir("cgbench-store-costs") / "h.db");
    EXPECT_FALSE(store.latest_costs({"a", "b"}).has_value());
    store.record_run(run_at("full-1", {bench("a", 100), bench("b", 200), bench("c", 5)},
                            "2026-11-22T01:00:00Z"));
    const auto full2 =
        run_at("full-2", {bench("a", 110), failed_bench("b")}, "2026-11-22T02:00:00Z");
    store.record_run(full2);
    // A shard run is newer but measured part of a split: never a source of costs.
    auto shard = run_at("shard", {bench("a", 999)}, "2026-11-22T03:00:00Z");
    shard.shard = "1/2";
    shard.shard_balance = "names";
    store.record_run(shard);
    const auto costs = store.latest_costs({"a", "b"});
    ASSERT_TRUE(costs.has_value());
    EXPECT_EQ(costs->run_id, "full-2");
    // b failed there, so only a's cost from that run.
    EXPECT_EQ(costs->costs,
              (std::map<std::string, std::uint64_t>{{"a", full2.benchmarks[0].cost}}));
    const auto loaded = store.run_by_id("shard");
    ASSERT_TRUE(loaded.has_value());
    EXPECT_EQ(loaded->shard, "1/2");
    EXPECT_EQ(loaded->shard_balance, "names");
}

TEST(HistoryStore, OpenExistingDoesNotCreate) {
    const auto path = fresh_dir("cgbench-store-existing") / "none.db";
    EXPECT_FALSE(HistoryStore::open_existing(path).has_value());
    EXPECT_FALSE(fs::exists(path));
    EXPECT_EQ(open_history_for_run(std::nullopt), nullptr);
}

TEST(HistoryStore, UnwritableDatabaseFailsOnOpen) {
    if (::geteuid() == 0) GTEST_SKIP() << "root can write read-only files";
    const auto path = fresh_dir("cgbench-store-readonly") / "h.db";
    { HistoryStore::open_for_recording(path); }
    fs::permissions(path, fs::perms::owner_read);
    EXPECT_THROW(HistoryStore::open_for_recording(path), EnvironmentError);
}

TEST(HistoryStore, ConcurrentWritersLoseNothing) {
    // Eight processes record 25 runs each as fast as they can, all opening the database
    // (and racing to create its schema) at the same time.
    const auto path = fresh_dir("cgbench-store-concurrent") / "h.db";
    constexpr int kProcesses = 8;
    constexpr int kRuns = 25;
    std::vector<pid_t> children;
    for (int p = 0; p < kProcesses; ++p) {
        const pid_t pid = ::fork();
        ASSERT_GE(pid, 0);
        if (pid == 0) {
            int code = 0;
            try {
                auto store = HistoryStore::open_for_recording(path);
                for (int i = 0; i < kRuns; ++i) {
                    store.record_run(
                        run(fmt::format("p{}-r{}", p, i), {bench("a", 1000), bench("b", 2000)}));
                }
            } catch (const std::exception& e) {
                std::fprintf(stderr, "writer %d: %s\n", p, e.what());
                code = 1;
            }
            ::_exit(code);
        }
        children.push_back(pid);
    }
    for (const pid_t pid : children) {
        int status = 0;
        ASSERT_EQ(::waitpid(pid, &status, 0), pid);
        EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "a writer failed";
    }
    auto store = HistoryStore::open_existing(path);
    ASSERT_TRUE(store.has_value());
    EXPECT_EQ(store->run_count(), static_cast<std::size_t>(kProcesses * kRuns));
    EXPECT_EQ(store->load_history("b").series.at(0).results.size(),
              static_cast<std::size_t>(kProcesses * kRuns));
}

}  // namespace cgbench::store
