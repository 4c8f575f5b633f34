#pragma once
// One behavioural test, every history backend: a typed fixture whose `store` is a fresh
// SQLite file (opened as `cgbench run` opens it), a fresh history in memory, or a fresh project
// on the test suite's PostgreSQL server. TYPED_TEST cases of a fixture derived from
// HistoryBackendTest run once per backend, named FIXTURE/Sqlite.CASE, FIXTURE/Memory.CASE and
// FIXTURE/Postgres.CASE (which skip, saying why, when the server is not running).

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "access/history_url.hpp"
#include "access/memory_history.hpp"
#include "history/backend.hpp"
#include "pg_fixtures.hpp"
#include "run_fixtures.hpp"
#include "sqlite_store/sqlite_history.hpp"

namespace cgbench::testing_fixtures {

// A run with a failed result, a hostile name, warnings and repeated measurements.
inline RunResult rich_run(std::string id) {
    auto r = run(std::move(id),
                 {bench("parse/small", 100000), bench(kHostile, 200000), failed_bench("broken")});
    r.warnings = {"ASLR could not be disabled"};
    r.benchmarks[0].warnings = {"a per-benchmark warning"};
    r.benchmarks[1].runs = 3;
    r.fingerprint.valgrind_options = {"--fair-sched=yes"};
    return r;
}

// A SQLite history in a fresh file: recording opens it as `cgbench run` does, reading as
// the reading commands do (read-only).
struct SqliteBackend {
    static constexpr const char* kName = "Sqlite";
    std::string unavailable() const { return {}; }
    fs::path path;
    explicit SqliteBackend(const std::string& test)
        : path(fresh_dir("cgbench-backend-" + test) / "h.db") {}
    std::unique_ptr<history::HistoryBackend> record() {
        return sqlite_store::SqliteHistory::open_for_recording(path);
    }
    std::unique_ptr<history::HistoryBackend> read() {
        return sqlite_store::SqliteHistory::open_existing(path);
    }
};

// A history in memory; every opening shares its runs, as openings of one file do.
struct MemoryBackend {
    static constexpr const char* kName = "Memory";
    std::string unavailable() const { return {}; }
    access::MemoryHistory history;
    explicit MemoryBackend(const std::string&) {}
    std::unique_ptr<history::HistoryBackend> record() { return history.share(); }
    std::unique_ptr<history::HistoryBackend> read() { return history.share(); }
};

// A fresh project on the suite's PostgreSQL server (pg_fixtures.hpp): the cases share the
// server, and each sees only its own runs.
struct PostgresBackend {
    static constexpr const char* kName = "Postgres";
    TestServer server = test_server();
    std::string url;
    explicit PostgresBackend(const std::string& test)
        : url(server.url.empty() ? "" : project_url(server.url, test)) {}
    std::string unavailable() const { return server.skip; }
    std::unique_ptr<history::HistoryBackend> record() {
        if (url.empty()) return nullptr;
        return access::open_history(url, history::Access::Record);
    }
    std::unique_ptr<history::HistoryBackend> read() {
        if (url.empty()) return nullptr;
        return access::open_history(url, history::Access::Read);
    }
};

template <typename Backend>
class HistoryBackendTest : public ::testing::Test {
  protected:
    HistoryBackendTest() : backend_(test_name()), opened_(backend_.record()) {}
    void SetUp() override {
        if (!backend_.unavailable().empty()) GTEST_SKIP() << backend_.unavailable();
    }

    // The history the case records in, opened for recording.
    history::HistoryBackend& backend() { return *opened_; }
    // Closes it, as a command ending does.
    void close() { opened_.reset(); }
    // A second opening, to read (what `steps` or `history` would see).
    std::unique_ptr<history::HistoryBackend> reopen_to_read() { return backend_.read(); }

  private:
    static std::string test_name() {
        const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
        std::string name = std::string(info->test_suite_name()) + "-" + info->name();
        for (auto& c : name) {
            if (c == '/') c = '-';
        }
        return name;
    }

    Backend backend_;
    std::unique_ptr<history::HistoryBackend> opened_;
};

// Names each backend's cases by its kName (TYPED_TEST_SUITE's third argument).
struct BackendNames {
    template <typename T>
    static std::string GetName(int) {
        return T::kName;
    }
};

// Every backend the typed cases run against: a new one is a struct like those above, added
// here.
using Backends = ::testing::Types<SqliteBackend, MemoryBackend, PostgresBackend>;

}  // namespace cgbench::testing_fixtures
