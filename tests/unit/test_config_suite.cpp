// Reading cgbench.toml: every setting, and every kind of mistake with its file, line and key.

#include <gtest/gtest.h>

#include <fstream>
#include <set>

#include "base/errors.hpp"
#include "config/suite.hpp"

namespace cgbench::config {

namespace {

namespace fs = std::filesystem;

constexpr const char* kFull = R"([defaults]
geometry = "ci-default"
weights = "1,6,80"
cpu_baseline = "native"
branch_sim = true
threshold = "1%"
timeout = 600
env = { MODE = "fast", LEVEL = "2" }

[[bench]]
name = "parse/large"
command = ["./build/parse", "large.json"]
cwd = "data"
stdin = "input.txt"
env = ["EXTRA=1", "HOME"]
threshold = "cost=2%|100000"
timeout = 1.5
regions = true

[[bench]]
name = "parse/small"
command = ["parse"]
)";

// The message of the UsageError that parsing `text` throws ("no error" if none).
std::string error_of(const std::string& text, const std::string& path = "suite/cgbench.toml") {
    try {
        parse_suite(text, path);
    } catch (const UsageError& e) {
        return std::string(e.what()) + " | " + e.hint();
    }
    return "no error";
}

constexpr const char* kEntry = "[[bench]]\nname = \"b\"\ncommand = [\"./p\"]\n";

}  // namespace

TEST(Suite, ReadsEverySetting) {
    const auto s = parse_suite(kFull, "/work/proj/cgbench.toml");
    EXPECT_EQ(s.dir, fs::path("/work/proj"));
    const auto& d = s.defaults;
    EXPECT_EQ(d.geometry->text, "ci-default");
    EXPECT_EQ(d.geometry->line, 2);
    EXPECT_EQ(d.weights->text, "1,6,80");
    EXPECT_EQ(d.cpu_baseline->text, "native");
    EXPECT_EQ(d.branch_sim->text, "on");
    EXPECT_EQ(d.threshold->text, "1%");
    EXPECT_EQ(d.timeout->text, "600");
    ASSERT_TRUE(d.env);
    ASSERT_EQ(d.env->requests.size(), 2u);
    EXPECT_EQ(d.env->requests[0].name, "LEVEL");  // a table is read in key order
    EXPECT_EQ(d.env->requests[1].value, "fast");
    EXPECT_EQ(d.env->line, 8);

    ASSERT_EQ(s.entries.size(), 2u);
    const auto& e = s.entries[0];
    EXPECT_EQ(e.name, "parse/large");
    EXPECT_EQ(e.line, 10);
    EXPECT_EQ(e.command, (std::vector<std::string>{"./build/parse", "large.json"}));
    EXPECT_EQ(e.cwd->text, "data");
    EXPECT_EQ(e.stdin_path->text, "input.txt");
    EXPECT_EQ(e.env->requests[0].value, "1");
    EXPECT_FALSE(e.env->requests[1].value);  // "HOME": pass the caller's value
    EXPECT_EQ(e.threshold->text, "cost=2%|100000");
    EXPECT_EQ(e.timeout->text, "1.5");
    EXPECT_EQ(e.timeout->line, 17);
    EXPECT_EQ(e.regions->text, "on");
    EXPECT_FALSE(s.entries[1].cwd);
    EXPECT_FALSE(s.entries[1].regions);
    EXPECT_EQ(s.origin(12), "/work/proj/cgbench.toml:12");
}

TEST(Suite, RelativeSuitePathsAnchorAtItsDirectory) {
    const auto s = parse_suite(kEntry, "examples/cgbench.toml");
    EXPECT_EQ(s.dir, (fs::current_path() / "examples").lexically_normal());
    EXPECT_EQ(s.origin(3), "examples/cgbench.toml:3");
}

TEST(Suite, UnknownKeysNameFileLineAndKey) {
    const auto e = error_of("[[bench]]\nname = \"parse/large\"\ncomand = [\"./p\"]\n");
    EXPECT_NE(e.find("suite/cgbench.toml:3: unknown key 'comand' in [[bench]] 'parse/large'"),
              std::string::npos)
        << e;
    EXPECT_NE(e.find("did you mean 'command'?"), std::string::npos) << e;
    EXPECT_NE(error_of(std::string("[defaults]\ntimout = 5\n") + kEntry)
                  .find(":2: unknown key 'timout' in [defaults]"),
              std::string::npos);
    EXPECT_NE(error_of(std::string(kEntry) + "[extra]\n")
                  .find(":4: unknown key 'extra' in the top level"),
              std::string::npos);
    EXPECT_NE(error_of(std::string("timeout = 5\n") + kEntry)
                  .find(":1: key 'timeout' outside any section"),
              std::string::npos);
}

