#pragma once
// Which backend holds the history `--db` names, by the scheme of its URL: a plain path or
// sqlite:PATH is a SQLite file, memory: a history that lasts while cgbench runs. The scheme
// table in history_url.cpp is the one place that knows every backend.

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "history/backend.hpp"
#include "history/location.hpp"

namespace cgbench::access {

using history::Access;
using history::Location;

// The history `url` names, opened for `access`. Read: nullptr when there is none (no such
// file); an older SQLite schema is read through a converted copy in memory. Record: a SQLite
// file is created with its directory when missing, and a damaged, foreign, newer,
// unwritable or not regular file is an EnvironmentError (exit 4); files it created are then
// removed. UsageError (one line, naming the schemes) for any other scheme. Every message
// names the history by location.shown().
std::unique_ptr<history::HistoryBackend> open_history(const Location& location, Access access);

// The projects of the store `location` names, sorted, for the organisation view: every
// project of a PostgreSQL database; for a history that is one project by itself (a SQLite
// file, memory:), an empty list. nullopt when there is no history there. Errors as
// open_history.
std::optional<std::vector<std::string>> history_projects(const Location& location);

// For `cgbench run`, `merge` and `bisect`: open_history(url, Access::Record) before anything
// is measured, so an unusable history fails in milliseconds; nullptr when `url` is absent
// (--no-db).
std::unique_ptr<history::HistoryBackend> open_history_for_run(const std::optional<Location>& url);

// The history `url` names, opened to read when first needed (for RunResolver); nullopt when
// `url` is absent (--no-db).
std::optional<history::HistorySource> history_source(const std::optional<Location>& url);

}  // namespace cgbench::access
