#include <gtest/gtest.h>
#include <sys/stat.h>

#include <fstream>

#include "base/errors.hpp"
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
    // "<link>/<parent>" has one length whatever the parent is called.
    const auto staged_dir = [](const StagedProgram& p) {
        return p.path().parent_path().string().substr(p.link().parent_path().string().size() + 1);
    };
    EXPECT_EQ(staged_dir(a).size(), kStagedDirChars) << staged_dir(a);
    EXPECT_EQ(a.link().filename().string().substr(0, 16).find('_'), std::string::npos);
    // Another program in another directory: another link, a path of the same length.
    const StagedProgram c(resolve_program("/bin/true", "/", {}));
    EXPECT_NE(c.link(), a.link());
    EXPECT_EQ(staged_dir(c).size(), kStagedDirChars) << staged_dir(c);
}

TEST(Program, TheBuildDirectorysNameDoesNotChangeTheStagedPathsLength) {
    const fs::path dir = ::testing::TempDir() + "/cgbench-program-dirs";
    std::size_t length = 0;
    for (const std::string name : {"b", "build", "cmake-build-release",
                                   "x86_64-unknown-linux-gnu-release"}) {
        fs::create_directories(dir / name);
        fs::copy_file(fs::path(CGBENCH_TEST_PROGRAMS) / "workload", dir / name / "workload",
                      fs::copy_options::overwrite_existing);
        const StagedProgram p(resolve_program((dir / name / "workload").string(), "/", {}));
        EXPECT_EQ(p.path().parent_path().filename(), name);
        EXPECT_TRUE(fs::equivalent(p.path(), dir / name / "workload"));
        if (length == 0) length = p.path().string().size();
        EXPECT_EQ(p.path().string().size(), length) << p.path();
    }
}

}  // namespace cgbench::exec
