#pragma once
// Per-function views, in every output format: the top functions of one result
// (`cgbench annotate`), and the functions that moved between a base and a head result
// (compare::attribute_change, for `cgbench compare`). Pure serializers, names escaped.

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "compare/attribution.hpp"
#include "core/result.hpp"
#include "core/result_json.hpp"
#include "report/reporter.hpp"

namespace cgbench::report {

// The first `top` entries of `b.functions` with cost, share of the total, Ir and the file.
// JSON: {"schema": "cgbench-annotate/1", "benchmark", "tool", "cost", "functions": [...]}.
std::string render_functions(const BenchmarkResult& b, Format format, std::size_t top);

// The functions that moved, as a JSON array of {file, name, base, head, delta, share}
// (null for a side that does not list the function, or a share that does not exist).
nlohmann::ordered_json function_changes_json(const std::vector<compare::FunctionChange>& changes);

// The functions that moved in `benchmark`: base, head, delta and share of the total delta
// ("-" for a side that does not list the function). JSON: an array of objects.
std::string render_function_changes(std::string_view benchmark,
                                    const std::vector<compare::FunctionChange>& changes,
                                    Format format);

// The processes that moved, as a JSON array of {process, base, head, delta, share}.
nlohmann::ordered_json process_changes_json(const std::vector<compare::ProcessChange>& changes);

// The processes that moved in `benchmark`: base, head, delta and share of the total delta
// ("-" for a process one side did not run). JSON: an array of objects.
std::string render_process_changes(std::string_view benchmark,
                                   const std::vector<compare::ProcessChange>& changes,
                                   Format format);

}  // namespace cgbench::report
