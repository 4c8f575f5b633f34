#pragma once
// The history database's schema and its migrations. The version lives in PRAGMA user_version
// and the file is marked as cgbench's with PRAGMA application_id, so a database from a newer
// cgbench or another program is refused, never altered.

#include <cstdint>
#include <string_view>
#include <vector>

#include "sqlite_store/sqlite.hpp"

namespace cgbench::sqlite_store {

// The schema version this cgbench writes and reads.
inline constexpr int kSchemaVersion = 5;

// "cgbh" in ASCII: PRAGMA application_id of every history database.
inline constexpr std::int32_t kApplicationId = 0x63676268;

// One step from version - 1 to version. Append new steps; never edit a released one.
struct Migration {
    int version;
    std::string_view sql;
};

// The ordered list of migrations, from an empty file up to kSchemaVersion.
const std::vector<Migration>& migrations();

// The schema version of `db`, after checking that it is a cgbench history database (or an
// empty file) that this cgbench understands. Throws EnvironmentError for a damaged or
// foreign file and for a newer schema. Writes nothing.
int check_schema(Database& db);

// check_schema(), then switches to WAL and applies the missing migrations in one
// transaction (concurrent openers wait for each other; only the first migrates).
void prepare_schema(Database& db);

}  // namespace cgbench::sqlite_store