TEST(Suite, RunWideSettingsAreRejectedPerEntry) {
    for (const char* key : {"geometry = \"ci-default\"", "weights = \"ir\"",
                            "cpu_baseline = \"native\"", "branch_sim = true"}) {
        const auto e = error_of(std::string(kEntry) + key + "\n");
        EXPECT_NE(e.find(":4: '"), std::string::npos) << e;
        EXPECT_NE(e.find("cannot be set in [[bench]] 'b': it is one value for the whole run"),
                  std::string::npos)
            << e;
        EXPECT_NE(e.find("set it in [defaults]"), std::string::npos) << e;
    }
}

TEST(Suite, WrongTypesNameTheKeyAndTheType) {
    const auto with_defaults = [](const std::string& line) {
        return error_of("[defaults]\n" + line + "\n" + kEntry);
    };
    EXPECT_NE(with_defaults("timeout = \"10\"")
                  .find(":2: 'timeout' in [defaults] must be a number of seconds, not a string"),
              std::string::npos);
    EXPECT_NE(with_defaults("timeout = 0").find("positive"), std::string::npos);
    EXPECT_NE(with_defaults("geometry = 5")
                  .find(":2: 'geometry' in [defaults] must be a string, not an integer"),
              std::string::npos);
    EXPECT_NE(with_defaults("branch_sim = \"yes\"").find("must be true or false"),
              std::string::npos);
    EXPECT_NE(
        with_defaults("env = \"A=1\"").find("'env' in [defaults] must be a table or an array"),
        std::string::npos);
    EXPECT_NE(with_defaults("env = { A = 1 }").find("'env.A' in [defaults] must be a string"),
              std::string::npos);
    EXPECT_NE(error_of("defaults = 3\n" + std::string(kEntry)).find("'defaults' must be a table"),
              std::string::npos);
    EXPECT_NE(error_of("[bench]\nname = \"x\"\n").find(":1: 'bench' must be an array of tables"),
              std::string::npos);
    EXPECT_NE(error_of("[[bench]]\nname = \"x\"\ncommand = \"./p --size 3\"\n")
                  .find(":3: 'command' in [[bench]] 'x' must be a non-empty array of strings"),
              std::string::npos);
    EXPECT_NE(error_of("[[bench]]\nname = \"x\"\ncommand = [\"./p\", 3]\n")
                  .find("non-empty array of strings"),
              std::string::npos);
    EXPECT_NE(error_of("[[bench]]\nname = \"x\"\ncommand = []\n").find("non-empty array"),
              std::string::npos);
    EXPECT_NE(error_of(std::string(kEntry) + "regions = \"yes\"\n")
                  .find(":4: 'regions' in [[bench]] 'b' must be true or false, not a string"),
              std::string::npos);
    EXPECT_NE(with_defaults("regions = true").find("unknown key 'regions'"), std::string::npos)
        << "regions is per benchmark";
    EXPECT_NE(error_of("[[bench]]\nname = 7\ncommand = [\"./p\"]\n")
                  .find(":2: 'name' in [[bench]] #1 must be a string"),
              std::string::npos);
}

TEST(Suite, BadValuesNameTheLine) {
    const auto with_defaults = [](const std::string& line) {
        return error_of("[defaults]\n" + line + "\n" + kEntry);
    };
    EXPECT_NE(with_defaults("geometry = \"I1=30000,8,64\"")
                  .find(":2: 'geometry' in [defaults]: invalid I1 geometry"),
              std::string::npos);
    EXPECT_NE(
        with_defaults("weights = \"1,2\"").find(":2: 'weights' in [defaults]: invalid weights"),
        std::string::npos);
    EXPECT_NE(with_defaults("cpu_baseline = \"avx9\"").find(":2: 'cpu_baseline' in [defaults]"),
              std::string::npos);
    EXPECT_NE(with_defaults("threshold = \"2 percent\"")
                  .find(":2: 'threshold' in [defaults]: invalid threshold"),
              std::string::npos);
    EXPECT_NE(
        with_defaults("env = [\"1BAD=x\"]").find(":2: invalid env entry '1BAD=x' in [defaults]"),
        std::string::npos);
    EXPECT_NE(error_of(std::string(kEntry) + "threshold = \"fast\"\n")
                  .find(":4: 'threshold' in [[bench]] 'b'"),
              std::string::npos);
}

TEST(Suite, NamesAreRequiredAndUnique) {
    EXPECT_NE(error_of("[[bench]]\ncommand = [\"./p\"]\n").find(":1: [[bench]] #1 has no 'name'"),
              std::string::npos);
    EXPECT_NE(error_of("[[bench]]\nname = \" \"\ncommand = [\"./p\"]\n").find("empty name"),
              std::string::npos);
    EXPECT_NE(error_of("[[bench]]\nname = \"x\"\n").find(":1: [[bench]] 'x' has no 'command'"),
              std::string::npos);
    const auto e = error_of(std::string(kEntry) + "\n" + kEntry);
    EXPECT_NE(e.find(":5: duplicate benchmark name 'b' (first at line 1)"), std::string::npos) << e;
}

