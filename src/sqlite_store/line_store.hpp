#pragma once
// The source lines kept with each stored result (schema version 5): one row per line in
// `result_lines` keyed by (run, position, rank), rank being the line's index in the result's
// list (costliest first); its file and function interned in `symbols` (as functions' are),
// its text in `line_texts`, so a result's row stays small however long its lines are.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/result.hpp"
#include "sqlite_store/interner.hpp"
#include "sqlite_store/sqlite.hpp"

namespace cgbench::sqlite_store {

// Writes the lines of a run's results; use within the transaction recording the run.
class LineWriter {
  public:
    explicit LineWriter(Database& db);

    // Stores `lines` for the result at (`run`, `position`), in their order: file, function,
    // line, text, cost and Ir (the only event stored, as history::kept_lines keeps them).
    void write(std::int64_t run, std::size_t position, const std::vector<LineResult>& lines);

  private:
    Interner symbols_;
    Interner texts_;
    Statement insert_;
};

// Sets the lines of every result of `run` of `db` with one query: `benchmarks[i]` is the
// result stored at `positions[i]`. Results without stored lines keep what they have (a
// document the migration could not convert keeps its lines inside).
void attach_lines(Database& db, std::int64_t run, const std::vector<std::int64_t>& positions,
                  std::vector<BenchmarkResult>& benchmarks);

}  // namespace cgbench::sqlite_store
