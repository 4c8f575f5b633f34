#include "sqlite_store/schema.hpp"

#include <fmt/format.h>

#include "base/errors.hpp"
#include "metrics/events.hpp"

namespace cgbench::sqlite_store {

namespace {

// Version 1. Runs carry git facts and the fingerprint (JSON); results carry the indexed
// numbers (one column per event, the derived hits, the cost) and the whole per-benchmark
// JSON in `data`, so fields added to the result model persist without a migration.
constexpr std::string_view kVersion1 = R"sql(
CREATE TABLE runs (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    started TEXT NOT NULL,
    recorded TEXT NOT NULL,
    git_commit TEXT,
    git_branch TEXT,
    git_dirty INTEGER,
    fingerprint_key TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    warnings TEXT NOT NULL
);
CREATE INDEX runs_by_commit ON runs (git_commit, started);
CREATE INDEX runs_by_started ON runs (started);
CREATE TABLE results (
    run INTEGER NOT NULL REFERENCES runs (seq) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    name TEXT NOT NULL,
    status TEXT NOT NULL,
    tool TEXT NOT NULL,
    cost INTEGER,
    ir INTEGER, i1mr INTEGER, ilmr INTEGER, dr INTEGER, d1mr INTEGER, dlmr INTEGER,
    dw INTEGER, d1mw INTEGER, dlmw INTEGER, bc INTEGER, bcm INTEGER, bi INTEGER, bim INTEGER,
    l1_hits INTEGER, ll_hits INTEGER, ram_hits INTEGER,
    data TEXT NOT NULL,
    PRIMARY KEY (run, position)
) WITHOUT ROWID;
CREATE INDEX results_by_name ON results (name, run, status, cost, ir);
)sql";

// Version 2: which shard of a split a run measured, so that shard runs (a part of a suite)
// are never taken for a suite's previous costs.
constexpr std::string_view kVersion2 = R"sql(
ALTER TABLE runs ADD COLUMN shard TEXT;
ALTER TABLE runs ADD COLUMN shard_balance TEXT;
)sql";

// Version 3: each result's functions (fold_functions: the costliest ones and "(other)", cost
// and Ir) leave the per-benchmark JSON for a narrow table, their names interned once in
// `symbols`: a document with functions was about 1.5 KB, and rows over ~1 KB of a WITHOUT
// ROWID table spill into overflow pages. `rank` is the function's index in the result's list.
// Stored documents are converted in SQL. A document whose functions do not all fit the table
// (not valid JSON, an entry without file, name or integer cost, events other than Ir) keeps
// them, for the reader to read or report as before.
constexpr std::string_view kVersion3 = R"sql(
CREATE TABLE symbols (
    id INTEGER PRIMARY KEY,
    file TEXT NOT NULL,
    name TEXT NOT NULL,
    UNIQUE (file, name)
);
CREATE TABLE result_functions (
    run INTEGER NOT NULL,
    position INTEGER NOT NULL,
    rank INTEGER NOT NULL,
    symbol INTEGER NOT NULL REFERENCES symbols (id),
    cost INTEGER NOT NULL,
    ir INTEGER,
    PRIMARY KEY (run, position, rank),
    FOREIGN KEY (run, position) REFERENCES results (run, position) ON DELETE CASCADE
) WITHOUT ROWID;
CREATE TEMP TABLE v3_functions AS
    SELECT r.run, r.position, f.key AS rank, json_extract(f.value, '$.file') AS file,
           json_extract(f.value, '$.name') AS name, json_extract(f.value, '$.cost') AS cost,
           json_extract(f.value, '$.events.Ir') AS ir,
           json_type(f.value, '$.events') = 'object'
               AND json_remove(json_extract(f.value, '$.events'), '$.Ir') = '{}' AS ir_only
    FROM results r, json_each(r.data, '$.functions') f
    WHERE json_valid(r.data) AND json_type(r.data, '$.functions') = 'array';
