#pragma once
// Timestamps and identifiers.

#include <ctime>
#include <string>

namespace cgbench::util {

// The current UTC time as ISO-8601 with seconds: "2026-11-22T03:15:00Z".
std::string now_iso8601();

// The UTC time `t` (seconds since the epoch), as now_iso8601() writes it.
std::string iso8601_at(std::time_t t);

// A sortable unique run id: "20261122T031500Z-3f9a1c0b".
std::string new_run_id();

}  // namespace cgbench::util
