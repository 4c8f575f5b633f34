#pragma once
// Helpers for end-to-end tests: run the real cgbench binary, read what it wrote.

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace cgbench::e2e {

namespace fs = std::filesystem;

struct Result {
    int exit_code = -1;
    std::string out;
    std::string err;
};

struct Options {
    std::map<std::string, std::string> env = {};  // added to (or replacing) the test's environment
    std::vector<std::string> unset = {};          // removed from it
    std::string cwd = {};
    double timeout = 600;
};

// Runs `cgbench ARGS...` and waits for it. CGBENCH_DB points to a shared database in the
// test temp dir unless `options` sets or unsets it.
Result cgbench(const std::vector<std::string>& args, const Options& options = {});

// A fresh empty directory under the test temp dir, private to this build directory.
fs::path scratch(const std::string& name);

// C source of the two functions the history and pull-request test repositories measure:
// accumulate(n) (n multiplications) and checksum(n) (n xors), neither inlined.
inline constexpr const char* kWorkFunctions =
    "static volatile unsigned long sink;\n"
    "__attribute__((noinline)) static void accumulate(long n) {\n"
    "    for (long i = 0; i < n; ++i) sink += (unsigned long)i * 2654435761UL;\n"
    "}\n"
    "__attribute__((noinline)) static void checksum(long n) {\n"
    "    for (long i = 0; i < n; ++i) sink ^= (unsigned long)i;\n"
    "}\n";

nlohmann::json read_json(const fs::path& path);

// Path of a test program / example built by the test suite.
std::string program(const std::string& name);
std::string example(const std::string& name);

// Valgrind's own totals for a kept raw file, read with cg_annotate (an independent reader).
std::map<std::string, std::uint64_t> cg_annotate_totals(const fs::path& raw);

// The same for a Callgrind dump, read with callgrind_annotate. Its PROGRAM TOTALS are the
// file's `summary:` line, which Callgrind computes apart from the cost lines.
std::map<std::string, std::uint64_t> callgrind_annotate_totals(const fs::path& raw);

// Callgrind's own count of everything it collected in a run, from its log ("Events    : Ir
// Dr ..." and "Collected : 123 45 ..."; missing trailing counts are zero).
std::map<std::string, std::uint64_t> log_collected(const fs::path& log);

// The `totals:` line of a Callgrind dump, read with plain string splitting.
std::map<std::string, std::uint64_t> callgrind_totals_by_hand(const fs::path& dump);

// Valgrind's own summary from its log ("I   refs:      1,234"), for Ir.
std::optional<std::uint64_t> log_instruction_refs(const fs::path& log);

// Writes `text` to DIR/cgbench.toml and returns that path.
fs::path write_suite(const fs::path& dir, const std::string& text);

// The "benchmarks" array of a result document without the wall times (which are the only
// values allowed to differ between two measurements of the same suite).
nlohmann::json benchmarks_without_wall_time(const nlohmann::json& result);

// Runs `cgbench run --format json RUN_ARGS` and returns the result document (asserting
// success; null when it failed).
nlohmann::json run_document(const std::vector<std::string>& run_args, const Options& options = {});

// A result document's benchmark's Ir.
std::uint64_t ir(const nlohmann::json& benchmark);

// Runs cgbench and returns the result JSON's first benchmark's events (asserting success).
nlohmann::json measure_events(const std::vector<std::string>& run_args,
                              const Options& options = {});

// The version of the Valgrind on PATH as (major, minor); (0, 0) when it does not run.
std::pair<int, int> valgrind_version();

// Skips the calling test, saying why, when the Valgrind on PATH predates Cachegrind's
// start/stop requests (3.22): regions are then measured with Callgrind only.
#define SKIP_WITHOUT_CACHEGRIND_REGIONS()                                                  \
    do {                                                                                   \
        if (::cgbench::e2e::valgrind_version() < std::pair{3, 22}) {                       \
            GTEST_SKIP() << "Valgrind " << ::cgbench::e2e::valgrind_version().first << "." \
                         << ::cgbench::e2e::valgrind_version().second                      \
                         << " has no Cachegrind start/stop requests (3.22 and later do)";  \
        }                                                                                  \
    } while (false)

// Live processes whose command line mentions `text` (a scratch directory unique to the test).
std::vector<int> processes_mentioning(const std::string& text);

}  // namespace cgbench::e2e
