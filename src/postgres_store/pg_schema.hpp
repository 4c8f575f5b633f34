#pragma once
// The PostgreSQL history's schema and its migrations. Everything lives in the schema
// `cgbench` of the database the URL names (a database may hold other programs' tables), its
// version in cgbench.meta; a database of a newer cgbench is refused, never altered.
// Migrations run in one transaction under an advisory lock, so of many cgbench processes
// starting at once one migrates and the others wait and find it done.

#include <string_view>
#include <vector>

#include "postgres_store/pg.hpp"

namespace cgbench::postgres_store {

// The schema version this cgbench writes and reads.
inline constexpr int kPgSchemaVersion = 3;

// One step from version - 1 to version: its SQL, then what cgbench itself converts (where
// SQL would rewrite documents its fast reader then declines). Append new steps; never edit a
// released one.
struct PgMigration {
    int version;
    std::string_view sql;
    void (*convert)(Connection&) = nullptr;
};

// The ordered list of migrations, from an empty database up to kPgSchemaVersion.
const std::vector<PgMigration>& pg_migrations();

// The schema version of the database (0: no cgbench schema yet). EnvironmentError for a
// newer version, or a `cgbench` schema that is not cgbench's. Writes nothing.
int pg_schema_version(Connection& c);

// pg_schema_version(), then the missing migrations under the lock.
void prepare_pg_schema(Connection& c);

}  // namespace cgbench::postgres_store
