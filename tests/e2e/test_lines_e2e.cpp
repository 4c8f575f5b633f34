// Per-line costs end to end, under the real Valgrind: a repository (in a directory whose name
// holds a space and a byte that is not UTF-8) whose pull request inserts lines above hot()
// and runs its inner loop 3x. `cgbench pr` must annotate the loop's line at its new number on
// GitHub and in GitLab's code-quality report, with the base (built in a worktree elsewhere)
// named by the checkout's paths; `annotate --lines` must show it, and pair it across the move.
// The same program built without -g must say so, with the flag, instead of ??? rows.

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "core/result_json.hpp"
#include "e2e/harness.hpp"
#include "e2e/pr_repo.hpp"
#include "util/fs.hpp"

namespace cgbench::e2e {

namespace {

constexpr const char* kHotLine = "            sink += (unsigned long)i * 2654435761UL;\n";

std::string hot_source(int repeats, int lines_above) {
    std::string out = "#include <stdlib.h>\nstatic volatile unsigned long sink;\n";
    for (int i = 0; i < lines_above; ++i)
        out += "/* a line the change inserted above hot() */\n";
    out +=
        "__attribute__((noinline)) static void hot(long n) {\n"
        "    for (long r = 0; r < " +
        std::to_string(repeats) +
        "; ++r)\n"
        "        for (long i = 0; i < n; ++i)\n" +
        std::string(kHotLine) +
        "}\n"
        "int main(int argc, char** argv) {\n"
        "    hot(argc > 1 ? atol(argv[1]) : 0);\n"
        "    return 0;\n"
        "}\n";
    return out;
}

// The 1-based number of the hot loop's body in `source`.
std::uint32_t hot_line_of(const std::string& source) {
    return static_cast<std::uint32_t>(
        std::count(source.begin(),
                   source.begin() + static_cast<std::ptrdiff_t>(source.find(kHotLine)), '\n') +
        1);
}

void write(const fs::path& file, const std::string& text) {
    std::ofstream(file) << text;
}

// The repository and one `cgbench pr` over it, shared by the tests (two Valgrind runs).
struct Fixture {
    fs::path dir;
    fs::path repo;
    Ran pr;
    std::uint32_t base_line = 0;
    std::uint32_t head_line = 0;
};

const Fixture& fixture() {
    static const Fixture shared = [] {
        Fixture f;
        // One repository per process: ctest runs these tests side by side, each building it.
        f.dir = scratch("lines-" + std::to_string(::getpid()));
        f.repo = f.dir / "work tree \xff";
        fs::create_directories(f.repo);
        exec::PosixProcessRunner runner;
        const exec::Git git(f.repo, exec::current_environment(), runner);
        const auto commit = [&](const std::string& subject) {
            EXPECT_TRUE(git.run({"add", "-A"}));
            EXPECT_TRUE(git.run({"-c", "user.name=t", "-c", "user.email=t@example.com", "commit",
                                 "-q", "-m", subject}));
        };
        EXPECT_TRUE(git.run({"init", "-q", "-b", "main"}));
        write(f.repo / "build.sh",
              "#!/bin/sh\nset -e\nmkdir -p out\ncc -O1 -g -o out/prog hot.c\n");
        fs::permissions(f.repo / "build.sh", fs::perms::owner_exec, fs::perm_options::add);
        write(f.repo / "cgbench.toml",
              "[defaults]\nthreshold = \"1%\"\n\n[[bench]]\nname = \"hot/3000\"\n"
              "command = [\"out/prog\", \"3000\"]\n");
        write(f.repo / ".gitignore", "out/\ncgbench-pr/\n");
        const auto base = hot_source(1, 0);
        write(f.repo / "hot.c", base);
        commit("hot");
        EXPECT_TRUE(git.run({"checkout", "-q", "-b", "pr"}));
        const auto head = hot_source(3, 3);
        write(f.repo / "hot.c", head);
        commit("hot runs its loop 3x");
        f.base_line = hot_line_of(base);
        f.head_line = hot_line_of(head);
        fs::create_directories(f.dir / "tmp");
        f.pr = run_tool({CGBENCH_BINARY, "pr", "--base", "main", "--build", "./build.sh"}, f.repo,
                        {{"TMPDIR", (f.dir / "tmp").string()}, {"GITHUB_ACTIONS", "true"}},
                        kCiVariables);
        return f;
    }();
    return shared;
}

}  // namespace

TEST(LinesE2E, ThePullRequestAnnotatesTheLineWhoseCostGrew) {
    const auto& f = fixture();
    ASSERT_EQ(f.pr.exit_code, 1) << f.pr.out << f.pr.err;
    const std::string expected = fmt::format("::warning file=hot.c,line={},", f.head_line);
    const auto at = f.pr.out.find(expected);
    ASSERT_NE(at, std::string::npos) << "the GitHub log lacks the annotation:\n" << f.pr.out;
    const auto message = f.pr.out.substr(at, f.pr.out.find('\n', at) - at);
    EXPECT_NE(message.find("::+"), std::string::npos) << message;
    EXPECT_NE(message.find("%25 of hot/3000)"), std::string::npos) << message;  // % escaped
    EXPECT_EQ(
        util::read_file(f.repo / "cgbench-pr/annotations.txt").find(expected) != std::string::npos,
        true);

    // GitLab's code-quality report: the keys and types GitLab requires, naming the line.
    const auto quality = read_json(f.repo / "cgbench-pr/codequality.json");
    ASSERT_TRUE(quality.is_array() && !quality.empty()) << quality.dump();
    bool named = false;
    for (const auto& e : quality) {
        for (const char* key : {"description", "check_name", "fingerprint", "severity"})
            EXPECT_TRUE(e.at(key).is_string()) << key;
        EXPECT_TRUE(e.at("location").at("path").is_string());
        EXPECT_TRUE(e.at("location").at("lines").at("begin").is_number_unsigned());
        named = named || (e["location"]["path"] == "hot.c" &&
                          e["location"]["lines"]["begin"] == f.head_line);
    }
    EXPECT_TRUE(named) << quality.dump(2);
}

TEST(LinesE2E, TheBaseBuiltInAWorktreeNamesTheCheckoutsFiles) {
    const auto& f = fixture();
    const auto base = load_result_file(f.repo / "cgbench-pr/base.json").benchmarks.at(0);
    ASSERT_FALSE(base.lines.empty());
    EXPECT_EQ(base.line_info, true);
    const auto checkout = as_json_text((f.repo / "hot.c").string());
    bool hot = false;
    for (const auto& l : base.lines) {
        EXPECT_EQ(l.file.find((f.dir / "tmp").string()), std::string::npos) << l.file;
        if (l.line == f.base_line) {
            hot = true;
            EXPECT_EQ(l.file, checkout);
            EXPECT_EQ(l.function, "hot");
            EXPECT_EQ(l.text, "sink += (unsigned long)i * 2654435761UL;");
        }
    }
    EXPECT_TRUE(hot);
}

TEST(LinesE2E, AnnotateShowsTheLinesAndPairsTheMovedOne) {
    const auto& f = fixture();
    const auto head = (f.repo / "cgbench-pr/head.json").string();
    const auto base = (f.repo / "cgbench-pr/base.json").string();
    const auto lines = cgbench({"annotate", "--lines", "--file", "hot.c", head, "hot/3000"});
    ASSERT_EQ(lines.exit_code, 0) << lines.err;
    EXPECT_NE(lines.out.find("sink += (unsigned long)i * 2654435761UL;"), std::string::npos)
        << lines.out;
    EXPECT_NE(lines.out.find(std::to_string(f.head_line) + " "), std::string::npos) << lines.out;

    const auto diff =
        cgbench({"annotate", "--lines", "--format", "json", "--base", base, head, "hot/3000"});
    ASSERT_EQ(diff.exit_code, 0) << diff.err;
    const auto doc = nlohmann::json::parse(diff.out);
    // The hot line among those that moved (which of the loop's lines the compiler charges
    // most differs: g++ 16 puts more on the loop header than g++ 12).
    const auto& changes = doc.at("line_changes");
    const auto hot = std::find_if(changes.begin(), changes.end(), [](const auto& c) {
        return c.at("text") == "sink += (unsigned long)i * 2654435761UL;";
    });
    ASSERT_NE(hot, changes.end()) << doc.dump(2);
    EXPECT_EQ(hot->at("head_line"), f.head_line) << doc.dump(2);
    EXPECT_EQ(hot->at("base_line"), f.base_line) << "moved three lines down, paired by text";
    const auto growth = hot->at("head").get<double>() / hot->at("base").get<double>();
    EXPECT_GT(growth, 2.5) << doc.dump(2);
    EXPECT_LT(growth, 3.5) << doc.dump(2);
}

TEST(LinesE2E, WithoutDebugInfoEveryReportGivesTheFlag) {
    const auto dir = scratch("lines-nodebug");
    write(dir / "hot.c", hot_source(1, 0));
    ASSERT_EQ(
        run_tool({"/usr/bin/cc", "-O1", "-o", (dir / "prog").string(), (dir / "hot.c").string()},
                 dir)
            .exit_code,
        0);
    const auto out = (dir / "r.json").string();
    const auto run = cgbench({"run", "--no-db", "--name", "nodebug", "--out", out, "--",
                              (dir / "prog").string(), "3000"});
    ASSERT_EQ(run.exit_code, 0) << run.err;
    EXPECT_NE(run.out.find("no line information in nodebug"), std::string::npos) << run.out;
    EXPECT_NE(run.out.find("-g (CMake: -DCMAKE_BUILD_TYPE=RelWithDebInfo)"), std::string::npos);
    const auto result = read_json(out);
    EXPECT_EQ(result["benchmarks"][0]["line_info"], false);
    // Lines of the loader (libc6-dbg) may be kept; none of the program's own.
    for (const auto& l : result["benchmarks"][0].value("lines", nlohmann::json::array()))
        EXPECT_NE(l.at("function"), "hot") << l.dump();
    for (const auto& format : {"console", "markdown", "json"}) {
        // (Markdown escapes the flag's underscores.)
        const auto c = cgbench({"compare", "--no-db", "--format", format, out, out});
        EXPECT_EQ(c.exit_code, 0) << c.err;
        EXPECT_NE(c.out.find("RelWithDebInfo"), std::string::npos) << format << "\n" << c.out;
        EXPECT_NE(c.out.find("no line information in nodebug"), std::string::npos) << format << "\n"
                                                                                   << c.out;
    }
    const auto a = cgbench({"annotate", "--lines", out, "nodebug"});
    EXPECT_EQ(a.exit_code, 2);
    EXPECT_NE(a.err.find("compile with -g"), std::string::npos) << a.err;
}

// Built with -g, then stripped: no line information either.
TEST(LinesE2E, AStrippedProgramSaysSoToo) {
    const auto dir = scratch("lines-stripped");
    write(dir / "hot.c", hot_source(1, 0));
    const auto prog = (dir / "prog").string();
    ASSERT_EQ(
        run_tool({"/usr/bin/cc", "-O1", "-g", "-o", prog, (dir / "hot.c").string()}, dir).exit_code,
        0);
    ASSERT_EQ(run_tool({"/usr/bin/strip", prog}, dir).exit_code, 0);
    const auto out = (dir / "r.json").string();
    const auto run =
        cgbench({"run", "--no-db", "-q", "--name", "stripped", "--out", out, "--", prog, "300"});
    ASSERT_EQ(run.exit_code, 0) << run.err;
    EXPECT_EQ(read_json(out)["benchmarks"][0]["line_info"], false);
}

}  // namespace cgbench::e2e
