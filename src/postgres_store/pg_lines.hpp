#pragma once
// The source lines kept with each stored result (schema version 2): rows of
// cgbench.result_lines keyed by (run, position, rank), file and function interned in
// cgbench.symbols, texts in cgbench.line_texts, as the SQLite history keeps them.

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/result.hpp"
#include "postgres_store/pg.hpp"

namespace cgbench::postgres_store {

// Stores the kept lines (history::kept_lines) of `run`'s results `first` to `last` (not
// included), recorded as run `seq`: three statements, whatever their number. Use within the
// transaction that stores the results.
void write_lines(Connection& c, const std::string& seq, const RunResult& run, std::size_t first,
                 std::size_t last);

// Sets the lines of every result of run `handle` with one query: `benchmarks[i]` is the
// result stored at `positions[i]`. Results without stored lines keep what they have (a
// document the migration could not convert keeps its lines inside).
void attach_lines(Connection& c, std::int64_t handle, const std::vector<std::int64_t>& positions,
                  std::vector<BenchmarkResult>& benchmarks);

}  // namespace cgbench::postgres_store
