#pragma once
// A real repository whose commits change a small C program's work, built with the system's
// C compiler and measured with `cgbench run` at each commit, as CI on every push would:
// history with real steps, blips and fingerprints for `steps`, `bisect` and `report`.

#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <vector>

#include "e2e/harness.hpp"
#include "exec/git.hpp"
#include "exec/process.hpp"

namespace cgbench::e2e {

class MeasuredRepo {
  public:
    // A repository at `dir` with build.sh (cc -O1 -g), cgbench.toml (benchmark "work") and
    // work.c; nothing committed yet.
    explicit MeasuredRepo(const fs::path& dir)
        : dir_(dir), git_(dir, exec::current_environment(), runner_) {
        EXPECT_TRUE(git_.run({"init", "-q", "-b", "main"}));
        write("build.sh", "#!/bin/sh\nset -e\ncc -O1 -g -o work work.c\n");
        fs::permissions(dir_ / "build.sh", fs::perms::owner_exec, fs::perm_options::add);
        write("cgbench.toml", "[[bench]]\nname = \"work\"\ncommand = [\"./work\"]\n");
        write(".gitignore", "work\n.cgbench/\n");
    }

    // Writes work.c doing `n` steps of accumulate() and `m` of checksum().
    void program(long n, long m = 1000) {
        write("work.c", "static volatile unsigned long sink;\n"
                        "__attribute__((noinline)) static void accumulate(long n) {\n"
                        "    for (long i = 0; i < n; ++i) sink += (unsigned long)i * 2654435761UL;\n"
                        "}\n"
                        "__attribute__((noinline)) static void checksum(long n) {\n"
                        "    for (long i = 0; i < n; ++i) sink ^= (unsigned long)i;\n"
                        "}\n"
                        "int main(void) {\n    accumulate(" + std::to_string(n) +
                        ");\n    checksum(" + std::to_string(m) + ");\n    return 0;\n}\n");
    }

    void write(const std::string& name, const std::string& text) {
        std::ofstream(dir_ / name) << text;
    }

    // Commits everything with `subject`; returns the commit.
    std::string commit(const std::string& subject) {
        EXPECT_TRUE(git_.run({"add", "-A"}));
        EXPECT_TRUE(git_.run({"-c", "user.name=t", "-c", "user.email=t@example.com", "commit",
                              "-q", "-m", subject}));
        const auto head = git_.run({"rev-parse", "HEAD"});
        commits_.push_back(head.value_or(""));
        return commits_.back();
    }

    // Builds the checkout and measures it into `db` with `extra` options; asserts success.
    void measure(const fs::path& db, const std::vector<std::string>& extra = {}) {
        exec::ProcessSpec spec;
        spec.argv = {"/bin/sh", "./build.sh"};
        spec.cwd = dir_.string();
        spec.disable_aslr = false;
        for (const auto& [k, v] : exec::current_environment())
            spec.env.push_back(k + "=" + v);
        const auto built = runner_.run(spec);
        ASSERT_EQ(built.exit_code, 0) << built.stderr_tail;
        std::vector<std::string> args = {"run", "-q", "--db", db.string()};
        args.insert(args.end(), extra.begin(), extra.end());
        const auto r = cgbench(args, {.cwd = dir_.string()});
        ASSERT_EQ(r.exit_code, 0) << r.err;
    }

    const fs::path& dir() const { return dir_; }
    const std::vector<std::string>& commits() const { return commits_; }
    const exec::Git& git() const { return git_; }

  private:
    fs::path dir_;
    exec::PosixProcessRunner runner_;
    exec::Git git_;
    std::vector<std::string> commits_;
};

}  // namespace cgbench::e2e