DELETE FROM v3_functions WHERE (run, position) IN (
    SELECT run, position FROM v3_functions
    WHERE typeof(file) != 'text' OR typeof(name) != 'text' OR typeof(cost) != 'integer'
       OR typeof(ir) NOT IN ('integer', 'null') OR ir_only IS NOT 1);
INSERT OR IGNORE INTO symbols (file, name)
    SELECT file, name FROM v3_functions ORDER BY run, position, rank;
INSERT INTO result_functions (run, position, rank, symbol, cost, ir)
    SELECT f.run, f.position, f.rank, s.id, f.cost, f.ir
    FROM v3_functions f JOIN symbols s ON s.file = f.file AND s.name = f.name
    ORDER BY f.run, f.position, f.rank;
UPDATE results SET data = json_remove(data, '$.functions')
    WHERE (run, position) IN (SELECT run, position FROM v3_functions)
       OR json_valid(data) AND json_type(data, '$.functions') = 'array'
          AND json_array_length(data, '$.functions') = 0;
DROP TABLE v3_functions;
)sql";

// Version 4: what git said about each run's commit when it was recorded (dates, parents,
// subject, its place on its first-parent line, whether the clone was shallow), so history
// orders a branch's line by the code's history rather than by when results arrived, and
// names commits without git; and which command recorded a run measured in a worktree
// (`bisect` probes stay off every line). Runs recorded before stay without them.
constexpr std::string_view kVersion4 = R"sql(
ALTER TABLE runs ADD COLUMN commit_time TEXT;
ALTER TABLE runs ADD COLUMN author_time TEXT;
ALTER TABLE runs ADD COLUMN parents TEXT;
ALTER TABLE runs ADD COLUMN subject TEXT;
ALTER TABLE runs ADD COLUMN first_parent_depth INTEGER;
ALTER TABLE runs ADD COLUMN shallow INTEGER;
ALTER TABLE runs ADD COLUMN recorded_by TEXT;
)sql";

// Version 5: each result's kept source lines (history::kept_lines: file, function, line,
// text, cost and Ir) leave the per-benchmark JSON for a narrow table, their file and function
// interned in `symbols` as functions' are and their texts in `line_texts`: the lines made a
// document 2 to 6 KB, spilling into overflow pages. `rank` is the line's index in the
// result's list. Stored documents are converted in SQL; one whose lines do not all fit (not
// valid JSON, an entry without file, function, line number or integer cost, events other
// than Ir) keeps them, for the reader to read as before.
constexpr std::string_view kVersion5 = R"sql(
CREATE TABLE line_texts (
    id INTEGER PRIMARY KEY,
    text TEXT NOT NULL UNIQUE
);
CREATE TABLE result_lines (
    run INTEGER NOT NULL,
    position INTEGER NOT NULL,
    rank INTEGER NOT NULL,
    symbol INTEGER NOT NULL REFERENCES symbols (id),
    line INTEGER NOT NULL,
    text INTEGER REFERENCES line_texts (id),
    cost INTEGER NOT NULL,
    ir INTEGER,
    PRIMARY KEY (run, position, rank),
    FOREIGN KEY (run, position) REFERENCES results (run, position) ON DELETE CASCADE
) WITHOUT ROWID;
CREATE TEMP TABLE v5_lines AS
    SELECT r.run, r.position, l.key AS rank, json_extract(l.value, '$.file') AS file,
           json_extract(l.value, '$.function') AS function,
           json_extract(l.value, '$.line') AS line, json_extract(l.value, '$.text') AS text,
           json_extract(l.value, '$.cost') AS cost, json_extract(l.value, '$.events.Ir') AS ir,
           json_type(l.value, '$.events') = 'object'
               AND json_remove(json_extract(l.value, '$.events'), '$.Ir') = '{}' AS ir_only
    FROM results r, json_each(r.data, '$.lines') l
    WHERE json_valid(r.data) AND json_type(r.data, '$.lines') = 'array';
