#pragma once
// Synthetic histories for the tests of history policy (src/history) and of what renders it:
// runs one per commit on a branch, each with a fingerprint, and series of costs over them.

#include <fmt/format.h>

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "history/model.hpp"
#include "run_fixtures.hpp"

namespace cgbench::testing_fixtures {

// Builds a History run by run.
class HistoryBuilder {
  public:
    HistoryBuilder() { fingerprint(run("x", {}).fingerprint); }

    // Adds a fingerprint (made current) and returns its index.
    std::size_t fingerprint(Fingerprint f) {
        h_.keys.push_back(f.comparison_key());
        h_.fingerprints.push_back(std::move(f));
        current_ = h_.fingerprints.size() - 1;
        return current_;
    }
    // The current fingerprint with `edit` applied, made current.
    template <typename Edit>
    std::size_t change_fingerprint(const Edit& edit) {
        auto f = h_.fingerprints[current_];
        edit(f);
        return fingerprint(std::move(f));
    }

    // Adds a run on `branch` at commit "c<n>" (padded to 40 characters) and returns its index.
    std::size_t add_run(std::string branch = "main", bool dirty = false,
                        std::optional<std::string> commit = std::nullopt) {
        const auto i = h_.runs.size();
        history::Run r;
        r.id = fmt::format("run{:04}", i);
        r.started = fmt::format("2026-11-{:02}T{:02}:{:02}:00Z", 1 + i / 1440 % 28, i / 60 % 24,
                                i % 60);
        r.git.commit = commit ? *commit : commit_of(i);
        r.git.branch = std::move(branch);
        r.git.dirty = dirty;
        r.fingerprint = current_;
        r.handle = static_cast<std::int64_t>(i + 1);
        h_.runs.push_back(std::move(r));
        return i;
    }

    // Distinct in their first 10 characters, as real commit ids are.
    static std::string commit_of(std::size_t i) { return fmt::format("c{:09}{:030}", i, 0); }

    // Adds benchmark `name` with one result per run in `runs` (costs parallel; nullopt:
    // failed).
    void series(std::string name, const std::vector<std::size_t>& runs,
                const std::vector<std::optional<std::uint64_t>>& costs) {
        if (costs.size() != runs.size())
            throw std::logic_error("series: one cost per run, " + std::to_string(costs.size()) +
                                   " costs for " + std::to_string(runs.size()) + " runs");
        history::Series s{std::move(name), {}};
        for (std::size_t i = 0; i < runs.size(); ++i) {
            history::Result r;
            r.run = runs[i];
            r.position = static_cast<std::int64_t>(h_.series.size());
            r.cost = costs[i];
            r.status = costs[i] ? BenchStatus::Ok : BenchStatus::Failed;
            if (costs[i]) r.ir = *costs[i] * 4 / 5;
            s.results.push_back(r);
        }
        h_.series.push_back(std::move(s));
    }

    // `n` runs on main, one per commit, and a series of `costs` over them.
    static history::History simple(const std::vector<std::optional<std::uint64_t>>& costs,
                                   std::string name = "bench") {
        HistoryBuilder b;
        std::vector<std::size_t> runs;
        for (std::size_t i = 0; i < costs.size(); ++i)
            runs.push_back(b.add_run());
        b.series(std::move(name), runs, costs);
        return b.take();
    }

    history::History take() { return std::move(h_); }
    history::History& get() { return h_; }

  private:
    history::History h_;
    std::size_t current_ = 0;
};

// `n` copies of `v`.
inline std::vector<std::optional<std::uint64_t>> flat(std::size_t n, std::uint64_t v) {
    return std::vector<std::optional<std::uint64_t>>(n, v);
}

// `a` then `b`.
inline std::vector<std::optional<std::uint64_t>> operator+(
    std::vector<std::optional<std::uint64_t>> a, const std::vector<std::optional<std::uint64_t>>& b) {
    a.insert(a.end(), b.begin(), b.end());
    return a;
}

}  // namespace cgbench::testing_fixtures
