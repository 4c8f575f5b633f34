#pragma once
// Per-line views: the kept source lines of one result (`cgbench annotate --lines`), the lines
// that moved between a base and a head (`--lines --base`, compare::diff_lines), and the one
// sentence every report says when a measured program had no line information. The tables are
// built here; each format renders and escapes them in its own *_functions_reporter.cpp.

#include <string>
#include <string_view>
#include <vector>

#include "compare/line_diff.hpp"
#include "core/result.hpp"
#include "report/function_report.hpp"

namespace cgbench::report {

// The file name Valgrind gives code without debug info.
inline constexpr std::string_view kUnknownFile = "???";

// Whether `path` (a line's file) is what `file` names: empty (every file), the path itself, or
// its last components ("src/a.c" names "/repo/src/a.c").
bool names_file(std::string_view path, std::string_view file);

// One table per file of `b.lines` (only files whose path is `file` or ends in "/" + `file`
// when `file` is not empty), costliest file first, each in line order: line, cost, share of
// b's cost, Ir, function and source text.
std::vector<FunctionTable> lines_tables(const BenchmarkResult& b, std::string_view file,
                                        Escape escape);

// The lines that moved in `benchmark`: file:line (head), the base's line number when it
// moved, function, base, head and delta ("≥" when bounded: compare::LineChange::at_least),
// source text.
FunctionTable line_changes_table(std::string_view benchmark,
                                 const std::vector<compare::LineChange>& changes, Escape escape);

}  // namespace cgbench::report
