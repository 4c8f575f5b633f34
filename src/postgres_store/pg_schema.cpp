#include "postgres_store/pg_schema.hpp"

#include <fmt/format.h>

#include "base/errors.hpp"
#include "postgres_store/pg_functions.hpp"

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

// Version 2: each result's kept source lines (history::kept_lines) leave the document for
// `result_lines`, their file and function interned in `symbols` and their texts in
// `line_texts` (unique by md5: a btree entry holds at most ~2.7 KB, a C++ name can be longer).
// Stored documents with lines are converted; one whose lines do not all fit (not valid JSON,
// a malformed entry, events other than Ir) keeps them. A converted document is rewritten by
// jsonb (its keys reordered), which the reader reads the general way.
constexpr std::string_view kVersion2 = R"sql(
CREATE TABLE cgbench.symbols (id bigserial PRIMARY KEY, file text NOT NULL, name text NOT NULL);
CREATE UNIQUE INDEX symbols_by_name ON cgbench.symbols (md5(file), md5(name));
CREATE TABLE cgbench.line_texts (id bigserial PRIMARY KEY, text text NOT NULL);
CREATE UNIQUE INDEX line_texts_by_text ON cgbench.line_texts (md5(text));
CREATE TABLE cgbench.result_lines (
    run bigint NOT NULL,
    position integer NOT NULL,
    rank integer NOT NULL,
    symbol bigint NOT NULL REFERENCES cgbench.symbols (id),
    line bigint NOT NULL,
    text bigint REFERENCES cgbench.line_texts (id),
    cost bigint NOT NULL,
    ir bigint,
    PRIMARY KEY (run, position, rank),
    FOREIGN KEY (run, position) REFERENCES cgbench.results (run, position) ON DELETE CASCADE
);
CREATE FUNCTION pg_temp.cgbench_document(t text) RETURNS jsonb LANGUAGE plpgsql AS $f$
BEGIN
    RETURN t::jsonb;
EXCEPTION WHEN others THEN
    RETURN NULL;
END
$f$;
CREATE FUNCTION pg_temp.cgbench_count(v jsonb, low numeric, high numeric) RETURNS boolean
LANGUAGE sql AS $f$
    SELECT CASE WHEN jsonb_typeof(v) = 'number' AND v #>> '{}' ~ '^[0-9]{1,19}$'
                THEN (v #>> '{}')::numeric BETWEEN low AND high ELSE false END
$f$;
CREATE TEMP TABLE v2_documents ON COMMIT DROP AS
    SELECT run, position, pg_temp.cgbench_document(data) AS doc FROM cgbench.results
    WHERE data LIKE '%"lines":%';
DELETE FROM v2_documents
    WHERE doc IS NULL OR jsonb_typeof(doc -> 'lines') IS DISTINCT FROM 'array';
CREATE TEMP TABLE v2_lines ON COMMIT DROP AS
    SELECT d.run, d.position, (l.ord - 1)::integer AS rank, l.v ->> 'file' AS file,
           l.v ->> 'function' AS function, l.v ->> 'line' AS line, l.v ->> 'text' AS text,
           l.v ->> 'cost' AS cost, l.v -> 'events' ->> 'Ir' AS ir,
           jsonb_typeof(l.v -> 'file') = 'string' AND jsonb_typeof(l.v -> 'function') = 'string'
           AND coalesce(jsonb_typeof(l.v -> 'text'), 'string') = 'string'
           AND pg_temp.cgbench_count(l.v -> 'line', 1, 4294967295)
           AND pg_temp.cgbench_count(l.v -> 'cost', 0, 9223372036854775807)
           AND CASE WHEN jsonb_typeof(l.v -> 'events') = 'object'
                    THEN (l.v -> 'events') - 'Ir' = '{}'::jsonb
                         AND (l.v -> 'events' -> 'Ir' IS NULL
                              OR pg_temp.cgbench_count(l.v -> 'events' -> 'Ir', 0,
                                                       9223372036854775807))
                    ELSE false END AS fits
    FROM v2_documents d, jsonb_array_elements(d.doc -> 'lines') WITH ORDINALITY AS l (v, ord);
DELETE FROM v2_lines WHERE (run, position) IN (
    SELECT run, position FROM v2_lines WHERE fits IS NOT TRUE);
INSERT INTO cgbench.symbols (file, name)
    SELECT DISTINCT file, function FROM v2_lines ON CONFLICT DO NOTHING;
INSERT INTO cgbench.line_texts (text)
    SELECT DISTINCT text FROM v2_lines WHERE text <> '' ON CONFLICT DO NOTHING;
INSERT INTO cgbench.result_lines (run, position, rank, symbol, line, text, cost, ir)
    SELECT l.run, l.position, l.rank, s.id, l.line::bigint, t.id, l.cost::bigint, l.ir::bigint
    FROM v2_lines l
    JOIN cgbench.symbols s ON md5(s.file) = md5(l.file) AND md5(s.name) = md5(l.function)
                           AND s.file = l.file AND s.name = l.function
    LEFT JOIN cgbench.line_texts t ON md5(t.text) = md5(l.text) AND t.text = l.text;
UPDATE cgbench.results r SET data = (d.doc - 'lines')::text FROM v2_documents d
    WHERE r.run = d.run AND r.position = d.position
      AND ((d.run, d.position) IN (SELECT run, position FROM v2_lines)
           OR jsonb_array_length(d.doc -> 'lines') = 0);
DROP FUNCTION pg_temp.cgbench_document(text);
DROP FUNCTION pg_temp.cgbench_count(jsonb, numeric, numeric);
)sql";

// Version 3: each result's kept functions leave the document for `function_list`
// (postgres_store/pg_functions.hpp), moved by move_functions_out: the text of the document
// and of the array as they were written, which jsonb would reorder. A document it cannot
// split keeps its functions, and the reader takes them from there. The lines are indexed by
// name and text, so that removing runs finds the names and texts no line uses any more
// (without, each deleted name's foreign-key check would scan every line).
constexpr std::string_view kVersion3 = R"sql(
ALTER TABLE cgbench.results ADD COLUMN function_list text;
CREATE INDEX result_lines_by_symbol ON cgbench.result_lines (symbol);
CREATE INDEX result_lines_by_text ON cgbench.result_lines (text);
)sql";

}  // namespace

const std::vector<PgMigration>& pg_migrations() {
    static const std::vector<PgMigration> list = {
        {1, kVersion1}, {2, kVersion2}, {3, kVersion3, move_functions_out}};
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
        if (m.version <= version) continue;
        c.exec(m.sql);
        if (m.convert != nullptr) m.convert(c);
    }
    c.exec(
        "INSERT INTO cgbench.meta (key, value) VALUES ('schema_version', $1) "
        "ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value",
        {std::to_string(kPgSchemaVersion)});
    tx.commit();
}

}  // namespace cgbench::postgres_store
