#pragma once
// Which history database a command uses: default < CGBENCH_DB < --db; --no-db turns the
// database off entirely.

#include <optional>
#include <string>
#include <string_view>

#include "exec/environment.hpp"
#include "history/location.hpp"

namespace cgbench::config {

// Where the history lives unless told otherwise (relative to the working directory).
inline constexpr std::string_view kDefaultDbPath = ".cgbench/history.db";

// What the command line said (CLI11 fills this).
struct DbInput {
    std::optional<std::string> path;     // --db
    std::optional<std::string> project;  // --project
    bool disabled = false;               // --no-db
};

// Where the history is (a path or a URL; history::Location), or nullopt with --no-db. Throws
// UsageError for an empty one. For a postgresql:// URL, the project (--project, else
// CGBENCH_PROJECT) goes into the URL as ?project=NAME (the backend takes the git remote's path when
// there is none); --project with any other history is a UsageError.
std::optional<history::Location> resolve_db(const DbInput& input, const exec::EnvMap& env);

}  // namespace cgbench::config
