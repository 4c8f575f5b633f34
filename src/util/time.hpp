#pragma once
// Timestamps and identifiers.

#include <cstdint>
#include <ctime>
#include <optional>
#include <string>
#include <string_view>

namespace cgbench::util {

// The current UTC time as ISO-8601 with seconds: "2026-11-22T03:15:00Z".
std::string now_iso8601();

// The UTC time `t` (seconds since the epoch), as now_iso8601() writes it.
std::string iso8601_at(std::time_t t);

// Seconds since the epoch of an ISO-8601 time with seconds and a zone, "Z" (as
// now_iso8601() writes it) or "+HH:MM" ("2020-05-01T12:00:00+02:00", as git's %cI writes
// it), on a real calendar date of the years 1970 to 9999; nullopt for any other text.
std::optional<std::int64_t> parse_iso8601(std::string_view text);

// A sortable unique run id: "20261122T031500Z-3f9a1c0b".
std::string new_run_id();

// The start of the UTC day "YYYY-MM-DD" names (a real calendar date, year 1970 to 9999), as
// seconds since the epoch; nullopt otherwise ("2026-13-45", "2025-02-30", "2026-1-5").
std::optional<std::time_t> parse_date(std::string_view text);

}  // namespace cgbench::util
