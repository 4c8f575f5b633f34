#pragma once
// Recording runs in SQLite: one BEGIN IMMEDIATE transaction per batch. A transaction per run
// spends most of its time making the commit durable, so `cgbench import` fills batches of
// many runs; `record_run` is a batch of one.

#include <string_view>

#include "history/backend.hpp"
#include "sqlite_store/function_store.hpp"
#include "sqlite_store/line_store.hpp"
#include "sqlite_store/sqlite.hpp"

namespace cgbench::sqlite_store {

// A history::RunBatch of a SqliteHistory (SqliteHistory::begin_batch makes these).
class SqliteRunBatch final : public history::RunBatch {
  public:
    // Begins the transaction (waits while another process holds the write lock) and checks
    // the schema version again under the lock: a newer cgbench may have migrated the file.
    explicit SqliteRunBatch(Database& db);

    // history::RunBatch: find() also sees what this batch added; commit() ends the
    // transaction (EnvironmentError when it fails, and then nothing is stored).
    std::optional<history::StoredRunInfo> find(std::string_view id) override;
    void commit() override;

  protected:
    // The run row, a row per result (numbers, document), its kept functions and lines.
    void write(const RunResult& run) override;

  private:
    Database& db_;
    Transaction tx_;
    int version_;
    Statement find_run_;
    Statement insert_run_;
    Statement insert_result_;
    FunctionWriter functions_;
    LineWriter lines_;
};

}  // namespace cgbench::sqlite_store