TEST(Suite, SyntaxErrorsAndEmptySuites) {
    EXPECT_NE(error_of("[[bench]\n").find("suite/cgbench.toml:1: "), std::string::npos);
    EXPECT_NE(error_of("a = \"x\"\na = \"y\"\n").find("suite/cgbench.toml:2: "), std::string::npos);
    EXPECT_NE(
        error_of("").find("suite/cgbench.toml: the suite has no [[bench]] or [[gbench]] entries"),
        std::string::npos);
    EXPECT_NE(error_of("[defaults]\ntimeout = 5\n").find("no [[bench]] or [[gbench]] entries"),
              std::string::npos);
}

TEST(Suite, LoadsFilesAndDiscoversThem) {
    const fs::path dir = fs::path(::testing::TempDir()) / "cgbench-suite-load";
    fs::remove_all(dir);
    fs::create_directories(dir);
    std::ofstream(dir / "cgbench.toml") << kEntry;
    EXPECT_EQ(load_suite(dir / "cgbench.toml").entries.size(), 1u);
    EXPECT_THROW(load_suite(dir / "missing.toml"), UsageError);
    EXPECT_THROW(load_suite(dir), UsageError);
    const auto before = fs::current_path();
    fs::current_path(dir);
    EXPECT_EQ(discover_suite(), fs::path("cgbench.toml"));
    fs::current_path(dir.parent_path());
    EXPECT_TRUE(discover_suite().empty() || fs::exists("cgbench.toml"));
    fs::current_path(before);
}

TEST(Suite, TheExampleSuiteNamesTheBuiltExamples) {
    const fs::path path = fs::path(CGBENCH_EXAMPLES) / "cgbench.toml";  // copied by CMake
    const auto suite = load_suite(path);
    ASSERT_FALSE(suite.entries.empty());
    std::set<fs::path> named;
    for (const auto& e : suite.entries) {
        EXPECT_TRUE(fs::exists(suite.dir / e.command.front()))
            << e.name << ": " << e.command.front();
        named.insert((suite.dir / e.command.front()).lexically_normal());
    }
    // Every example program built next to the suite is in it.
    for (const auto& f : fs::directory_iterator(suite.dir)) {
        const auto perms = f.status().permissions();
        if (!f.is_regular_file() || (perms & fs::perms::owner_exec) == fs::perms::none) continue;
        EXPECT_TRUE(named.contains(f.path().lexically_normal())) << f.path() << " not in the suite";
    }
}

TEST(Suite, GbenchEntries) {
    const Suite s = parse_suite(R"([[bench]]
name = "plain"
command = ["./prog"]

[[gbench]]
binary = "./build/bench_parse"
filter = "BM_Parse"
args = ["--size=2"]
threshold = "2%"

[[gbench]]
name = "other"
binary = "bench2"
)",
                                "suite/cgbench.toml");
    ASSERT_EQ(s.entries.size(), 3u);
    EXPECT_FALSE(s.entries[0].gbench);
    const auto& g = s.entries[1];
    EXPECT_TRUE(g.gbench);
    EXPECT_EQ(g.name, "bench_parse");  // the binary's file name by default
    EXPECT_EQ(g.command, (std::vector<std::string>{"./build/bench_parse", "--size=2"}));
    EXPECT_EQ(g.filter->text, "BM_Parse");
    EXPECT_EQ(g.filter->line, 7);
    EXPECT_EQ(g.threshold->text, "2%");
    EXPECT_EQ(s.entries[2].name, "other");
}

TEST(Suite, GbenchMistakes) {
    EXPECT_NE(error_of("[[gbench]]\nname = \"x\"\n")
                  .find("cgbench.toml:1: [[gbench]] #1 has no 'binary'"),
              std::string::npos);
    EXPECT_NE(error_of("[[gbench]]\nbinary = \"./b\"\ncommand = [\"x\"]\n")
                  .find("cgbench.toml:3: unknown key 'command' in [[gbench]] 'b'"),
              std::string::npos);
    EXPECT_NE(
        error_of("[[gbench]]\nbinary = \"./b\"\nargs = \"--x\"\n").find("cgbench.toml:3: 'args'"),
        std::string::npos);
    EXPECT_NE(error_of("[[gbench]]\nbinary = \"./b\"\nweights = \"ir\"\n")
                  .find("'weights' cannot be set in [[gbench]] 'b'"),
              std::string::npos);
    EXPECT_NE(error_of("[[bench]]\nname = \"b\"\ncommand = [\"x\"]\n[[gbench]]\nbinary = \"./b\"\n")
                  .find("cgbench.toml:4: duplicate benchmark name 'b' (first at line 1)"),
              std::string::npos);
}

}  // namespace cgbench::config
