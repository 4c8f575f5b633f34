#include "history/backend.hpp"

#include <algorithm>

#include "history/order.hpp"

namespace cgbench::history {

std::vector<FunctionResult> kept_functions(const std::vector<FunctionResult>& functions) {
    return fold_functions(functions, kStoredFunctions);
}

std::optional<StoredRunInfo> RunBatch::add(const RunResult& run) {
    if (auto stored = find(run.id)) return stored;
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
