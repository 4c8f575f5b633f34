#include "postgres_store/pg_schema.hpp"

#include <fmt/format.h>

#include "base/errors.hpp"

namespace cgbench::postgres_store {

namespace {

// Taken by pg_advisory_xact_lock while migrating: "cgbh" in ASCII, as SQLite's application id.
constexpr long kMigrationLock = 0x63676268;

// Version 1. Projects share one database; a run belongs to one. Runs keep their facts in
// columns for finding them and their document (the result file's run object without its
// benchmarks) for reading them back; results keep what series need in columns (project
// repeated, so a project's series come from one index) and the benchmark's document, its kept
// functions included, so fields added to the result model persist without a migration.
constexpr std::string_view kVersion1 = R"sql(
CREATE SCHEMA IF NOT EXISTS cgbench;
CREATE TABLE cgbench.meta (key text PRIMARY KEY, value text NOT NULL);
CREATE TABLE cgbench.projects (
    id bigserial PRIMARY KEY,
    name text NOT NULL UNIQUE,
    created timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE cgbench.runs (
    seq bigserial PRIMARY KEY,
    project bigint NOT NULL REFERENCES cgbench.projects (id),
    id text NOT NULL,
    started text NOT NULL,
    recorded text NOT NULL,
    git_commit text,
    git_branch text,
    git_dirty boolean,
    git text NOT NULL,
    recorded_by text NOT NULL,
    shard text,
    fingerprint_key text NOT NULL,
    fingerprint text NOT NULL,
    document text NOT NULL,
    UNIQUE (project, id)
);
CREATE INDEX runs_by_started ON cgbench.runs (project, started, seq);
CREATE INDEX runs_by_commit ON cgbench.runs (project, git_commit, started);
CREATE TABLE cgbench.results (
    run bigint NOT NULL REFERENCES cgbench.runs (seq) ON DELETE CASCADE,
    position integer NOT NULL,
    project bigint NOT NULL,
    name text COLLATE "C" NOT NULL,
    status text NOT NULL,
    cost bigint,
    ir bigint,
    functions integer NOT NULL,
    data text NOT NULL,
    PRIMARY KEY (run, position)
);
CREATE INDEX results_by_name ON cgbench.results (project, name, run)
    INCLUDE (position, status, cost, ir);
)sql";

}  // namespace

const std::vector<PgMigration>& pg_migrations() {
    static const std::vector<PgMigration> list = {{1, kVersion1}};
    return list;
}

int pg_schema_version(Connection& c) {
    const auto r = c.exec(
        "SELECT to_regclass('cgbench.meta') IS NOT NULL, "
        "EXISTS (SELECT 1 FROM pg_namespace WHERE nspname = 'cgbench')");
    const bool meta = r.text(0, 0) == "t";
    if (!meta) {
        if (r.text(0, 1) == "t") {
            throw EnvironmentError(
                fmt::format("history database {} has a schema `cgbench` that is not a cgbench "
                            "history",
                            c.shown()),
                "pass --db with another database; cgbench leaves this one unchanged");
        }
        return 0;
    }
    const auto v = c.exec("SELECT value FROM cgbench.meta WHERE key = 'schema_version'");
    const int version = v.rows() == 0 ? 0 : static_cast<int>(v.int64(0, 0));
    if (version > kPgSchemaVersion) {
        throw EnvironmentError(
            fmt::format("history database {} has schema version {}, newer than this cgbench "
                        "understands ({})",
                        c.shown(), version, kPgSchemaVersion),
            "upgrade cgbench, or pass --db with another database; it was left unchanged");
    }
    return version;
}

void prepare_pg_schema(Connection& c) {
    if (pg_schema_version(c) == kPgSchemaVersion) return;
    PgTransaction tx(c);
    c.exec(fmt::format("SELECT pg_advisory_xact_lock({})", kMigrationLock));
    // Another process may have migrated while this one waited for the lock.
    const int version = pg_schema_version(c);
    if (version >= kPgSchemaVersion) return;
    for (const auto& m : pg_migrations()) {
        if (m.version > version) c.exec(m.sql);
    }
    c.exec(
        "INSERT INTO cgbench.meta (key, value) VALUES ('schema_version', $1) "
        "ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value",
        {std::to_string(kPgSchemaVersion)});
    tx.commit();
}

}  // namespace cgbench::postgres_store
