// The sandbox (exec/sandbox.hpp): the same counts for every checkout path, working
// directory, user and pid, in cgbench-pr's base worktree as in the checkout; and where the
// kernel refuses namespaces, a run that still works, says what leaks and records it.

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <sched.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>

#include "base/errors.hpp"
#include "e2e/sandbox_support.hpp"
#include "util/fs.hpp"

namespace cgbench::e2e {

namespace {

fs::path write_file(const fs::path& path, const std::string& text, bool executable = false) {
    fs::create_directories(path.parent_path());
    std::ofstream(path) << text;
    if (executable) fs::permissions(path, fs::perms::owner_all, fs::perm_options::add);
    return path;
}

// A script whose work depends on nothing but itself: dicts keyed by strings, as
// measurement-quality-2's dw.py.
constexpr const char* kDictScript =
    "d = {}\nfor i in range(3000):\n    d['key%d' % i] = i\nprint(sum(d.values()))\n";

// A pure-bash loop: bash keeps PWD among its variables, so the working directory's length
// used to move its heap (+290,316 Ir with an 81-character one).
constexpr const char* kBashLoop =
    "s=''\ni=0\nwhile [ $i -lt 400 ]; do s=\"$s$i\"; i=$((i+1)); done\necho ${#s}\n";

void expect_same_events(const std::vector<RunFacts>& runs) {
    ASSERT_FALSE(runs.empty());
    for (std::size_t i = 0; i < runs.size(); ++i) {
        ASSERT_EQ(runs[i].exit_code, 0) << "run " << i << ": " << runs[i].err;
        ASSERT_FALSE(runs[i].events.is_null()) << runs[i].err;
        EXPECT_EQ(runs[i].events, runs[0].events) << "run " << i;
        EXPECT_EQ(runs[i].key, runs[0].key) << "run " << i;
    }
}

}  // namespace

TEST(Sandbox, PythonScriptByRelativeAndAbsolutePathAndFromALongerCheckout) {
    CGBENCH_NEEDS_NAMESPACES();
    const auto dir = scratch("sandbox-python");
    const fs::path shortc = dir / "a";
    const fs::path longc = dir / std::string(90, 'l') / "checkout";
    // One modification time for both copies: Python 3.14 reads the script's own into its
    // counts (a few hundred instructions), which this test is not about (docs/measuring.md).
    const auto mtime = fs::file_time_type::clock::now();
    for (const auto& c : {shortc, longc})
        fs::last_write_time(write_file(c / "dict.py", kDictScript), mtime);
    const auto runs = with_unchanged_loader_cache([&] {
        return std::vector<RunFacts>{
            measure({"--", "/usr/bin/python3", "dict.py"}, {.cwd = shortc.string()}),
            measure({"--", "/usr/bin/python3", (shortc / "dict.py").string()},
                    {.cwd = shortc.string()}),
            measure({"--", "/usr/bin/python3", "dict.py"}, {.cwd = longc.string()}),
            measure({"--", "/usr/bin/python3", (longc / "dict.py").string()},
                    {.cwd = longc.string()})};
    });
    expect_same_events(runs);
    EXPECT_EQ(runs[0].isolation.rfind("namespaces", 0), 0u) << runs[0].isolation;
}

TEST(Sandbox, BashLoopFromTwoWorkingDirectories) {
    CGBENCH_NEEDS_NAMESPACES();
    const auto dir = scratch("sandbox-bash");
    const fs::path shortc = dir / "w";
    const fs::path longc = dir / std::string(81, 'd');
    for (const auto& c : {shortc, longc})
        write_file(c / "loop.sh", kBashLoop);
    expect_same_events(with_unchanged_loader_cache([&] {
        return std::vector<RunFacts>{
            measure({"--", "/bin/bash", "loop.sh"}, {.cwd = shortc.string()}),
            measure({"--", "/bin/bash", "loop.sh"}, {.cwd = longc.string()})};
    }));
}

TEST(Sandbox, ProgramSeesUidZeroTheHostNameAndPidTwoInItsTree) {
    CGBENCH_NEEDS_NAMESPACES();
    const auto dir = scratch("sandbox-view");
    const auto r =
        measure({"--", "/bin/sh", "-c", "echo $(id -u) $(id -un) $(hostname) $$ $(pwd) > seen.txt"},
                {.cwd = dir.string()});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(util::read_file(dir / "seen.txt"), "0 root cgbench 2 /cgbench/tree\n");
}

// What a Python program sees of the owners of a machine file (its own os.py, /etc/passwd),
// of its working directory and of a file it writes there; written to seen.txt.
constexpr const char* kOwnersScript =
    "import os\n"
    "open('written', 'w').write('x')\n"
    "s = [os.stat(p) for p in (os.__file__, '/etc/passwd', '.', 'written')]\n"
    "open('seen.txt', 'w').write(' '.join(f'{x.st_uid}:{x.st_gid}' for x in s))\n";

// Root and another user, each in a directory of its own (root's is root's: its sandbox maps
// root to an unused id, and id-maps the tree), see the same owners and get the same counts:
// the machine's files are the overflow id's for both (Python makes an int for each id above
// 256: +7,168 Ir for `python3 -c pass` when root saw them as 0).
TEST(Sandbox, Sqlite3BashAndPythonAsTwoUsers) {
    CGBENCH_NEEDS_NAMESPACES();
    HARDENING_EXPECT_OK(
        in_private_tmpfs(scratch("sandbox-users"), "mode=1777", [](const fs::path& mnt) {
            Checks checks;
            if (auto e = add_test_users(mnt); !e.empty()) return e;
            const fs::path mine = mnt / "root-project", theirs = mnt / "user-project";
            if (!make_owned_dir(mine, 0, 0755) || !make_owned_dir(theirs, kVictimUid, 0755)) {
                return std::string("cannot make the projects\n");
            }
            // What each sees (the files it writes differ in time and inode: no counts).
            checks.expect(
                measure({"--", "/usr/bin/python3", "-c", kOwnersScript}, {.cwd = mine.string()})
                            .exit_code == 0 &&
                    measure({"--", "/usr/bin/python3", "-c", kOwnersScript},
                            {.cwd = theirs.string(), .uid = kVictimUid})
                            .exit_code == 0,
                "the owners script failed");
            const std::vector<std::vector<std::string>> programs = {
                {"--", "/usr/bin/python3", "-c", "pass"},
                {"--", "/usr/bin/sqlite3", ":memory:", "select count(*) from sqlite_master;"},
                {"--", "/bin/bash", "-c", "x=1; echo $x"}};
            for (const auto& args : programs) {
                const auto [root, user] = with_unchanged_loader_cache([&] {
                    return std::pair{measure(args, {.cwd = mine.string()}),
                                     measure(args, {.cwd = theirs.string(), .uid = kVictimUid})};
                });
                checks.expect(root.exit_code == 0 && user.exit_code == 0,
                              args[1] + " failed: " + root.err + user.err);
                checks.expect(!root.events.is_null() && root.events == user.events,
                              args[1] + " counts differ between root and another user: " +
                                  root.events.dump() + " vs " + user.events.dump());
            }
            for (const auto& dir : {mine, theirs}) {
                std::string seen;
                try {
                    seen = util::read_file(dir / "seen.txt");
                } catch (const Error&) {
                }
                checks.expect(seen == "65534:65534 65534:65534 0:0 0:0",
                              dir.filename().string() + " saw owners " + seen);
            }
            // What root's program wrote is root's, not the unused id's.
            struct stat st {};
            checks.expect(
                ::stat((mine / "written").c_str(), &st) == 0 && st.st_uid == 0 && st.st_gid == 0,
                fmt::format("root's program wrote a file owned by {}:{}", st.st_uid, st.st_gid));
            return checks.failures();
        }));
}

// Runs `body` as pid 1 of a new pid namespace whose next pid is `next_pid` (root only).
std::string with_next_pid(int next_pid, const std::function<std::string()>& body) {
    int report[2];
    if (::pipe(report) != 0) return "pipe failed";
    const pid_t outer = ::fork();
    if (outer == 0) {
        std::string result;
        if (::unshare(CLONE_NEWPID) != 0) {
            result = std::string("SKIP: unshare(CLONE_NEWPID): ") + std::strerror(errno);
        } else if (const pid_t init = ::fork(); init == 0) {
            std::ofstream("/proc/sys/kernel/ns_last_pid") << next_pid - 1;
            result = body();
            [[maybe_unused]] auto n = ::write(report[1], result.data(), result.size());
            ::_exit(0);
        } else {
            ::waitpid(init, nullptr, 0);
            ::_exit(0);
        }
        [[maybe_unused]] auto n = ::write(report[1], result.data(), result.size());
        ::_exit(0);
    }
    ::close(report[1]);
    std::string out;
    char buf[4096];
    for (ssize_t n; (n = ::read(report[0], buf, sizeof buf)) > 0;)
        out.append(buf, static_cast<std::size_t>(n));
    ::close(report[0]);
    ::waitpid(outer, nullptr, 0);
    return out;
}

TEST(Sandbox, PidPrinterAcrossPidsOfFourAndFiveDigits) {
    CGBENCH_NEEDS_NAMESPACES();
    if (::geteuid() != 0) GTEST_SKIP() << "needs root to choose pids in a pid namespace";
    std::string events[2];
    const int next[2] = {1000, 20000};
    const bool skip = with_unchanged_loader_cache([&] {
        for (int i = 0; i < 2; ++i) {
            const std::string r = with_next_pid(next[i], [] {
                const auto f = measure({"--warmup", "0", "--", program("print_pid"), "3"});
                return f.exit_code == 0 ? f.events.dump() : "failed: " + f.err;
            });
            events[i] = r;
            if (r.rfind("SKIP: ", 0) == 0) return true;
        }
        return false;
    });
    if (skip) GTEST_SKIP() << (events[0].rfind("SKIP: ", 0) == 0 ? events[0] : events[1]).substr(6);
    EXPECT_EQ(events[0].rfind("{", 0), 0u) << events[0];
    EXPECT_EQ(events[0], events[1]);
}

TEST(Sandbox, WithoutNamespacesItRunsWarnsAndTheFingerprintDiffers) {
    CGBENCH_NEEDS_NAMESPACES();
    // Docker's default seccomp profile refuses user namespaces; tests/programs/no_namespaces
    // installs the same rule (a seccomp filter: no privileges needed, nothing changed outside).
    const auto args = std::vector<std::string>{"--", program("workload"), "2000"};
    const auto with = measure(args);
    const auto without = measure_without_namespaces(args);
    ASSERT_EQ(with.exit_code, 0) << with.err;
    ASSERT_EQ(without.exit_code, 0) << without.err;
    EXPECT_TRUE(mentions(without.warnings, "cannot run the program in namespaces of its own"))
        << nlohmann::json(without.warnings).dump();
    EXPECT_TRUE(mentions(without.warnings, "the working directory, the user"));
    EXPECT_FALSE(mentions(with.warnings, "namespaces"));
    EXPECT_EQ(without.isolation.rfind("none (staged under /tmp/cgbench-", 0), 0u)
        << without.isolation;
    EXPECT_NE(with.key, without.key);
}

TEST(Sandbox, ReadmeOnlyCommitMeasuresHeadEqualToBaseInCgbenchPr) {
    CGBENCH_NEEDS_NAMESPACES();
    const auto repo = scratch("sandbox-pr") / "project";
    write_file(repo / "bench" / "dict.py", std::string("#!/usr/bin/python3\n") + kDictScript, true);
    write_file(repo / "bench" / "loop.sh", std::string("#!/bin/bash\n") + kBashLoop, true);
    write_file(repo / "cgbench.toml",
               "[[bench]]\nname = \"py\"\ncommand = [\"bench/dict.py\"]\n\n"
               "[[bench]]\nname = \"sh\"\ncommand = [\"/bin/bash\", \"bench/loop.sh\"]\n");
    const std::string git =
        "git -C '" + repo.string() + "' -c user.name=t -c user.email=t@example.com ";
    ASSERT_EQ(
        std::system((git + "init -q && " + git + "add -A && " + git + "commit -qm base").c_str()),
        0);
    write_file(repo / "README.md", "# project\n");
    ASSERT_EQ(std::system((git + "add -A && " + git + "commit -qm readme").c_str()), 0);
    const std::string cmd = fmt::format(
        "cd '{}' && CGBENCH='{}' CGBENCH_DB= '{}/scripts/cgbench-pr.sh' --base HEAD~1 "
        "--out-dir '{}' >'{}/pr.log' 2>&1",
        repo.string(), CGBENCH_BINARY, CGBENCH_SOURCE_DIR, (repo / "out").string(),
        repo.parent_path().string());
    ASSERT_EQ(std::system(cmd.c_str()), 0) << util::read_file(repo.parent_path() / "pr.log");
    const auto base = read_json(repo / "out" / "base.json");
    const auto head = read_json(repo / "out" / "head.json");
    ASSERT_EQ(base["benchmarks"].size(), 2u);
    for (std::size_t i = 0; i < 2; ++i) {
        EXPECT_EQ(base["benchmarks"][i]["events"], head["benchmarks"][i]["events"])
            << base["benchmarks"][i]["name"];
    }
}

}  // namespace cgbench::e2e
