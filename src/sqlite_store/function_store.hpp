#pragma once
// The functions kept with each stored result (schema version 3): names interned once in
// `symbols`, one row per function in `result_functions` keyed by (run, position, rank), rank
// being the function's index in the result's list (costliest first, "(other)" last).

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/result.hpp"
#include "history/backend.hpp"
#include "sqlite_store/interner.hpp"
#include "sqlite_store/sqlite.hpp"

namespace cgbench::sqlite_store {

// Writes the functions of a run's results; use within the transaction recording the run.
// Symbol ids are cached for the writer's lifetime.
class FunctionWriter {
  public:
    explicit FunctionWriter(Database& db);

    // Stores `functions` for the result at (`run`, `position`), in their order. Each keeps
    // its file, name, cost and Ir (the only event stored); names that are not UTF-8 are
    // stored with U+FFFD in place of the bad bytes, as the result document stores them.
    void write(std::int64_t run, std::size_t position,
               const std::vector<FunctionResult>& functions);

  private:
    Interner symbols_;
    Statement insert_function_;
};

// Reads the stored functions back. Each symbol is read once per reader: a run's results
// share most of their functions, so this is cheaper than joining every row.
class FunctionReader {
  public:
    explicit FunctionReader(Database& db);

    // The functions of the result at (`run`, `position`), in rank order; empty when none.
    std::vector<FunctionResult> result(std::int64_t run, std::int64_t position);
    // Sets the functions of every result of `run` with one query (a lookup each when they
    // are a few): `benchmarks[i]` is the result stored at `positions[i]` (ascending).
    // Results without stored functions keep what they have.
    void attach_run(std::int64_t run, const std::vector<std::int64_t>& positions,
                    std::vector<BenchmarkResult>& benchmarks);

  private:
    // A row of a functions query (position, symbol, cost, ir) as a function.
    FunctionResult function(const Statement& row);
    const std::pair<std::string, std::string>& symbol(std::int64_t id);

    Database& db_;
    std::optional<Statement> one_;     // result()'s, prepared on first use
    std::optional<Statement> lookup_;  // symbol()'s
    std::map<std::int64_t, std::pair<std::string, std::string>> symbols_;  // id -> file, name
};

}  // namespace cgbench::sqlite_store
