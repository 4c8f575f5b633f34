#pragma once
// What a result file must hold beyond its JSON shape, checked by every reader of one
// (`compare`, `merge`, `import`, `export`): values the history sorts, files are named and
// gates are judged by. docs/reference/result-json.md lists the rules.

#include <optional>
#include <string>
#include <string_view>

#include "core/result.hpp"

namespace cgbench {

// The longest run id a result file may carry: ids name files (cgbench-history keeps
// runs/<id>.json) and columns of every listing.
inline constexpr std::size_t kMaxRunIdBytes = 128;

// Why `id` cannot be a run id ("holds a '/'"), or nullopt when it can: 1 to kMaxRunIdBytes
// bytes, no control character, no '/' or '\', not "." or "..".
std::optional<std::string> run_id_problem(std::string_view id);

// Throws UsageError "SOURCE: invalid result file: ..." when `run` breaks a rule: its id (see
// run_id_problem), `started` not a time as cgbench writes it (util::parse_utc_timestamp), a NUL in
// a name, id, commit or branch (the history would keep only what precedes it), a wall time
// that is negative or not finite, or a result whose cost is not what its events and weights
// give.
void check_result_values(const RunResult& run, const std::string& source);

}  // namespace cgbench
