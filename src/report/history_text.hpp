#pragma once
// How history values read in every format: times and commits, shortened.

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "history/model.hpp"
#include "history/steps.hpp"

namespace cgbench::report {

// "2026-11-22T03:15:00Z" -> "2026-11-22 03:15"; other text as util::printable gives it.
std::string short_time(std::string_view iso);

// The first 7 characters of `commit` (printable), or "-" without one.
std::string short_commit(const std::optional<std::string>& commit);

// What the line of runs recorded on no branch holds, and how to record past commits instead.
inline constexpr std::string_view kDetachedNote =
    "runs of detached checkouts recorded without CGBENCH_BRANCH, a line of their own "
    "(`cgbench backfill` measures past commits onto their branch)";

// When `run`'s commit was committed, in UTC as short_time writes it; "" when not recorded.
std::string commit_date(const history::Run& run);
// commit_date(run), or when it was measured when that is not known.
std::string run_date(const history::Run& run);

// What to say once about how `o` ordered the runs: the runs placed without ancestry, and
// the branches whose line is not one first-parent line. Empty when nothing needs saying.
std::vector<std::string> ordering_notes(const history::Ordering& o);

// The ordering as JSON: how many runs each way placed, the conflicts, ordering_notes.
nlohmann::ordered_json ordering_json(const history::Ordering& o);

// "not repeatable (wobble ±12.3%)" for a benchmark whose moves are mostly wobble; "" else.
std::string noise_note(const history::BenchmarkWobble& w);

}  // namespace cgbench::report
