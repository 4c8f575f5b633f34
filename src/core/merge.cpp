#include "core/merge.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "base/errors.hpp"
#include "util/strings.hpp"

namespace cgbench {

namespace {

void check_fingerprints(const std::vector<SourcedRun>& parts) {
    const auto& first = parts.front();
    for (const auto& p : parts) {
        if (p.run.fingerprint.comparison_key() == first.run.fingerprint.comparison_key()) continue;
        throw UsageError(
            fmt::format("{} and {} were measured differently: {}", first.source, p.source,
                        util::join(first.run.fingerprint.differences(p.run.fingerprint), "; ")),
            "merge only the shards of one run (same cgbench, Valgrind, geometry, weights and "
            "CPU baseline)");
    }
}

void check_names(const std::vector<SourcedRun>& parts) {
    std::map<std::string, std::string> where;  // name -> source
    std::vector<std::string> duplicates;
    for (const auto& p : parts) {
        for (const auto& b : p.run.benchmarks) {
            const auto [it, fresh] = where.emplace(b.name, p.source);
            if (!fresh) {
                duplicates.push_back(
                    fmt::format("'{}' ({} and {})", util::printable(b.name), it->second, p.source));
            }
        }
    }
    if (!duplicates.empty()) {
        throw UsageError(fmt::format("benchmark measured twice: {}", util::join(duplicates, ", ")),
                         "pass each shard's result file once, from shards of one --shard K/N "
                         "split");
    }
}

// When the parts are shards ("K/N"), they must be the shards of one split: the same N, each
// K once, none missing, balanced from the same source (or they may overlap or miss
// benchmarks without a duplicate to show it).
void check_shards(const std::vector<SourcedRun>& parts) {
    std::map<std::string, std::string> seen;  // "K/N" -> source
    std::string total;
    for (const auto& p : parts) {
        const auto& shard = p.run.shard;
        if (shard.empty()) return;  // not all of them are shards: nothing to check
        const std::string n = shard.substr(shard.find('/') + 1);
        if (!total.empty() && n != total) {
            throw UsageError(fmt::format("{} is shard {} but {} is one of {}", p.source, shard,
                                         parts.front().source, total),
                             "merge the shards of one --shard K/N split");
        }
        total = n;
        if (!seen.emplace(shard, p.source).second) {
            throw UsageError(
                fmt::format("shard {} given twice ({} and {})", shard, seen[shard], p.source),
                "pass each shard's result file once");
        }
        const auto& suite = parts.front().run.shard_suite;
        if (!suite.empty() && !p.run.shard_suite.empty() && p.run.shard_suite != suite) {
            throw UsageError(
                fmt::format("{} and {} are shards of different splits: the benchmarks the two "
                            "jobs divided differ (another suite, filter or version of it)",
                            parts.front().source, p.source),
                "merge the shards of one --shard K/N split of one suite");
        }
        if (p.run.shard_balance != parts.front().run.shard_balance) {
            throw UsageError(
                fmt::format("{} was balanced by {} but {} by {}: the shards may overlap or miss "
                            "benchmarks",
                            p.source, p.run.shard_balance, parts.front().source,
                            parts.front().run.shard_balance),
                "give every job of the matrix the same history database (or none)");
        }
    }
    for (std::size_t k = 1; !total.empty() && k <= std::stoul(total); ++k) {
        if (!seen.count(fmt::format("{}/{}", k, total))) {
            throw UsageError(fmt::format("shard {}/{} is missing", k, total),
                             "merge the result files of all shards");
        }
    }
}

// The first part's git facts; a different commit is an error, other differences a warning.
GitInfo merged_git(const std::vector<SourcedRun>& parts, std::vector<std::string>& warnings) {
    const auto& first = parts.front();
    for (const auto& p : parts) {
        const auto& g = p.run.git;
        if (g.commit && first.run.git.commit && *g.commit != *first.run.git.commit) {
            throw UsageError(fmt::format("{} measured commit {}, {} commit {}", first.source,
                                         *first.run.git.commit, p.source, *g.commit),
                             "merge shards of one pipeline, measured on the same commit");
        }
        if (g.branch != first.run.git.branch || g.dirty != first.run.git.dirty) {
            warnings.push_back(
                fmt::format("{} has other git facts (branch, dirty) than {}; "
                            "keeping {}'s",
                            p.source, first.source, first.source));
        }
    }
    return first.run.git;
}

void sort_benchmarks(std::vector<BenchmarkResult>& benchmarks) {
    const bool positioned =
        std::all_of(benchmarks.begin(), benchmarks.end(),
                    [](const BenchmarkResult& b) { return b.position.has_value(); });
    std::stable_sort(benchmarks.begin(), benchmarks.end(),
                     [positioned](const BenchmarkResult& a, const BenchmarkResult& b) {
                         return positioned ? *a.position < *b.position : a.name < b.name;
                     });
}

}  // namespace

MergedRun merge_runs(const std::vector<SourcedRun>& parts, std::string id) {
    if (parts.empty()) throw UsageError("nothing to merge", "name the result files of the shards");
    check_fingerprints(parts);
    check_names(parts);
    check_shards(parts);
    MergedRun out;
    RunResult& run = out.run;
    run.id = std::move(id);
    run.fingerprint = parts.front().run.fingerprint;
    run.git = merged_git(parts, out.warnings);
    run.started = parts.front().run.started;
    for (const auto& p : parts) {
        run.started = std::min(run.started, p.run.started);  // ISO-8601 UTC sorts as text
        run.benchmarks.insert(run.benchmarks.end(), p.run.benchmarks.begin(),
                              p.run.benchmarks.end());
        auto& compilers = run.fingerprint.compilers;  // each shard ran some of the binaries
        compilers.insert(compilers.end(), p.run.fingerprint.compilers.begin(),
                         p.run.fingerprint.compilers.end());
        for (const auto& w : p.run.warnings) {
            if (std::find(run.warnings.begin(), run.warnings.end(), w) == run.warnings.end()) {
                run.warnings.push_back(w);
            }
        }
    }
    sort_benchmarks(run.benchmarks);
    auto& compilers = run.fingerprint.compilers;
    std::sort(compilers.begin(), compilers.end());
    compilers.erase(std::unique(compilers.begin(), compilers.end()), compilers.end());
    return out;
}

}  // namespace cgbench
