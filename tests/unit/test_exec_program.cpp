#include <gtest/gtest.h>
#include <sys/stat.h>

#include <fstream>

#include "core/errors.hpp"
#include "exec/program.hpp"
#include "util/fs.hpp"

namespace cgbench::exec {

namespace fs = std::filesystem;

namespace {

std::string error_of(const std::string& name, const fs::path& cwd, const EnvMap& env = {}) {
    try {
        resolve_program(name, cwd, env);
    } catch (const UsageError& e) {
        return e.what();
    }
    return "no error";
}

}  // namespace

TEST(Program, ResolvesRelativeAbsoluteAndPath) {
    const fs::path programs = CGBENCH_TEST_PROGRAMS;
    EXPECT_EQ(resolve_program("./workload", programs, {}).path, programs / "workload");
    EXPECT_EQ(resolve_program((programs / "workload").string(), "/", {}).path,
              programs / "workload");
    EXPECT_EQ(
        resolve_program("workload", "/", {{"PATH", "/nonexistent:" + programs.string()}}).path,
        programs / "workload");
}

TEST(Program, BadProgramsAreUsageErrors) {
    const fs::path dir = ::testing::TempDir() + "/cgbench-program-test";
    fs::create_directories(dir / "subdir");
    std::ofstream(dir / "plain.txt") << "not executable\n";
    EXPECT_NE(error_of("./missing", dir).find("not found"), std::string::npos);
    EXPECT_NE(error_of("missing-program-xyz", dir, {{"PATH", "/bin"}}).find("not found on PATH"),
              std::string::npos);
    EXPECT_NE(error_of("./subdir", dir).find("is a directory"), std::string::npos);
    EXPECT_NE(error_of("./plain.txt", dir).find("not executable"), std::string::npos);
    EXPECT_NE(error_of("", dir).find("no program"), std::string::npos);
}

TEST(Program, StagedPathKeepsTheLastTwoComponentsAndHasFixedLength) {
    const util::StagingDir a, b;
    const fs::path programs = CGBENCH_TEST_PROGRAMS;
    const auto short_path = stage_program(resolve_program("./workload", programs, {}), a.path());
    // The same program reached through a longer spelling of its directory.
    const std::string long_spelling = programs.string() + "/../programs/./workload";
    const auto long_path = stage_program(resolve_program(long_spelling, "/", {}), b.path());
    EXPECT_EQ(short_path.string().size(), long_path.string().size());
    EXPECT_EQ(short_path.filename(), "workload");
    EXPECT_EQ(short_path.parent_path().filename(), "programs");
    EXPECT_TRUE(fs::equivalent(short_path, programs / "workload"));
    EXPECT_EQ(a.path().string().size(), std::string("/tmp/cgbench.XXXXXX").size());
}

}  // namespace cgbench::exec