DELETE FROM v5_lines WHERE (run, position) IN (
    SELECT run, position FROM v5_lines
    WHERE typeof(file) != 'text' OR typeof(function) != 'text' OR typeof(line) != 'integer'
       OR line < 1 OR line > 4294967295 OR typeof(text) NOT IN ('text', 'null')
       OR typeof(cost) != 'integer' OR typeof(ir) NOT IN ('integer', 'null')
       OR ir_only IS NOT 1);
INSERT OR IGNORE INTO symbols (file, name)
    SELECT file, function FROM v5_lines ORDER BY run, position, rank;
INSERT OR IGNORE INTO line_texts (text)
    SELECT text FROM v5_lines WHERE text != '' ORDER BY run, position, rank;
INSERT INTO result_lines (run, position, rank, symbol, line, text, cost, ir)
    SELECT l.run, l.position, l.rank, s.id, l.line, t.id, l.cost, l.ir
    FROM v5_lines l JOIN symbols s ON s.file = l.file AND s.name = l.function
         LEFT JOIN line_texts t ON t.text = l.text
    ORDER BY l.run, l.position, l.rank;
UPDATE results SET data = json_remove(data, '$.lines')
    WHERE (run, position) IN (SELECT run, position FROM v5_lines)
       OR json_valid(data) AND json_type(data, '$.lines') = 'array'
          AND json_array_length(data, '$.lines') = 0;
DROP TABLE v5_lines;
)sql";

// The event columns above follow metrics::kEvents; a new event needs a new migration.
static_assert(metrics::kEventCount == 13, "add a migration with a column for the new event");

[[noreturn]] void refuse_foreign(const Database& db, std::string_view why) {
    throw EnvironmentError(
        fmt::format("{} is not a cgbench history database ({})", db.path().string(), why),
        "pass --db with another path; cgbench leaves this file unchanged");
}

void migrate(Database& db) {
    Transaction tx(db);
    // Another process may have migrated while this one waited for the lock.
    const int version = static_cast<int>(db.query_int("PRAGMA user_version"));
    if (version >= kSchemaVersion) return;
    for (const auto& m : migrations()) {
        if (m.version > version) db.exec(m.sql);
    }
    db.exec(fmt::format("PRAGMA user_version = {}", kSchemaVersion));
    db.exec(fmt::format("PRAGMA application_id = {}", kApplicationId));
    tx.commit();
}

}  // namespace

const std::vector<Migration>& migrations() {
    static const std::vector<Migration> list = {
        {1, kVersion1}, {2, kVersion2}, {3, kVersion3}, {4, kVersion4}, {5, kVersion5}};
    return list;
}

int check_schema(Database& db) {
    // One statement, so one snapshot: read separately, another process's migration could
    // commit in between and make a fresh cgbench database look like a foreign one.
    auto s = db.prepare(
        "SELECT (SELECT user_version FROM pragma_user_version), "
        "(SELECT application_id FROM pragma_application_id), (SELECT COUNT(*) FROM sqlite_master)");
    s.step();
    const int version = static_cast<int>(s.int64(0));
    const auto app = static_cast<std::int32_t>(s.int64(1));
    const auto objects = s.int64(2);
    if (app != 0 && app != kApplicationId) {
        refuse_foreign(db, fmt::format("its application id is {:#x}", app));
    }
    if (app == 0 && objects > 0) refuse_foreign(db, "an SQLite database of another program");
    if (version > kSchemaVersion) {
        throw EnvironmentError(
            fmt::format("history database {} has schema version {}, newer than this cgbench "
                        "understands ({})",
                        db.path().string(), version, kSchemaVersion),
            "upgrade cgbench, or pass --db with another path; the file was left unchanged");
    }
    return version;
}

void prepare_schema(Database& db) {
    const int version = check_schema(db);
    if (db.read_only()) return;
    db.exec_retrying_busy("PRAGMA journal_mode = WAL");
    if (version < kSchemaVersion) migrate(db);
}

}  // namespace cgbench::sqlite_store
