// Nothing the program can see varies between runs, parallel jobs or callers: a Python workload
// whose dict and set layouts follow the hashes of every string it sees (its own path, sys.path,
// HOME...) gives the same counts in every case.

#include <gtest/gtest.h>

#include <fstream>

#include "e2e/harness.hpp"
#include "util/fs.hpp"

namespace cgbench::e2e {

namespace {

// An executable `#!/usr/bin/env python3` copy of tests/programs/pydict.py in `dir`.
fs::path python_workload(const fs::path& dir) {
    const fs::path script = dir / "pydict.py";
    std::ofstream(script) << "#!/usr/bin/env python3\n"
                          << util::read_file(fs::path(CGBENCH_SOURCE_DIR) /
                                             "tests/programs/pydict.py");
    fs::permissions(script, fs::perms::owner_all | fs::perms::group_read |
                                fs::perms::group_exec | fs::perms::others_read |
                                fs::perms::others_exec);
    return script;
}

// The system's python3 (a pyenv or virtualenv on the caller's PATH would be measured as well,
// shims and all, but slowly).
constexpr const char* kPath = "/usr/bin:/bin";

nlohmann::json events_of(const std::vector<std::string>& args, Options options = {}) {
    std::vector<std::string> all = {"--no-db"};
    all.insert(all.end(), args.begin(), args.end());
    options.env.emplace("PATH", kPath);
    return measure_events(all, options);
}

}  // namespace

TEST(Repeatability, PythonWorkloadVerifies) {
    const auto dir = scratch("rep-verify");
    const auto script = python_workload(dir);
    const auto r = cgbench({"run", "--no-db", "--verify", "3", "--", script.string()},
                           {.env = {{"PATH", kPath}}});
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
}

TEST(Repeatability, PythonWorkloadIgnoresTheCaller) {
    const auto dir = scratch("rep-caller");
    const auto script = python_workload(dir);
    const auto base = events_of({"--", script.string()});
    ASSERT_FALSE(base.empty());
    EXPECT_EQ(events_of({"--", script.string()}, {.cwd = "/"}), base) << "another cwd";
    EXPECT_EQ(events_of({"--", "./pydict.py"}, {.cwd = dir.string()}), base)
        << "a relative program path";
    EXPECT_EQ(events_of({"--", script.string()},
                        {.env = {{"CGBENCH_TEST_BIG", std::string(5000, 'x')}}}),
              base)
        << "a 5 kB variable more";
    EXPECT_EQ(events_of({"--", script.string()}, {.env = {{"PYTHONHASHSEED", "7"}}}), base)
        << "another PYTHONHASHSEED";
    EXPECT_EQ(events_of({"--", script.string()},
                        {.env = {{"HOME", "/home/someone-else"}, {"USER", "someone-else"},
                                 {"LOGNAME", "someone-else"}, {"TMPDIR", "/var/tmp/x"}}}),
              base)
        << "another HOME, USER, LOGNAME and TMPDIR";
    // Python decodes PATH at start-up (~38 Ir a byte when it was passed through).
    EXPECT_EQ(events_of({"--", script.string()},
                        {.env = {{"PATH", "/" + std::string(1000, 'p') + ":" + kPath}}}),
              base)
        << "a 1 kB longer PATH";
}

TEST(Repeatability, TheBuildDirectorysNameDoesNotCount) {
    // The same binary under two differently named build directories of one checkout (the
    // parent's name is part of the path the program runs by).
    const auto dir = scratch("rep-build-dir");
    nlohmann::json first;
    for (const std::string build : {"build", "cmake-build-release", "out"}) {
        fs::create_directories(dir / build);
        const auto copy = dir / build / "workload";
        fs::copy_file(program("workload"), copy, fs::copy_options::overwrite_existing);
        const auto events = events_of({"--", copy.string(), "2000"});
        ASSERT_FALSE(events.empty());
        if (first.is_null()) first = events;
        EXPECT_EQ(events, first) << "under " << build << "/";
    }
}

TEST(Repeatability, PythonWorkloadInAParallelSuite) {
    const auto dir = scratch("rep-suite");
    python_workload(dir);
    write_suite(dir, R"([[bench]]
name = "py/a"
command = ["./pydict.py"]

[[bench]]
name = "py/b"
command = ["./pydict.py"]
)");
    const auto run = [&](const std::string& jobs) {
        const auto out = dir / ("j" + jobs + ".json");
        const auto r = cgbench({"run", "-q", "--no-db", "-j", jobs, "--suite",
                                (dir / "cgbench.toml").string(), "--out", out.string()},
                               {.env = {{"PATH", kPath}}});
        EXPECT_EQ(r.exit_code, 0) << r.err;
        return read_json(out);
    };
    const auto one = run("1");
    const auto two = run("2");
    EXPECT_EQ(benchmarks_without_wall_time(one), benchmarks_without_wall_time(two));
    EXPECT_EQ(one["benchmarks"][0]["events"], one["benchmarks"][1]["events"]);
}

TEST(Repeatability, FirstRunOnAFreshCopyEqualsTheSecond) {
    const auto dir = scratch("rep-pycache");
    std::ofstream(dir / "helper.py") << "def table(n):\n"
                                        "    return {('k%d' % i): i for i in range(n)}\n";
    std::ofstream(dir / "main.py") << "import helper\nprint(len(helper.table(500)))\n";
    const std::vector<std::string> args = {"--", "python3", "main.py"};
    ASSERT_FALSE(fs::exists(dir / "__pycache__"));
    const auto first = events_of(args, {.cwd = dir.string()});
    const auto second = events_of(args, {.cwd = dir.string()});
    ASSERT_FALSE(first.empty());
    EXPECT_EQ(first, second);
    EXPECT_TRUE(fs::exists(dir / "__pycache__")) << "the warm-up run compiled helper.py";
}

}  // namespace cgbench::e2e
