// Hardening, the staging area and the keeper (reliability audit 2: S03-S11, P03, P04, P09).
// The attacks on the once shared /tmp/cgbench run in a private mount namespace over a private
// tmpfs /tmp, with users added to a copy of /etc/passwd in that namespace only; each is tried
// with the sandbox and without it (tests/programs/no_namespaces: the kernel refuses user
// namespaces, as in a Docker container).

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/inotify.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <future>
#include <thread>

#include "e2e/sandbox_support.hpp"
#include "exec/staging.hpp"
#include "util/fs.hpp"

namespace cgbench::e2e {

namespace {

using namespace std::chrono_literals;

// The link name the shared /tmp/cgbench held for the test programs (before the sandbox).
std::string old_link_name() {
    const fs::path dir = fs::canonical(fs::path(program("workload")).parent_path());
    return exec::link_name(dir.parent_path(), 64 - dir.filename().string().size() - 1);
}

// Measures workload 2000 as `uid`, with or without namespaces, from the private /tmp.
RunFacts victim_run(bool namespaces, uid_t uid, std::vector<std::string> extra = {}) {
    std::vector<std::string> args = std::move(extra);
    args.insert(args.end(), {"--", program("workload"), "2000"});
    const Spawn spawn{.cwd = "/tmp", .uid = uid};
    return namespaces ? measure(args, spawn) : measure_without_namespaces(args, spawn);
}

// Runs `attack` (as root, on the attacker's behalf) in a private /tmp with the test users,
// then the victim with and without namespaces; `check` judges each run against the same
// run before the attack.
std::string attacked(
    const std::function<std::string(const fs::path&)>& attack,
    const std::function<void(Checks&, bool, const RunFacts&, const RunFacts&)>& check,
    uid_t victim = kVictimUid) {
    return in_private_tmpfs("/tmp", "mode=1777", [&](const fs::path& tmp) {
        Checks checks;
        if (auto e = add_test_users(tmp); !e.empty()) return e;
        const RunFacts before[2] = {victim_run(false, victim), victim_run(true, victim)};
        if (auto e = attack(tmp); !e.empty()) return e;
        for (const bool ns : {false, true}) {
            const auto after = victim_run(ns, victim);
            checks.expect(after.exit_code == 0, fmt::format("namespaces {}: exit {}: {}", ns,
                                                            after.exit_code, after.err));
            check(checks, ns, before[ns], after);
        }
        return checks.failures();
    });
}

// The same counts and fingerprint as before the attack: nothing the attacker did reached it.
void unchanged(Checks& checks, bool ns, const RunFacts& before, const RunFacts& after) {
    checks.expect(!before.events.is_null() && after.events == before.events,
                  fmt::format("namespaces {}: counts changed: {} vs {}", ns, before.events.dump(),
                              after.events.dump()));
    checks.expect(after.key == before.key, fmt::format("namespaces {}: fingerprint changed", ns));
}

}  // namespace

TEST(Hardening, S03_SquattedStagingDirectoriesCannotStopARun) {
    CGBENCH_NEEDS_NAMESPACES();
    HARDENING_EXPECT_OK(attacked(
        [](const fs::path& tmp) {
            const bool ok =
                make_owned_dir(tmp / "cgbench", kAttackerUid, 01777) &&
                make_owned_dir(tmp / fmt::format("cgbench-{}", kVictimUid), kAttackerUid, 0700);
            return ok ? std::string() : "cannot plant the attacker's directories\n";
        },
        [](Checks& checks, bool ns, const RunFacts& before, const RunFacts& after) {
            if (ns) return unchanged(checks, ns, before, after);
            // Without namespaces the victim stages in a fresh private directory, and says so.
            checks.expect(mentions(after.warnings, "is not a private directory of this user"),
                          "no warning about the squatted directory: " +
                              nlohmann::json(after.warnings).dump());
            checks.expect(after.key != before.key, "the fingerprint does not show the move");
        }));
}

TEST(Hardening, S04_S05_AnotherUsersLockNeverHoldsARun) {
    int held[2] = {-1, -1};
    HARDENING_EXPECT_OK(attacked(
        [&](const fs::path& tmp) {
            // What the attacker did: the lock files every run used to share, held exclusively.
            if (!make_owned_dir(tmp / "cgbench", kAttackerUid, 01777)) return std::string("mkdir");
            const fs::path locks[2] = {tmp / "cgbench" / (old_link_name() + ".lock"),
                                       tmp / "cgbench" / (old_link_name().substr(0, 16) + ".lock")};
            for (int i = 0; i < 2; ++i) {
                held[i] = ::open(locks[i].c_str(), O_RDWR | O_CREAT, 0644);
                if (held[i] < 0 || ::fchown(held[i], kAttackerUid, kAttackerUid) != 0 ||
                    ::flock(held[i], LOCK_EX) != 0) {
                    return std::string("cannot hold the lock\n");
                }
            }
            return std::string();
        },
        [](Checks& checks, bool ns, const RunFacts& before, const RunFacts& after) {
            unchanged(checks, ns, before, after);
        }));
    for (const int fd : held)
        if (fd >= 0) ::close(fd);
}

TEST(Hardening, S05_TimeoutAndCtrlCBoundEveryWait) {
    HARDENING_EXPECT_OK(in_private_tmpfs("/tmp", "mode=1777", [](const fs::path& tmp) {
        Checks checks;
        if (auto e = add_test_users(tmp); !e.empty()) return e;
        // A program that outlives --timeout: the run ends at the timeout, also while Ctrl-C
        // is pending nowhere; cgbench waits on nothing another user holds.
        for (const bool ns : {false, true}) {
            const std::vector<std::string> args = {"--timeout", "2", "--", program("sleeper"),
                                                   "30"};
            const Spawn spawn{.cwd = "/tmp", .uid = kVictimUid};
            const auto t0 = std::chrono::steady_clock::now();
            const auto r = ns ? measure(args, spawn) : measure_without_namespaces(args, spawn);
            const double s =
                std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
            checks.expect(r.exit_code == 3 && s < 20,
                          fmt::format("namespaces {}: exit {} after {:.1f} s: {}", ns, r.exit_code,
                                      s, r.err));
        }
        return checks.failures();
    }));
}

TEST(Hardening, S06_PlantedLinkNeitherRunsNorChangesAnything) {
    HARDENING_EXPECT_OK(attacked(
        [](const fs::path& tmp) {
            // A trojan where the link used to point: it would leave a mark if it ever ran.
            const fs::path troj = tmp / "troj" / "programs";
            if (!make_owned_dir(troj, kAttackerUid, 0755) ||
                !make_owned_dir(tmp / "cgbench", kAttackerUid, 01777)) {
                return std::string("mkdir\n");
            }
            std::ofstream(troj / "workload")
                << "#!/bin/sh\ntouch " << (tmp / "PWNED").string() << "\n";
            fs::permissions(troj / "workload", fs::perms::all);
            for (const auto& name : {old_link_name(), old_link_name().substr(0, 16)}) {
                const fs::path link = tmp / "cgbench" / name;
                if (::symlink((tmp / "troj").c_str(), link.c_str()) != 0 ||
                    ::lchown(link.c_str(), kAttackerUid, kAttackerUid) != 0) {
                    return std::string("cannot plant the link\n");
                }
            }
            return std::string();
        },
        [](Checks& checks, bool ns, const RunFacts& before, const RunFacts& after) {
            unchanged(checks, ns, before, after);
            checks.expect(!fs::exists("/tmp/PWNED"), "the trojan ran");
        }));
}

TEST(Hardening, S07_PlantedLockAndPrivateDirectoryOfTheVictimsName) {
    CGBENCH_NEEDS_NAMESPACES();
    HARDENING_EXPECT_OK(attacked(
        [](const fs::path& tmp) {
            const fs::path lock = tmp / "cgbench" / (old_link_name() + ".lock");
            const bool ok =
                make_owned_dir(tmp / "cgbench", kAttackerUid, 01777) &&
                make_owned_dir(tmp / fmt::format("cgbench-{}", kVictimUid), kAttackerUid, 0700);
            std::ofstream(lock) << "";
            return ok && ::chown(lock.c_str(), kAttackerUid, kAttackerUid) == 0 &&
                           ::chmod(lock.c_str(), 0600) == 0
                       ? std::string()
                       : std::string("cannot plant\n");
        },
        [](Checks& checks, bool ns, const RunFacts& before, const RunFacts& after) {
            if (ns) unchanged(checks, ns, before, after);
            checks.expect(!after.events.is_null(), "no result");
        }));
}

TEST(Hardening, S08_NoexecTmpRunsProgramsFromElsewhere) {
    HARDENING_EXPECT_OK(in_private_tmpfs("/tmp", "mode=1777,noexec", [](const fs::path&) {
        Checks checks;
        for (const bool ns : {false, true}) {
            const auto r = victim_run(ns, 0);
            checks.expect(r.exit_code == 0, fmt::format("namespaces {}: {}", ns, r.err));
        }
        return checks.failures();
    }));
}

TEST(Hardening, S09_ReadOnlyTmpIsNamedAndTmpdirTakesTheStaging) {
    // Outside /tmp, which the test covers: beside the build tree.
    const auto tmpdir = fs::path(CGBENCH_BINARY).parent_path().parent_path() / "s09-tmpdir";
    fs::remove_all(tmpdir);
    fs::create_directories(tmpdir);
    HARDENING_EXPECT_OK(in_private_tmpfs("/tmp", "mode=1777,ro", [&](const fs::path&) {
        Checks checks;
        for (const bool ns : {false, true}) {
            const std::vector<std::string> through =
                ns ? std::vector<std::string>{}
                   : std::vector<std::string>{program("no_namespaces")};
            // cgbench stages under $TMPDIR; Valgrind needs /tmp itself, and the error says so.
            const auto r =
                run_cgbench({"run", "--no-db", "--", program("workload"), "10"},
                            {.env = {"TMPDIR=" + tmpdir.string()}, .cwd = "/", .through = through});
            checks.expect(
                r.exit_code == 4 && r.err.find("/tmp is not writable (Read-only file "
                                               "system): Valgrind keeps") != std::string::npos,
                fmt::format("namespaces {}: with TMPDIR: exit {}: {}", ns, r.exit_code, r.err));
            checks.expect(fs::exists(tmpdir / "cgbench-0"), "TMPDIR was not used for the staging");
            // Neither writable: the staging error names the cause and the fix.
            const auto no =
                run_cgbench({"run", "--no-db", "--", program("workload"), "10"},
                            {.env = {"TMPDIR=/nonexistent"}, .cwd = "/", .through = through});
            checks.expect(no.exit_code == 4 &&
                              no.err.find("Read-only file system") != std::string::npos &&
                              no.err.find("TMPDIR") != std::string::npos,
                          fmt::format("namespaces {}: without TMPDIR: exit {}: {}", ns,
                                      no.exit_code, no.err));
        }
        return checks.failures();
    }));
    fs::remove_all(tmpdir);
}

TEST(Hardening, S10_AFullSharedDirectoryIsNeverRead) {
    HARDENING_EXPECT_OK(in_private_tmpfs("/tmp", "mode=1777", [](const fs::path& tmp) {
        Checks checks;
        const fs::path shared = tmp / "cgbench";
        fs::create_directories(shared);
        for (int i = 0; i < 2000; ++i)
            std::ofstream(shared / fmt::format("junk{}", i));
        // Whatever is there, cgbench never lists or opens it: its cost cannot grow with it.
        const int fd = ::inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
        ::inotify_add_watch(fd, shared.c_str(), IN_OPEN | IN_ACCESS);
        for (const bool ns : {false, true}) {
            const auto r = victim_run(ns, 0);
            checks.expect(r.exit_code == 0, r.err);
        }
        char buf[4096];
        checks.expect(::read(fd, buf, sizeof buf) < 0, "cgbench read /tmp/cgbench");
        ::close(fd);
        return checks.failures();
    }));
}

TEST(Hardening, S11_TwoUsersAtOnceGetTheSameCounts) {
    CGBENCH_NEEDS_NAMESPACES();
    HARDENING_EXPECT_OK(in_private_tmpfs("/tmp", "mode=1777", [](const fs::path& tmp) {
        Checks checks;
        if (auto e = add_test_users(tmp); !e.empty()) return e;
        const std::vector<std::string> args = {"--", program("workload"), "200000"};
        for (const bool ns : {true, false}) {
            const auto as = [&](uid_t uid) {
                const Spawn spawn{.cwd = "/tmp", .uid = uid};
                return ns ? measure(args, spawn) : measure_without_namespaces(args, spawn);
            };
            auto a = std::async(std::launch::async, as, kVictimUid);
            const auto m = as(kAttackerUid);
            const auto v = a.get();
            checks.expect(v.exit_code == 0 && m.exit_code == 0, v.err + m.err);
            if (ns) {
                checks.expect(v.events == m.events && v.key == m.key,
                              "counts differ between two users measuring at once");
            } else {
                // Without namespaces the users' staging paths differ: said, never silent.
                checks.expect(mentions(v.warnings, "the user (uid and passwd entry)"),
                              "no warning about the user without namespaces");
            }
        }
        return checks.failures();
    }));
}

namespace {

// A setuid-root copy of tests/programs/sleeper in `dir` (which must allow setuid).
fs::path setuid_sleeper(const fs::path& dir) {
    const fs::path p = dir / "suid-sleeper";
    fs::copy_file(program("sleeper"), p, fs::copy_options::overwrite_existing);
    if (::chown(p.c_str(), 0, 0) != 0 || ::chmod(p.c_str(), 04755) != 0) return {};
    return p;
}

}  // namespace

TEST(Hardening, P03_SetuidHelperIsKilledOrRefusedWithinTheTimeout) {
    CGBENCH_NEEDS_NAMESPACES();
    HARDENING_EXPECT_OK(in_private_tmpfs(scratch("p03"), "mode=1777", [](const fs::path& dir) {
        Checks checks;
        if (auto e = add_test_users(dir); !e.empty()) return e;
        const fs::path helper = setuid_sleeper(dir);
        if (helper.empty()) return std::string("cannot make the setuid helper\n");
        for (const bool ns : {true, false}) {
            const fs::path pidfile = dir / fmt::format("helper-{}.pid", ns);
            const std::vector<std::string> args = {
                "--timeout",     "5", "--", program("spawn_setuid"), helper.string(), "15",
                pidfile.string()};
            const Spawn spawn{.cwd = dir.string(), .uid = kVictimUid};
            const auto t0 = std::chrono::steady_clock::now();
            const auto r = ns ? measure(args, spawn) : measure_without_namespaces(args, spawn);
            const double s =
                std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
            checks.expect(s < 12, fmt::format("namespaces {}: took {:.1f} s", ns, s));
            checks.expect(r.exit_code == 3,
                          fmt::format("namespaces {}: exit {}: {}", ns, r.exit_code, r.err));
            if (ns) {
                // In its namespace the helper runs as the caller, and is killed with the rest.
                checks.expect(processes_mentioning(pidfile.string()).empty(),
                              "the helper survived");
            } else {
                checks.expect(r.err.find("may not kill") != std::string::npos, r.err);
                std::ifstream in(pidfile);
                int pid = 0;
                in >> pid;
                if (pid > 0) ::kill(pid, SIGKILL);  // what cgbench could not: the test is root
            }
        }
        return checks.failures();
    }));
}

TEST(Hardening, P04_ValgrindRefusingASetuidExecFailsTheRun) {
    HARDENING_EXPECT_OK(in_private_tmpfs(scratch("p04"), "mode=1777", [](const fs::path& dir) {
        Checks checks;
        const fs::path helper = setuid_sleeper(dir);
        if (helper.empty()) return std::string("cannot make the setuid helper\n");
        const auto r =
            measure({"--warmup", "0", "--", program("spawn_setuid"), helper.string(), "1"},
                    {.cwd = dir.string()});
        checks.expect(r.exit_code == 3, fmt::format("exit {}: {}", r.exit_code, r.err));
        checks.expect(r.err.find("could not run a setuid or setgid program under Valgrind") !=
                          std::string::npos,
                      r.err);
        return checks.failures();
    }));
}

namespace {

// Kills the children of `pid` that run its own executable (cgbench's keepers: cgbench
// forked). Any of these processes may end while being read: what vanished is skipped.
void kill_forked_copies(pid_t pid) {
    std::error_code ec;
    const fs::path self = fs::read_symlink(fmt::format("/proc/{}/exe", pid), ec);
    if (ec) return;
    fs::directory_iterator task(fmt::format("/proc/{}/task", pid), ec);
    for (; !ec && task != fs::directory_iterator(); task.increment(ec)) {
        std::ifstream children(task->path() / "children");
        for (int child = 0; children >> child;) {
            std::error_code child_ec;
            const fs::path exe = fs::read_symlink(fmt::format("/proc/{}/exe", child), child_ec);
            if (!child_ec && exe == self) ::kill(child, SIGKILL);
        }
    }
}

}  // namespace

TEST(Hardening, P09_KillingTheKeeperKillsTheTree) {
    const auto dir = scratch("p09");
    const std::string mark = (dir / "mark").string();
    const std::string script =
        fmt::format("setsid {0} 61 {1}-a & {0} 62 {1}-b; wait", program("sleeper"), mark);
    pid_t cgbench_pid = 0;
    std::thread killer;
    const auto r =
        run_cgbench({"run", "--no-db", "--warmup", "0", "--", "/bin/sh", "-c", script},
                    {.started = [&](pid_t pid) {
                        cgbench_pid = pid;
                        killer = std::thread([pid, mark] {
                            for (int i = 0; i < 600 && processes_mentioning(mark).size() < 2; ++i)
                                std::this_thread::sleep_for(100ms);
                            kill_forked_copies(pid);
                        });
                    }});
    killer.join();
    EXPECT_EQ(r.exit_code, 4) << r.err;
    bool gone = false;
    for (int i = 0; i < 100 && !gone; ++i) {
        gone = processes_mentioning(mark).empty();
        if (!gone) std::this_thread::sleep_for(100ms);
    }
    EXPECT_TRUE(gone) << "the program's processes outlived the keeper";
    for (const int pid : processes_mentioning(mark))
        ::kill(pid, SIGKILL);
}

}  // namespace cgbench::e2e
