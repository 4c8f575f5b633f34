#include "e2e/harness.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <sstream>

#include "base/errors.hpp"
#include "exec/environment.hpp"
#include "exec/process.hpp"
#include "support/by_hand.hpp"
#include "util/fs.hpp"
#include "util/hash.hpp"

namespace cgbench::e2e {

namespace {

// Names what this build's tests leave in the shared temp dir: two checkouts (or build
// directories) tested at the same time on one machine must not touch each other's files.
const std::string& build_id() {
    static const std::string id = util::hex64(util::fnv1a64(CGBENCH_BINARY)).substr(0, 8);
    return id;
}

// The scratch directories this process made. A test process that passed removes them when it
// ends (ctest runs each test in its own process, so none is another's); one that failed
// leaves them to look at.
std::vector<fs::path>& made_scratch() {
    static std::vector<fs::path> dirs;
    return dirs;
}

class RemoveScratchOnPass : public ::testing::Environment {
public:
    void TearDown() override {
        if (!::testing::UnitTest::GetInstance()->Passed()) return;
        std::error_code ec;
        for (const auto& dir : made_scratch())
            fs::remove_all(dir, ec);
    }
};

[[maybe_unused]] const auto* const kRemoveScratch =
    ::testing::AddGlobalTestEnvironment(new RemoveScratchOnPass);

}  // namespace

Result cgbench(const std::vector<std::string>& args, const Options& options) {
    exec::ProcessSpec spec;
    spec.argv = {CGBENCH_BINARY};
    spec.argv.insert(spec.argv.end(), args.begin(), args.end());
    auto env = exec::current_environment();
    // Runs record into a history database; unless a test names one, it is a file in the test
    // temp dir shared by this build's tests (rather than .cgbench/ in whatever directory the
    // test runs in), named after the build: another checkout's cgbench may have migrated its
    // own to a schema this one refuses.
    env["CGBENCH_DB"] =
        (fs::path(::testing::TempDir()) / ("cgbench-e2e-" + build_id() + "-history.db")).string();
    for (const auto& u : options.unset)
        env.erase(u);
    for (const auto& [k, v] : options.env)
        env[k] = v;
    for (const auto& [k, v] : env)
        spec.env.push_back(k + "=" + v);
    spec.cwd = options.cwd;
    spec.disable_aslr = false;
    spec.timeout_seconds = options.timeout;
    spec.tail_bytes = 64 << 20;
    exec::PosixProcessRunner runner;
    const auto outcome = runner.run(spec);
    Result r;
    r.exit_code = outcome.how == exec::Termination::Exited ? outcome.exit_code : -1;
    r.out = outcome.stdout_tail;
    r.err = outcome.stderr_tail;
    return r;
}

std::pair<int, int> valgrind_version() {
    static const std::pair<int, int> version = [] {
        exec::ProcessSpec spec;
        spec.argv = {"/usr/bin/env", "valgrind", "--version"};  // "valgrind-3.24.0"
        for (const auto& [k, v] : exec::current_environment())
            spec.env.push_back(k + "=" + v);
        exec::PosixProcessRunner runner;
        const auto out = runner.run(spec).stdout_tail;
        int major = 0, minor = 0;
        if (std::sscanf(out.c_str(), "valgrind-%d.%d", &major, &minor) != 2) return std::pair{0, 0};
        return std::pair{major, minor};
    }();
    return version;
}

fs::path scratch(const std::string& name) {
    const fs::path dir =
        fs::path(::testing::TempDir()) / ("cgbench-e2e-" + build_id() + "-" + name);
    fs::remove_all(dir);
    fs::create_directories(dir);
    made_scratch().push_back(dir);
    return dir;
}

nlohmann::json read_json(const fs::path& path) {
    std::ifstream in(path);
    return nlohmann::json::parse(in);
}

fs::path write_suite(const fs::path& dir, const std::string& text) {
    const fs::path path = dir / "cgbench.toml";
    std::ofstream(path) << text;
    return path;
}

nlohmann::json benchmarks_without_wall_time(const nlohmann::json& result) {
    nlohmann::json out = result.at("benchmarks");
    for (auto& b : out)
        b.erase("wall_seconds");
    return out;
}

std::string program(const std::string& name) {
    return std::string(CGBENCH_TEST_PROGRAMS) + "/" + name;
}
std::string example(const std::string& name) {
    return std::string(CGBENCH_EXAMPLES) + "/" + name;
}

namespace {

// Runs Valgrind's annotate script `tool` on `raw` and reads its "PROGRAM TOTALS" line.
std::map<std::string, std::uint64_t> annotate_totals(const std::string& tool, const fs::path& raw) {
    exec::ProcessSpec spec;
    spec.argv = {tool, raw.string()};
    spec.env = {"PATH=/usr/bin:/bin", "LANG=C"};
    spec.tail_bytes = 64 << 20;
    exec::PosixProcessRunner runner;
    const auto out = runner.run(spec);
    EXPECT_EQ(out.exit_code, 0) << out.stderr_tail;
    // The script prints "Events shown: Ir I1mr ..." and then a line of totals ending in
    // "PROGRAM TOTALS"; callgrind_annotate prints a zero count as ".".
    std::istringstream in(out.stdout_tail);
    std::string line, events;
    std::map<std::string, std::uint64_t> totals;
    while (std::getline(in, line)) {
        if (line.rfind("Events shown:", 0) == 0) events = line.substr(13);
        if (line.find("PROGRAM TOTALS") != std::string::npos) {
            // "1,899,242 (100.0%) 1,468 (100.0%) ... PROGRAM TOTALS"
            std::istringstream ev(events), tokens(line);
            std::vector<std::uint64_t> numbers;
            std::string tok;
            while (tokens >> tok && tok != "PROGRAM") {
                if (tok.find('%') != std::string::npos || tok.front() == '(') continue;
                tok.erase(std::remove(tok.begin(), tok.end(), ','), tok.end());
                numbers.push_back(tok == "." ? 0 : std::stoull(tok));
            }
            std::string name;
            for (std::size_t i = 0; ev >> name && i < numbers.size(); ++i)
                totals[name] = numbers[i];
        }
    }
    return totals;
}

}  // namespace

std::map<std::string, std::uint64_t> cg_annotate_totals(const fs::path& raw) {
    return annotate_totals("/usr/bin/cg_annotate", raw);
}

std::map<std::string, std::uint64_t> callgrind_annotate_totals(const fs::path& raw) {
    return annotate_totals("/usr/bin/callgrind_annotate", raw);
}

std::map<std::string, std::uint64_t> log_collected(const fs::path& log) {
    return test::counts_by_hand(util::read_file(log), "Events    :", "Collected :");
}

std::map<std::string, std::uint64_t> callgrind_totals_by_hand(const fs::path& dump) {
    return test::counts_by_hand(util::read_file(dump), "events:", "totals:");
}

std::optional<std::uint64_t> log_instruction_refs(const fs::path& log) {
    // "==123== I   refs:      1,234,567" (Valgrind 3.19), "==123== I refs:        1,234,567"
    // (3.24)
    std::ifstream in(log);
    std::string line;
    while (std::getline(in, line)) {
        auto at = line.find("== I ");
        if (at == std::string::npos) continue;
        at = line.find_first_not_of(' ', at + 5);
        if (at == std::string::npos || line.compare(at, 5, "refs:") != 0) continue;
        std::string digits;
        for (const char c : line.substr(at + 5)) {
            if (c >= '0' && c <= '9') digits += c;
        }
        if (!digits.empty()) return std::stoull(digits);
    }
    return std::nullopt;
}

std::vector<int> processes_mentioning(const std::string& text) {
    std::vector<int> out;
    for (const auto& entry : fs::directory_iterator("/proc")) {
        const std::string pid = entry.path().filename();
        if (pid.find_first_not_of("0123456789") != std::string::npos) continue;
        std::string cmdline, status;
        try {
            cmdline = util::read_file(entry.path() / "cmdline");
            status = util::read_file(entry.path() / "stat");
        } catch (const Error&) {
            continue;  // it ended meanwhile
        }
        const auto close = status.rfind(')');
        const bool zombie =
            close != std::string::npos && status.size() > close + 2 && status[close + 2] == 'Z';
        if (!zombie && cmdline.find(text) != std::string::npos) out.push_back(std::stoi(pid));
    }
    return out;
}

nlohmann::json run_document(const std::vector<std::string>& run_args, const Options& options) {
    std::vector<std::string> args = {"run", "--format", "json"};
    args.insert(args.end(), run_args.begin(), run_args.end());
    const Result r = cgbench(args, options);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return r.exit_code == 0 ? nlohmann::json::parse(r.out) : nlohmann::json();
}

nlohmann::json measure_events(const std::vector<std::string>& run_args, const Options& options) {
    const auto doc = run_document(run_args, options);
    return doc.is_null() ? nlohmann::json() : doc["benchmarks"][0]["events"];
}

std::uint64_t ir(const nlohmann::json& benchmark) {
    return benchmark["events"]["Ir"].get<std::uint64_t>();
}

}  // namespace cgbench::e2e
