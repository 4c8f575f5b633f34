#pragma once
// Per-function views: the top functions of one result (`cgbench annotate`), and the functions
// and processes that moved between a base and a head result (compare::attribute_change, in the
// reports of compare, bisect and steps). The tables and their wording are shared here; each
// format renders and escapes them in its own file (console_, markdown_, json_functions_reporter).

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "compare/attribution.hpp"
#include "compare/line_diff.hpp"
#include "core/result.hpp"
#include "report/reporter.hpp"
#include "report/text_table.hpp"

namespace cgbench::report {

// Renders `cgbench annotate`: the costliest functions of one result.
class FunctionsReporter {
  public:
    virtual ~FunctionsReporter() = default;
    // The first `top` entries of `b.functions` with cost, share of the total, Ir and the file.
    // JSON: {"schema": "cgbench-annotate/1", "benchmark", "tool", "cost", "functions": [...]}.
    virtual std::string render(const BenchmarkResult& b, std::size_t top,
                               const RenderOptions& options) const = 0;
    // `cgbench annotate --lines`: b's kept lines, per file (report/line_report.hpp, the files
    // `file` names when not empty). JSON: {"schema": "cgbench-annotate/1", "benchmark",
    // "tool", "cost", "line_info", "lines": [...]}.
    virtual std::string render_lines(const BenchmarkResult& b, std::string_view file,
                                     const RenderOptions& options) const = 0;
    // `cgbench annotate --lines --base`: the lines of `head` that moved against `base`.
    // JSON: {"schema": "cgbench-annotate/1", "benchmark", "base_cost", "head_cost",
    // "line_changes": [...]}.
    virtual std::string render_line_changes(const BenchmarkResult& base,
                                            const BenchmarkResult& head,
                                            const std::vector<compare::LineChange>& changes,
                                            const RenderOptions& options) const = 0;
};

// How a format escapes a name for its text (util::printable, markdown_escape).
using Escape = std::string (*)(std::string_view);

// A per-function table of the text formats: a heading, titled columns, and cells whose names
// are escaped already.
struct FunctionTable {
    std::string heading;
    std::vector<std::pair<std::string, Align>> columns;
    std::vector<std::vector<std::string>> rows;
};

// The first `top` functions of `b`: cost, share of b's cost, Ir, function and file.
FunctionTable top_functions_table(const BenchmarkResult& b, std::size_t top, Escape escape);

// The functions that moved in `benchmark`: function, file, base, head, delta and share of the
// total delta ("-" for a side that does not list the function).
FunctionTable function_changes_table(std::string_view benchmark,
                                     const std::vector<compare::FunctionChange>& changes,
                                     Escape escape);

// The processes that moved in `benchmark`: base, head, delta and share of the total delta
// ("-" for a process one side did not run).
FunctionTable process_changes_table(std::string_view benchmark,
                                    const std::vector<compare::ProcessChange>& changes,
                                    Escape escape);

// Console (console_functions_reporter.cpp): function_changes_table under its heading, as an
// aligned table, for the console reports and the failures of JUnit.
std::string console_function_changes(std::string_view benchmark,
                                     const std::vector<compare::FunctionChange>& changes);

// Console: process_changes_table under its heading, as an aligned table.
std::string console_process_changes(std::string_view benchmark,
                                    const std::vector<compare::ProcessChange>& changes);

// Markdown (markdown_functions_reporter.cpp): a pipe table of `t` without its heading (the
// compare report puts it in a collapsed section that says what it is).
std::string markdown_table(const FunctionTable& t);

// JSON (json_functions_reporter.cpp): the functions that moved, as an array of {file, name,
// base, head, delta, share} (null for a side that does not list the function, or no share).
nlohmann::ordered_json function_changes_json(const std::vector<compare::FunctionChange>& changes);

// JSON: the lines that moved (compare::diff_lines), as an array of {file, function, text,
// base_line, head_line, base, head, delta, at_least}.
nlohmann::ordered_json line_changes_json(const std::vector<compare::LineChange>& changes);

// JSON: the processes that moved, as an array of {process, base, head, delta, share}.
nlohmann::ordered_json process_changes_json(const std::vector<compare::ProcessChange>& changes);

}  // namespace cgbench::report
