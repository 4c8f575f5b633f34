#include <gtest/gtest.h>
#include <sys/stat.h>

#include <fstream>

#include "core/errors.hpp"
#include "exec/program.hpp"

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

TEST(Program, StagedPathKeepsTheLastTwoComponentsAndIsTheSameEveryTime) {
    const fs::path programs = CGBENCH_TEST_PROGRAMS;
    const auto program = resolve_program("./workload", programs, {});
    // The same program reached through a longer spelling of its directory.
    const std::string long_spelling = programs.string() + "/../programs/./workload";
    const StagedProgram a(program);
    const StagedProgram b(resolve_program(long_spelling, "/", {}));
    EXPECT_EQ(a.path(), b.path());  // same content, not only the same length
    EXPECT_EQ(a.path().filename(), "workload");
    EXPECT_EQ(a.path().parent_path().filename(), "programs");
    EXPECT_TRUE(fs::equivalent(a.path(), programs / "workload"));
    EXPECT_EQ(a.link().parent_path(), staging_root());
    EXPECT_EQ(a.link().filename().string().size(), 16u);
    // Another program in another directory: another link, the same length.
    const StagedProgram c(resolve_program("/bin/true", "/", {}));
    EXPECT_NE(c.link(), a.link());
    EXPECT_EQ(c.link().string().size(), a.link().string().size());
}

}  // namespace cgbench::exec
