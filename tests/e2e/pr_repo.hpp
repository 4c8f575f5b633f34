#pragma once
// A throw-away repository for the pull-request gate's end-to-end tests: a small C program
// built with CMake (which hands the compiler absolute source paths, so the debug info names
// every function's file by its absolute path), a suite of two benchmarks, and a branch "pr"
// whose commit makes accumulate() do 10% more steps. The base is measured in a worktree
// elsewhere on disk, the head in the checkout: only a gate that names both sides' files the
// same way can pair their functions.

#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "e2e/harness.hpp"
#include "exec/environment.hpp"
#include "exec/git.hpp"
#include "exec/process.hpp"

namespace cgbench::e2e {

// How the repository's build.sh compiles prog.c.
enum class Build {
    Cmake,  // CMake: absolute source paths in the debug info
    Cc,     // cc -O1 -g prog.c: quick
};

class PrRepo {
  public:
    // The repository at `dir`/work on branch main (the baseline committed), then branch pr
    // checked out with the change committed.
    explicit PrRepo(const fs::path& dir, Build build = Build::Cmake)
        : dir_(dir / "work"), git_(dir_, exec::current_environment(), runner_) {
        fs::create_directories(dir_);
        EXPECT_TRUE(git_.run({"init", "-q", "-b", "main"}));
        if (build == Build::Cmake) {
            write("CMakeLists.txt",
                  "cmake_minimum_required(VERSION 3.13)\nproject(prog C)\n"
                  "add_executable(prog prog.c)\n");
            write("build.sh",
                  "#!/bin/sh\nset -e\n"
                  "cmake -S . -B out -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null\n"
                  "cmake --build out >/dev/null\n");
        } else {
            write("build.sh", "#!/bin/sh\nset -e\nmkdir -p out\ncc -O1 -g -o out/prog prog.c\n");
        }
        fs::permissions(dir_ / "build.sh", fs::perms::owner_exec, fs::perm_options::add);
        write("cgbench.toml",
              "[defaults]\nthreshold = \"1%\"\n\n"
              "[[bench]]\nname = \"work\"\ncommand = [\"out/prog\", \"40000\"]\n\n"
              "[[bench]]\nname = \"idle\"\ncommand = [\"out/prog\", \"0\"]\n");
        write(".gitignore", "out/\ncgbench-pr/\n.cgbench/\n");
        program(0);
        commit("baseline");
        EXPECT_TRUE(git_.run({"checkout", "-q", "-b", "pr"}));
        program(10);
        commit("accumulate does 10% more");
    }

    // prog.c: accumulate() does N + N * extra / 100 steps, checksum() N steps; with
    // `idle_fails`, N = 0 (the benchmark "idle") exits 1.
    void program(int extra_percent, bool idle_fails = false) {
        write("prog.c", "#include <stdlib.h>\n" + std::string(kWorkFunctions) +
                            "int main(int argc, char** argv) {\n"
                            "    long n = argc > 1 ? atol(argv[1]) : 0;\n" +
                            std::string(idle_fails ? "    if (n == 0) return 1;\n" : "") +
                            "    accumulate(n + n * " + std::to_string(extra_percent) +
                            " / 100);\n"
                            "    checksum(n);\n"
                            "    return 0;\n"
                            "}\n");
    }

    // A bare repository "origin" beside the work tree, holding main; origin/main fetched.
    void add_origin() {
        const auto origin = dir_.parent_path() / "origin.git";
        EXPECT_TRUE(exec::Git(dir_.parent_path(), exec::current_environment(), runner_)
                        .run({"init", "-q", "--bare", "-b", "main", origin.string()}));
        EXPECT_TRUE(git_.run({"remote", "add", "origin", origin.string()}));
        EXPECT_TRUE(git_.run({"push", "-q", "origin", "main"}));
        EXPECT_TRUE(git_.run({"fetch", "-q", "origin"}));
    }

    void checkout(const std::string& branch) { EXPECT_TRUE(git_.run({"checkout", "-q", branch})); }

    std::string rev(const std::string& ref) { return git_.run({"rev-parse", ref}).value_or(""); }

    void write(const std::string& name, const std::string& text) {
        std::ofstream(dir_ / name) << text;
    }

    // Commits everything (nothing changed: an empty commit, a push that moves nothing).
    std::string commit(const std::string& subject) {
        EXPECT_TRUE(git_.run({"add", "-A"}));
        EXPECT_TRUE(git_.run({"-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q",
                              "--allow-empty", "-m", subject}));
        return git_.run({"rev-parse", "HEAD"}).value_or("");
    }

    const fs::path& dir() const { return dir_; }
    const exec::Git& git() const { return git_; }

  private:
    fs::path dir_;
    exec::PosixProcessRunner runner_;
    exec::Git git_;
};

struct Ran {
    int exit_code = -1;
    std::string out;
    std::string err;
};

// Runs `argv` in `cwd` with this environment plus `env` (and without `unset`).
inline Ran run_tool(const std::vector<std::string>& argv, const fs::path& cwd,
                    const std::map<std::string, std::string>& env = {},
                    const std::vector<std::string>& unset = {}) {
    exec::ProcessSpec spec;
    spec.argv = argv;
    auto vars = exec::current_environment();
    for (const auto& u : unset)
        vars.erase(u);
    for (const auto& [k, v] : env)
        vars[k] = v;
    for (const auto& [k, v] : vars)
        spec.env.push_back(k + "=" + v);
    spec.cwd = cwd.string();
    spec.disable_aslr = false;
    spec.timeout_seconds = 600;
    spec.tail_bytes = 16 << 20;
    exec::PosixProcessRunner runner;
    const auto outcome = runner.run(spec);
    return {outcome.how == exec::Termination::Exited ? outcome.exit_code : -1, outcome.stdout_tail,
            outcome.stderr_tail};
}

// The CI variables a test machine's own CI may set, which would choose a base or a branch.
inline const std::vector<std::string> kCiVariables = {"GITHUB_ACTIONS",
                                                      "GITHUB_BASE_REF",
                                                      "GITHUB_HEAD_REF",
                                                      "GITHUB_REF_NAME",
                                                      "GITLAB_CI",
                                                      "CI_MERGE_REQUEST_DIFF_BASE_SHA",
                                                      "CI_MERGE_REQUEST_TARGET_BRANCH_SHA",
                                                      "CI_COMMIT_REF_NAME",
                                                      "CI_NODE_INDEX",
                                                      "CI_NODE_TOTAL",
                                                      "CGBENCH_THRESHOLD",
                                                      "CGBENCH_DB"};

// scripts/cgbench-pr.sh ARGS in the repository, with this build's cgbench and a private TMPDIR.
inline Ran cgbench_pr(const PrRepo& repo, const fs::path& tmp, std::vector<std::string> args,
                      std::map<std::string, std::string> env = {}) {
    fs::create_directories(tmp);
    std::vector<std::string> argv = {
        "/bin/bash", (fs::path(CGBENCH_SOURCE_DIR) / "scripts/cgbench-pr.sh").string()};
    argv.insert(argv.end(), args.begin(), args.end());
    env["CGBENCH"] = CGBENCH_BINARY;
    env["TMPDIR"] = tmp.string();
    return run_tool(argv, repo.dir(), env, kCiVariables);
}

}  // namespace cgbench::e2e
