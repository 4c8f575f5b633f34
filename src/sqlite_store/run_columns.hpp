#pragma once
// The columns of a stored run that every reader of runs reads alike: id, start, git facts
// (the commit's own facts included, NULL in runs recorded before schema version 4) and the
// command that recorded it.

#include <string>
#include <string_view>

#include "core/result.hpp"
#include "sqlite_store/sqlite.hpp"

namespace cgbench::sqlite_store {

// The column list, in the order read_run_columns reads it.
inline constexpr std::string_view kRunColumns =
    "id, started, git_commit, git_branch, git_dirty, commit_time, author_time, parents, subject, "
    "first_parent_depth, shallow, recorded_by";
// How many columns kRunColumns names.
inline constexpr int kRunColumnCount = 12;

// A run's columns as read.
struct RunColumns {
    std::string id;
    std::string started;
    GitInfo git;
    std::string recorded_by;  // empty: recorded by `cgbench run` (or before it was recorded)
};

// Reads the columns of kRunColumns from the current row of `s`, starting at column `first`.
RunColumns read_run_columns(const Statement& s, int first);

}  // namespace cgbench::sqlite_store
