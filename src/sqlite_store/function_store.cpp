#include "sqlite_store/function_store.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <optional>

#include "base/errors.hpp"
#include "core/result_json.hpp"

namespace cgbench::sqlite_store {

namespace {

constexpr std::string_view kInsertFunction = R"sql(
INSERT INTO result_functions (run, position, rank, symbol, cost, ir)
VALUES (?1, ?2, ?3, ?4, ?5, ?6))sql";

// The columns FunctionReader::function reads, for the functions of one run or one result.
constexpr std::string_view kSelectFunctions = R"sql(
SELECT position, symbol, cost, ir FROM result_functions
WHERE run = ?1 {} ORDER BY position, rank)sql";

// Counts are unsigned 64-bit, SQLite integers signed: stored as their two's complement, so
// every count reads back as written (one beyond 2^63 was never seen).
std::int64_t to_column(std::uint64_t v) {
    return static_cast<std::int64_t>(v);
}

std::uint64_t from_column(std::int64_t v) {
    return static_cast<std::uint64_t>(v);
}

}  // namespace

FunctionWriter::FunctionWriter(Database& db)
    : symbols_(db, "symbols", {"file", "name"}), insert_function_(db.prepare(kInsertFunction)) {}

void FunctionWriter::write(std::int64_t run, std::size_t position,
                           const std::vector<FunctionResult>& functions) {
    for (std::size_t rank = 0; rank < functions.size(); ++rank) {
        const auto& f = functions[rank];
        const std::int64_t id = symbols_.id({f.file, f.name});
        auto& s = insert_function_;
        s.reset();
        s.bind(1, run).bind(2, static_cast<std::int64_t>(position));
        s.bind(3, static_cast<std::int64_t>(rank)).bind(4, id).bind(5, to_column(f.cost));
        if (f.events.has(metrics::Event::Ir)) {
            s.bind(6, to_column(f.events.get(metrics::Event::Ir)));
        } else {
            s.bind_null(6);
        }
        s.run();
    }
}

FunctionReader::FunctionReader(Database& db) : db_(db) {}

const std::pair<std::string, std::string>& FunctionReader::symbol(std::int64_t id) {
    if (const auto it = symbols_.find(id); it != symbols_.end()) return it->second;
    if (!lookup_) lookup_.emplace(db_.prepare("SELECT file, name FROM symbols WHERE id = ?1"));
    lookup_->reset();
    lookup_->bind(1, id);
    if (!lookup_->step()) {
        throw EnvironmentError(
            fmt::format("history database {}: a stored function names symbol {}, which is missing",
                        db_.path().string(), id),
            "the file is damaged; move it aside or pass --db with another path");
    }
    auto& names = symbols_[id];
    names = {std::string(lookup_->text(0)), std::string(lookup_->text(1))};
    return names;
}

FunctionResult FunctionReader::function(const Statement& row) {
    const auto& [file, name] = symbol(row.int64(1));
    FunctionResult f{file, name, {}, from_column(row.int64(2))};
    if (const auto ir = row.optional_int64(3)) f.events.set(metrics::Event::Ir, from_column(*ir));
    return f;
}

std::vector<FunctionResult> FunctionReader::result(std::int64_t run, std::int64_t position) {
    if (!one_) one_.emplace(db_.prepare(fmt::format(kSelectFunctions, "AND position = ?2")));
    one_->reset();
    one_->bind(1, run).bind(2, position);
    std::vector<FunctionResult> out;
    while (one_->step())
        out.push_back(function(*one_));
    return out;
}

void FunctionReader::attach_run(std::int64_t run, const std::vector<std::int64_t>& positions,
                                std::vector<BenchmarkResult>& benchmarks) {
    // A few of many results (what `compare` reads for the benchmarks it gates): an indexed
    // lookup each, not every function of the run.
    constexpr std::size_t kFew = 64;
    if (positions.size() <= kFew) {
        for (std::size_t i = 0; i < positions.size(); ++i) {
            if (auto f = result(run, positions[i]); !f.empty())
                benchmarks[i].functions = std::move(f);
        }
        return;
    }
    auto s = db_.prepare(fmt::format(kSelectFunctions, ""));
    s.bind(1, run);
    std::size_t i = 0;
    std::optional<std::int64_t> current;  // the position whose functions are being read
    while (s.step()) {
        const std::int64_t position = s.int64(0);
        while (i < positions.size() && positions[i] < position)
            ++i;
        if (i == positions.size()) break;
        if (positions[i] != position) continue;  // no such result (never written so)
        auto& functions = benchmarks[i].functions;
        if (current != position) {
            functions.clear();
            functions.reserve(history::kStoredFunctions + 1);
        }
        current = position;
        functions.push_back(function(s));
    }
}

}  // namespace cgbench::sqlite_store
