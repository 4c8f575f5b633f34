#pragma once
// A real repository whose commits change a small C program's work, built with the system's
// C compiler and measured with `cgbench run` at each commit, as CI on every push would:
// history with real steps, blips and fingerprints for `steps`, `bisect` and `report`.

#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "e2e/harness.hpp"
#include "exec/git.hpp"
#include "exec/process.hpp"
#include "exec/program.hpp"

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
        write("work.c", std::string(kWorkFunctions) + "int main(void) {\n    accumulate(" +
                            std::to_string(n) + ");\n    checksum(" + std::to_string(m) +
                            ");\n    return 0;\n}\n");
    }

    // Writes work.c doing about `n` steps of accumulate(), 70% to 130% of them at random on
    // each run (read from /dev/urandom): a program whose counts swing as a timed loop's do.
    void noisy_program(long n) {
        write("work.c",
              "#include <stdio.h>\n"
              "static volatile unsigned long sink;\n"
              "int main(void) {\n"
              "    unsigned char r = 0;\n"
              "    FILE* f = fopen(\"/dev/urandom\", \"rb\");\n"
              "    if (f == NULL || fread(&r, 1, 1, f) != 1) return 1;\n"
              "    fclose(f);\n"
              "    long n = " +
                  std::to_string(n) +
                  "L * (70 + r % 61) / 100;\n"
                  "    for (long i = 0; i < n; ++i) sink += (unsigned long)i * 2654435761UL;\n"
                  "    return 0;\n}\n");
    }

    void write(const std::string& name, const std::string& text) {
        std::ofstream(dir_ / name) << text;
    }

    // Dates the commits made from now on: the first at `epoch` (seconds), each a minute after
    // the previous, so commit times order them.
    void date_commits_from(long epoch) { clock_ = epoch; }

    // Runs `git ARGS...` in the repository (with the commit dates when set); asserts success
    // and returns its output.
    std::string git(const std::vector<std::string>& args) {
        exec::ProcessSpec spec;
        const auto env = exec::current_environment();
        const auto path = env.count("PATH") != 0 ? env.at("PATH") : std::string("/usr/bin:/bin");
        spec.argv = {exec::search_path("git", path).string(), "-c", "user.name=t", "-c",
                     "user.email=t@example.com"};
        spec.argv.insert(spec.argv.end(), args.begin(), args.end());
        spec.cwd = dir_.string();
        spec.disable_aslr = false;
        for (const auto& [k, v] : env)
            spec.env.push_back(k + "=" + v);
        if (clock_) {
            const auto date = "@" + std::to_string(clock_) + " +0000";
            spec.env.push_back("GIT_AUTHOR_DATE=" + date);
            spec.env.push_back("GIT_COMMITTER_DATE=" + date);
        }
        const auto out = runner_.run(spec);
        EXPECT_EQ(out.exit_code, 0) << "git " << args.front() << ": " << out.stderr_tail;
        return out.stdout_tail;
    }

    // Commits everything with `subject`; returns the commit.
    std::string commit(const std::string& subject) {
        EXPECT_TRUE(git_.run({"add", "-A"}));
        if (clock_) {
            git({"commit", "-q", "-m", subject});
            clock_ += 60;
        } else {
            EXPECT_TRUE(git_.run({"-c", "user.name=t", "-c", "user.email=t@example.com", "commit",
                                  "-q", "-m", subject}));
        }
        return head();
    }

    // Merges `branch` into the current branch with a merge commit; returns it.
    std::string merge(const std::string& branch, const std::string& subject) {
        git({"merge", "-q", "--no-ff", "-m", subject, branch});
        if (clock_) clock_ += 60;
        return head();
    }

    // Checks out `ref` (a branch, or a commit: detached).
    void checkout(const std::string& ref) { git({"checkout", "-q", ref}); }

    // Builds the checkout and measures it into `db` with `extra` options and `env` added;
    // asserts success.
    void measure(const fs::path& db, const std::vector<std::string>& extra = {},
                 const std::map<std::string, std::string>& env = {}) {
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
        const auto r = cgbench(args, {.env = env, .cwd = dir_.string()});
        ASSERT_EQ(r.exit_code, 0) << r.err;
    }

    // HEAD's commit, appended to commits().
    std::string head() {
        const auto head = git_.run({"rev-parse", "HEAD"});
        commits_.push_back(head.value_or(""));
        return commits_.back();
    }

    const fs::path& dir() const { return dir_; }
    const std::vector<std::string>& commits() const { return commits_; }
    const exec::Git& git() const { return git_; }

  private:
    fs::path dir_;
    exec::PosixProcessRunner runner_;
    exec::Git git_;
    std::vector<std::string> commits_;
    long clock_ = 0;  // the next commit's date; 0: now
};

}  // namespace cgbench::e2e
