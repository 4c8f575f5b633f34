// SqliteHistory::remove_runs: the deleting half of `cgbench prune` (history/prune.hpp chooses).

#include "sqlite_store/sqlite_history.hpp"

namespace cgbench::sqlite_store {

namespace {

// Runs `sql` and returns how many rows it changed.
std::size_t changed(Database& db, std::string_view sql) {
    db.exec(sql);
    return static_cast<std::size_t>(db.query_int("SELECT changes()"));
}

}  // namespace

history::RemovedRows SqliteHistory::remove_runs(const std::vector<history::Run>& runs) {
    history::RemovedRows out;
    {
        Transaction tx(db_);
        db_.exec("CREATE TEMP TABLE IF NOT EXISTS pruned (seq INTEGER PRIMARY KEY)");
        db_.exec("DELETE FROM pruned");
        auto insert = db_.prepare("INSERT OR IGNORE INTO pruned (seq) VALUES (?1)");
        for (const auto& r : runs) {
            insert.reset();
            insert.bind(1, r.handle);
            insert.run();
        }
        out.functions =
            changed(db_, "DELETE FROM result_functions WHERE run IN (SELECT seq FROM pruned)");
        db_.exec("DELETE FROM result_lines WHERE run IN (SELECT seq FROM pruned)");
        out.results = changed(db_, "DELETE FROM results WHERE run IN (SELECT seq FROM pruned)");
        out.runs = changed(db_, "DELETE FROM runs WHERE seq IN (SELECT seq FROM pruned)");
        db_.exec(
            "DELETE FROM symbols WHERE id NOT IN (SELECT symbol FROM result_functions UNION "
            "SELECT symbol FROM result_lines)");
        db_.exec(
            "DELETE FROM line_texts WHERE id NOT IN (SELECT text FROM result_lines "
            "WHERE text IS NOT NULL)");
        db_.exec("DROP TABLE pruned");
        tx.commit();
    }
    db_.exec("VACUUM");
    db_.exec_retrying_busy("PRAGMA wal_checkpoint(TRUNCATE)");
    return out;
}

}  // namespace cgbench::sqlite_store
