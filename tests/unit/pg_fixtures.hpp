#pragma once
// The test suite's PostgreSQL server (tests/support/pg_server.sh, started by the ctest fixture
// Postgres.server_start before the cases named *Postgres*): its URL, or why there is none.

#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>

namespace cgbench::testing_fixtures {

struct TestServer {
    std::string url;   // postgresql://cgbench:PASSWORD@127.0.0.1:PORT/postgres
    std::string skip;  // why there is none (one line); empty when there is
};

inline TestServer test_server() {
    const std::filesystem::path dir = CGBENCH_TEST_PG_DIR;
    const auto line = [](const std::filesystem::path& p) {
        std::ifstream in(p);
        std::string s;
        std::getline(in, s);
        return s;
    };
    if (std::filesystem::exists(dir / "url")) return {line(dir / "url"), {}};
    if (std::filesystem::exists(dir / "skip")) return {{}, "PostgreSQL: " + line(dir / "skip")};
    return {{},
            "PostgreSQL: the test server is not running (ctest starts it for these cases: "
            "ctest -R Postgres)"};
}

// `server_url` with a project of its own for `test`: unique per process and start, so a case
// run again on the same server starts empty.
inline std::string project_url(const std::string& server_url, const std::string& test) {
    const auto now = std::chrono::steady_clock::now().time_since_epoch().count();
    return server_url + "?project=" + test + "-" + std::to_string(::getpid()) + "-" +
           std::to_string(now);
}

}  // namespace cgbench::testing_fixtures
