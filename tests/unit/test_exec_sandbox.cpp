// The sandbox's host side (exec/sandbox.hpp): the project tree of a working directory, the
// fixed names, and the arguments and output paths as the program sees them. The namespaces
// themselves are exercised end to end (tests/e2e/test_sandbox_e2e.cpp).

#include <gtest/gtest.h>

#include <fstream>

#include "exec/sandbox.hpp"
#include "exec/staging.hpp"

namespace cgbench::exec {

namespace fs = std::filesystem;

namespace {

fs::path fresh(const std::string& name) {
    const fs::path dir = fs::temp_directory_path() / ("cgbench-sandbox-unit-" + name);
    fs::remove_all(dir);
    fs::create_directories(dir);
    return fs::canonical(dir);
}

}  // namespace

TEST(Sandbox, TheTreeIsTheCheckoutOrTheWorkingDirectory) {
    const fs::path dir = fresh("tree");
    fs::create_directories(dir / "repo" / ".git");
    fs::create_directories(dir / "repo" / "src" / "deep");
    EXPECT_EQ(project_tree(dir / "repo" / "src" / "deep"), dir / "repo");
    fs::create_directories(dir / "wt" / "b");
    std::ofstream(dir / "wt" / ".git") << "gitdir: elsewhere\n";  // a worktree's .git file
    EXPECT_EQ(project_tree(dir / "wt" / "b"), dir / "wt");
    fs::create_directories(dir / "plain" / "x");
    EXPECT_EQ(project_tree(dir / "plain" / "x"), dir / "plain" / "x");
}

TEST(Sandbox, ProgramNamesKeepTheStagedDirectoryAtItsFixedLength) {
    for (const std::string& parent :
         std::vector<std::string>{"bin", "build", "cmake-build-release", std::string(40, 'x')}) {
        const std::string name = sandbox_program_name(parent);
        EXPECT_EQ(name.size() + 1 + parent.size(), kStagedDirChars) << parent;
        EXPECT_EQ(name.rfind("p", 0), 0u);
    }
    EXPECT_EQ(sandbox_program_name(""), "program" + std::string(kStagedDirChars - 7, '_'));
}

TEST(Sandbox, ArgumentsNamingTheTreeAreGivenByTheirFixedPath) {
    if (!isolation().namespaces) GTEST_SKIP() << "namespaces refused here: " << isolation().refused;
    const fs::path tree = fresh("args");
    fs::create_directories(tree / ".git");
    fs::create_directories(tree / "bench" / "data");
    std::ofstream(tree / "bench" / "run.py") << "";
    std::ofstream(tree / "bench" / "3000") << "";
    const fs::path out = tree / "out";
    fs::create_directories(out);
    const ResolvedProgram python{"/bin/true", "/bin/true"};
    const RunSandbox box(python, tree / "bench", out, {});
    EXPECT_EQ(box.cwd(), "/cgbench/tree/bench");
    EXPECT_EQ(box.program_path().string().rfind("/cgbench/program", 0), 0u) << box.program_path();
    const auto mapped =
        box.map_arguments({"run.py", (tree / "bench" / "run.py").string(), "data/", "../bench/data",
                           "3000", "-x", "data", "missing.py", "/etc/hostname", "../../"});
    EXPECT_EQ(mapped[0], "/cgbench/tree/bench/run.py");
    EXPECT_EQ(mapped[1], "/cgbench/tree/bench/run.py");
    EXPECT_EQ(mapped[2], "/cgbench/tree/bench/data");
    EXPECT_EQ(mapped[3], "/cgbench/tree/bench/data");
    EXPECT_EQ(mapped[4], "/cgbench/tree/bench/3000");  // a file of that name is a path
    EXPECT_EQ(mapped[5], "-x");
    EXPECT_EQ(mapped[6], "data");  // a bare directory name may be a word
    EXPECT_EQ(mapped[7], "missing.py");
    EXPECT_EQ(mapped[8], "/etc/hostname");              // outside the tree: as given
    EXPECT_EQ(mapped[9], tree.parent_path().string());  // leaving the tree: absolute
    const auto valgrind = box.map_output({"--log-file=" + (out / "valgrind.log.%p").string()});
    EXPECT_EQ(valgrind[0], "--log-file=/cgbench/out/valgrind.log.%p");
    ASSERT_TRUE(box.mounts());
    EXPECT_EQ(box.mounts()->tree, tree);
}

TEST(Sandbox, IsolationIsDescribedForTheFingerprint) {
    Isolation ns{true, true, ""};
    EXPECT_EQ(ns.describe(), "namespaces (uid 0, pid 2, /cgbench)");
    EXPECT_EQ((Isolation{true, true, "", true}).describe(),
              "namespaces (uid 0, pid 2, /cgbench; root's ids unmapped)");
    EXPECT_TRUE(ns.warning().empty());
    Isolation none{false, false, "creating namespaces: Operation not permitted"};
    EXPECT_EQ(none.describe(), "none (staged under " + staging_root().string() + ")");
    EXPECT_NE(none.warning().find("(creating namespaces: Operation not permitted)"),
              std::string::npos);
    EXPECT_EQ((FixedInputs{true, true}).describe(), "clock, random");
    EXPECT_EQ((FixedInputs{}).describe(), "");
}

}  // namespace cgbench::exec
