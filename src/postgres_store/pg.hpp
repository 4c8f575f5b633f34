#pragma once
// An RAII layer over libpq: a connection opened from a --db postgresql:// URL, statements with
// text parameters, results read by row and column, transactions rolled back unless
// committed. Every error is one line naming the history by its URL without the password.

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

struct pg_conn;
struct pg_result;

namespace cgbench::postgres_store {

class CopyRow;

// What a --db postgresql://... URL says: what libpq connects with, what messages show (no
// password, ever), and the project the URL names (?project=NAME), if any.
struct PgLocation {
    std::string conninfo;  // the URL without `project`, for libpq
    std::string shown;     // postgresql://USER@HOST:PORT/DB
    std::optional<std::string> project;
};

// Parses `url` (postgresql://... or postgres://...). UsageError (exit 2) for bad syntax,
// naming libpq's reason and never the password.
PgLocation parse_location(const std::string& url);

// One parameter of a statement: text, or NULL.
using Param = std::optional<std::string>;

// A query's rows, as text.
class PgResult {
  public:
    explicit PgResult(pg_result* r);
    PgResult(PgResult&& other) noexcept;
    PgResult& operator=(PgResult&&) = delete;
    ~PgResult();

    int rows() const;
    bool null(int row, int column) const;
    std::string_view text(int row, int column) const;
    std::optional<std::string> optional_text(int row, int column) const;
    std::int64_t int64(int row, int column) const;
    std::optional<std::int64_t> optional_int64(int row, int column) const;
    // A boolean column ("t" or "f"); nullopt for NULL.
    std::optional<bool> optional_bool(int row, int column) const;
    // The number of rows an INSERT, UPDATE or DELETE touched.
    std::size_t affected() const;
    // Whether the query returned rows (it ran, and was a query).
    bool has_rows() const;
    // libpq's result, for what this class does not read.
    pg_result* raw() const { return r_; }

  private:
    pg_result* r_;
};

// One connection (not shared between threads).
class Connection {
  public:
    // Connects (password from the URL, PGPASSWORD or ~/.pgpass, as libpq reads them);
    // EnvironmentError (exit 4) naming location.shown when the server cannot be reached or
    // refuses, UsageError... never: syntax was checked by parse_location.
    explicit Connection(const PgLocation& location);
    Connection(Connection&&) noexcept;
    Connection& operator=(Connection&&) = delete;
    ~Connection();

    // Runs `sql` (several statements allowed when there are no parameters).
    PgResult exec(std::string_view sql);
    PgResult exec(std::string_view sql, const std::vector<Param>& params);
    // Runs the query `query` as COPY (query) TO STDOUT (FORMAT binary) and hands each row to
    // `row` as it arrives (pg_copy.hpp): the cheapest way for the server to send many rows.
    // COPY takes no parameters: values go in as literal() or integers. An exception from
    // `row` cancels the query, leaving the connection usable.
    void copy_out(std::string_view query, const std::function<void(const CopyRow&)>& row);
    // `value` as an SQL string literal, quoted and escaped, for a query copy_out runs.
    std::string literal(std::string_view value) const;
    // Connects again with the same parameters when the connection was lost (the server
    // restarted, an idle timeout cut it while a run was measured); EnvironmentError when
    // that fails too.
    void revive();
    // What messages call it.
    const std::string& shown() const { return shown_; }

  private:
    [[noreturn]] void fail(std::string_view what) const;

    pg_conn* conn_ = nullptr;
    std::string shown_;
};

// BEGIN on construction; ROLLBACK when destroyed uncommitted.
class PgTransaction {
  public:
    explicit PgTransaction(Connection& c);
    PgTransaction(const PgTransaction&) = delete;
    PgTransaction& operator=(const PgTransaction&) = delete;
    ~PgTransaction();
    // COMMIT; EnvironmentError when the server refuses (then nothing is stored).
    void commit();

  private:
    Connection& c_;
    bool open_ = true;
};

// Whether this cgbench was built with libpq (the static build is not): without it, every
// postgresql:// history is refused with exit 4.
bool built_in();

// `values` as a PostgreSQL array literal of integers ("{1,2,3}").
std::string int_array(const std::vector<std::int64_t>& values);

// `values` as a PostgreSQL array literal of quoted texts, nullopt as NULL ({"a","b\"c",NULL}),
// for a parameter cast to text[] (or to a numeric array: PostgreSQL converts each element).
std::string text_array(const std::vector<Param>& values);

}  // namespace cgbench::postgres_store
