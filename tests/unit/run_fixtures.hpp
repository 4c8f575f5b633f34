#pragma once
// Result models for unit tests: consistent events, derived hits and a realistic fingerprint,
// without running Valgrind.

#include <gtest/gtest.h>

#include <filesystem>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.hpp"
#include "core/result_json.hpp"
#include "exec/git.hpp"
#include "metrics/metric.hpp"
#include "metrics/score.hpp"
#include "valgrind/geometry.hpp"

namespace cgbench::metrics {

// How gtest prints a metric key in a failed expectation: by name.
inline void PrintTo(Metric m, std::ostream* os) {
    *os << m.name();
}

}  // namespace cgbench::metrics

namespace cgbench::testing_fixtures {

namespace fs = std::filesystem;

inline const std::string kHostile = "<img src=x onerror=alert(1)>|**x**";

// An ok benchmark whose events scale with `ir`; cost follows the pythonspeed weights unless
// `cost` is given.
inline BenchmarkResult bench(std::string name, std::uint64_t ir,
                             std::optional<std::uint64_t> cost = std::nullopt) {
    BenchmarkResult b;
    b.name = std::move(name);
    b.command = {"./prog", "arg with space"};
    b.exit_code = 0;
    b.weights = metrics::parse_weights("pythonspeed");
    using metrics::Event;
    b.events.set(Event::Ir, ir);
    b.events.set(Event::I1mr, ir / 100);
    b.events.set(Event::ILmr, ir / 200);
    b.events.set(Event::Dr, ir / 2);
    b.events.set(Event::D1mr, ir / 50);
    b.events.set(Event::DLmr, ir / 250);
    b.events.set(Event::Dw, ir / 4);
    b.events.set(Event::D1mw, ir / 100);
    b.events.set(Event::DLmw, ir / 500);
    b.derived = metrics::derive(b.events);
    b.cost = cost ? *cost : metrics::cost(b.events, b.weights);
    b.wall_seconds = 0.25;
    return b;
}

// `bench` measured with branch simulation: the branch events set (Bcm = Bim = ir / 200) and
// the cost under pythonspeed with its misprediction weight.
inline BenchmarkResult branch_bench(std::string name, std::uint64_t ir) {
    auto b = bench(std::move(name), ir);
    b.events.set(metrics::Event::Bc, ir / 8);
    b.events.set(metrics::Event::Bcm, ir / 200);
    b.events.set(metrics::Event::Bi, ir / 40);
    b.events.set(metrics::Event::Bim, ir / 200);
    b.weights = metrics::with_branch_sim(b.weights, true);
    b.cost = metrics::cost(b.events, b.weights);
    return b;
}

// A benchmark that failed the way a non-zero exit does.
inline BenchmarkResult failed_bench(std::string name) {
    BenchmarkResult b;
    b.name = std::move(name);
    b.command = {"./prog"};
    b.status = BenchStatus::Failed;
    b.exit_code = 3;
    b.weights = metrics::parse_weights("pythonspeed");
    b.error = "exited with status 3";
    b.stderr_tail = "boom & </failure>";
    return b;
}

// What fold_functions keeps: `names` costliest first (cost and Ir), then "(other)".
inline std::vector<FunctionResult> stored_functions(const std::vector<std::string>& names,
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

inline RunResult run(std::string id, std::vector<BenchmarkResult> benchmarks) {
    RunResult r;
    r.id = std::move(id);
    r.started = "2026-11-22T03:15:00Z";
    r.git.commit = "0123456789abcdef0123456789abcdef01234567";
    r.git.branch = "main";
    r.git.dirty = false;
    auto& f = r.fingerprint;
    f.cgbench_version = "0.1.0";
    f.valgrind_version = "3.19.0";
    f.glibc_version = "2.36";
    f.arch = "x86_64";
    f.geometry = valgrind::parse_geometry("ci-default");
    f.weights = metrics::parse_weights("pythonspeed");
    f.cpu_baseline = "portable";
    f.aslr = "disabled";
    r.benchmarks = std::move(benchmarks);
    return r;
}

// A fresh empty directory under the test temp dir.
inline fs::path fresh_dir(const std::string& name) {
    const fs::path d = fs::path(::testing::TempDir()) / name;
    fs::remove_all(d);
    fs::create_directories(d);
    return d;
}

// `run(id, benchmarks)` started at `started`.
inline RunResult run_at(std::string id, std::vector<BenchmarkResult> benchmarks,
                        std::string started) {
    auto r = run(std::move(id), std::move(benchmarks));
    r.started = std::move(started);
    return r;
}

// Commits nothing (an empty commit) in the repository `git` works in; false if git failed.
inline bool commit_empty(const exec::Git& git) {
    return git
        .run({"-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q",
              "--allow-empty", "-m", "c"})
        .has_value();
}

// A fresh repository with one commit on `main`.
inline bool init_repo(const exec::Git& git) {
    return git.run({"init", "-q", "-b", "main"}).has_value() && commit_empty(git);
}

// How often `what` occurs in `text`.
inline std::size_t occurrences(std::string_view text, std::string_view what) {
    std::size_t n = 0;
    for (auto at = text.find(what); at != std::string_view::npos; at = text.find(what, at + 1)) {
        ++n;
    }
    return n;
}

// The pipes of a Markdown table row that are cell borders (not backslash-escaped).
inline std::size_t unescaped_pipes(std::string_view row) {
    std::size_t n = 0;
    for (std::size_t i = 0; i < row.size(); ++i)
        n += row[i] == '|' && (i == 0 || row[i - 1] != '\\');
    return n;
}

// Two runs are the same for every purpose of compare when their JSON documents are equal.
inline void expect_same_run(const RunResult& a, const RunResult& b) {
    EXPECT_EQ(to_json(a).dump(2), to_json(b).dump(2));
}

}  // namespace cgbench::testing_fixtures
