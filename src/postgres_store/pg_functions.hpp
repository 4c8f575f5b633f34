#pragma once
// The functions kept with each stored result (schema version 3): the result's "functions"
// array as the result file writes it, in the column `function_list` beside the document
// rather than inside it. A run's numbers, all that `compare`, `history` and most commands
// read, then come without them: in a run of 1,000 results with their functions they were
// three quarters of the bytes the server sent and of what the client parsed.

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/result.hpp"
#include "postgres_store/pg.hpp"

namespace cgbench::postgres_store {

// The column's value for `functions`: their JSON array, or NULL for none.
Param function_list(const std::vector<FunctionResult>& functions);

// The functions of a stored column value (the fast reader, else the result file's own);
// EnvironmentError naming `c`'s database when it is not a functions array.
std::vector<FunctionResult> read_function_list(const Connection& c, std::string_view text);

// A stored document `data` split into the document without its "functions" and their array,
// each as written (no other byte of the document changes); nullopt when it has none, or is
// not an object this can split (left as it is: the reader takes functions from a document
// too).
std::optional<std::pair<std::string, std::string>> split_functions(std::string_view data);

// Version 3's conversion, within the migration's transaction: every stored document with
// functions gives them to `function_list`, one statement per run.
void move_functions_out(Connection& c);

}  // namespace cgbench::postgres_store
