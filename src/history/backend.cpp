#include "history/backend.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <limits>

#include "base/errors.hpp"
#include "history/order.hpp"
#include "util/strings.hpp"

namespace cgbench::history {

std::vector<FunctionResult> kept_functions(const std::vector<FunctionResult>& functions) {
    return fold_functions(functions, kStoredFunctions);
}

std::vector<LineResult> kept_lines(const std::vector<LineResult>& lines) {
    std::vector<LineResult> out;
    for (std::size_t i = 0; i < std::min(lines.size(), kStoredLines); ++i) {
        LineResult kept = lines[i];
        kept.events = {};
        if (lines[i].events.has(metrics::Event::Ir))
            kept.events.set(metrics::Event::Ir, lines[i].events.get(metrics::Event::Ir));
        out.push_back(std::move(kept));
    }
    return out;
}

void keep_as_stored(BenchmarkResult& b) {
    b.functions = kept_functions(b.functions);
    b.lines = kept_lines(b.lines);
}

StoredLineSink::StoredLineSink(const std::vector<std::int64_t>& positions,
                               std::vector<BenchmarkResult>& benchmarks)
    : benchmarks_(benchmarks) {
    for (std::size_t i = 0; i < positions.size(); ++i)
        index_.emplace(positions[i], i);
}

void StoredLineSink::add(std::int64_t position, LineResult line) {
    const auto it = index_.find(position);
    if (it == index_.end()) return;  // a result the reader's filter left out
    auto& lines = benchmarks_[it->second].lines;
    if (current_ != position) lines.clear();
    current_ = position;
    lines.push_back(std::move(line));
}

void drop_unread(std::vector<BenchmarkResult>& benchmarks, RunParts parts) {
    for (auto& b : benchmarks) {
        if (parts.lines == SourceLines::Skip) b.lines.clear();
        if (parts.functions == KeptFunctions::Skip) b.functions.clear();
    }
}

namespace {

// Histories keep counts as signed 64-bit integers (SQLite's, PostgreSQL's bigint): a count
// of 2^63 or more would be stored as nothing or negative. Checked before anything is written.
void check_storable(const RunResult& run) {
    constexpr auto kMax = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
    for (const auto& b : run.benchmarks) {
        std::vector<std::pair<std::string_view, std::uint64_t>> values = {{"cost", b.cost}};
        for (const auto& e : metrics::kEvents) {
            if (b.events.has(e.id)) values.emplace_back(e.name, b.events.get(e.id));
        }
        if (b.derived) {
            values.insert(values.end(), {{"l1_hits", b.derived->l1_hits},
                                         {"ll_hits", b.derived->ll_hits},
                                         {"ram_hits", b.derived->ram_hits}});
        }
        for (const auto& [what, v] : values) {
            if (v <= kMax) continue;
            throw UsageError(
                fmt::format("benchmark '{}': {} {} is 2^63 or more, beyond what the history "
                            "stores",
                            util::printable(b.name), what, v),
                "such a count is not a measurement of this world: check the file");
        }
    }
}

}  // namespace

std::optional<StoredRunInfo> RunBatch::add(const RunResult& run) {
    if (auto stored = find(run.id)) return stored;
    check_storable(run);
    write(run);
    ++runs_;
    results_ += run.benchmarks.size();
    return std::nullopt;
}

History HistoryBackend::load_history(const NameFilter& keep, std::size_t limit) {
    auto h = load_runs();
    order_runs(h);
    scan_series(h, keep, limit, [&h](const Series& s) { h.series.push_back(s); });
    return h;
}

History HistoryBackend::load_history(std::string_view name, std::size_t limit) {
    auto h = load_runs();
    order_runs(h);
    scan_series(h, name, limit, [&h](const Series& s) { h.series.push_back(s); });
    return h;
}

std::vector<std::optional<BenchmarkResult>> StoredResultReader::read_all(
    const std::vector<StoredResultAt>& wanted) {
    std::vector<std::optional<BenchmarkResult>> out;
    out.reserve(wanted.size());
    for (const auto& w : wanted)
        out.push_back(read(*w.run, w.position));
    return out;
}

std::optional<BenchmarkResult> HistoryBackend::stored_result(const Run& run,
                                                             std::int64_t position) {
    return result_reader()->read(run, position);
}

void finish_series(Series& s, std::size_t limit) {
    const auto by_run = [](const Result& a, const Result& b) { return a.run < b.run; };
    if (!std::is_sorted(s.results.begin(), s.results.end(), by_run)) {
        std::stable_sort(s.results.begin(), s.results.end(), by_run);
    }
    if (s.results.size() > limit) {
        s.results.erase(s.results.begin(), s.results.end() - static_cast<std::ptrdiff_t>(limit));
    }
}

}  // namespace cgbench::history
