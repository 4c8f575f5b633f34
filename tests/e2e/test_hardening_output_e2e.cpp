// Hardening, what cgbench writes (reliability audit D1, D3, D4, D5, D14 and rows O08, O09,
// O10, O22, F03): output paths that are devices, links or stdout; --keep-raw beside planted
// links, over long names and on a full disk; a closed or full stdout after a measurement.

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>

#include "e2e/hardening.hpp"
#include "e2e/harness.hpp"
#include "history/stored_runs.hpp"
#include "sqlite_store/sqlite_history.hpp"
#include "util/fs.hpp"

namespace cgbench::e2e {

namespace {

std::string slurp(const fs::path& p) {
    return util::read_file(p);
}

std::size_t stored_runs(const fs::path& db) {
    auto store = sqlite_store::SqliteHistory::open_existing(db);
    return store ? store->run_count() : 0;
}

// A result file of a real run, for the commands that read one.
fs::path measured(const fs::path& dir, const std::string& name = "w") {
    const auto out = dir / (name + ".json");
    const auto r = cgbench({"run", "-q", "--no-db", "--name", name, "--out", out.string(), "--",
                            program("workload"), "1000"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return out;
}

}  // namespace

TEST(Hardening, D1_OutToDeviceNodeIsWrittenNotReplaced) {
    const auto dir = scratch("hardening-d1");
    const auto result = measured(dir);
    HARDENING_EXPECT_OK(in_private_tmpfs(dir / "dev", "size=1m", [&](const fs::path& dev) {
        Checks c;
        const auto null = dev / "null";
        if (!make_char_device(null, 1, 3)) return std::string("mknod failed");
        const std::vector<std::vector<std::string>> commands = {
            {"run", "-q", "--no-db", "--out", null.string(), "--", program("workload"), "1000"},
            {"compare", "-q", "--no-db", "--out", null.string(), result.string(), result.string()},
            {"export", "--no-db", "--format", "bencher", "--out", null.string(), result.string()},
            {"merge", "-q", "--no-db", "--out", null.string(), result.string()},
        };
        for (const auto& args : commands) {
            const auto r = run_cgbench(args);
            c.expect(r.exit_code == 0, args[0] + " exited " + std::to_string(r.exit_code) + ": " +
                                           r.err);
            c.expect(is_char_device(null), args[0] + " --out replaced the device node");
        }
        const auto none = std::distance(fs::directory_iterator(dev), fs::directory_iterator());
        c.expect(none == 1, "files left beside the device");
        return c.failures();
    }));
}

TEST(Hardening, O09_HtmlReportToAFullDeviceFailsWithNoSpace) {
    const auto dir = scratch("hardening-o09");
    const auto db = dir / "h.db";
    ASSERT_EQ(cgbench({"run", "-q", "--db", db.string(), "--", program("workload"), "1000"})
                  .exit_code,
              0);
    HARDENING_EXPECT_OK(in_private_tmpfs(dir / "dev", "size=1m", [&](const fs::path& dev) {
        Checks c;
        const auto full = dev / "full";
        if (!make_char_device(full, 1, 7)) return std::string("mknod failed");
        const auto r = run_cgbench({"report", "--db", db.string(), "--html", full.string()});
        c.expect(r.exit_code == 4, "exit " + std::to_string(r.exit_code) + ": " + r.err);
        c.expect(r.err.find("No space left on device") != std::string::npos, r.err);
        c.expect(r.out.find("wrote") == std::string::npos, "said 'wrote': " + r.out);
        c.expect(is_char_device(full), "the device node was replaced");
        return c.failures();
    }));
}

TEST(Hardening, O08_DashAndDevStdoutWriteTheResultToStdout) {
    const auto dir = scratch("hardening-o08");
    for (const std::string target : {"-", "/dev/stdout"}) {
        const auto r = cgbench(
            {"run", "--no-db", "--name", "w", "--out", target, "--", program("workload"), "1000"});
        ASSERT_EQ(r.exit_code, 0) << r.err;
        const auto doc = nlohmann::json::parse(r.out);  // stdout holds the result file only
        EXPECT_EQ(doc["benchmarks"][0]["name"], "w");
        EXPECT_NE(r.err.find("benchmark"), std::string::npos) << "the table goes to stderr";
    }
    const auto result = measured(dir);
    const auto c = cgbench({"compare", "--no-db", "--format", "json", "--out", "-",
                            result.string(), result.string()});
    ASSERT_EQ(c.exit_code, 0) << c.err;
    EXPECT_EQ(nlohmann::json::parse(c.out)["schema"], "cgbench-compare/1");
    EXPECT_NE(c.err.find("PASS"), std::string::npos) << "the verdict line goes to stderr";
    if (::geteuid() == 0) {  // as another user: stdout is still cgbench's own to write
        const auto r = run_cgbench({"export", "--no-db", "--format", "bencher", "--out",
                                    "/dev/stdout", result.string()},
                                   {.uid = 65534});
        EXPECT_EQ(r.exit_code, 0) << r.err;
        EXPECT_TRUE(nlohmann::json::parse(r.out).contains("w")) << r.out;
    }
}

TEST(Hardening, D1_SymbolicLinksAreFollowedOnlyWhenTheyAreTheCallers) {
    const auto dir = scratch("hardening-d1-links");
    const auto result = measured(dir);
    const auto export_to = [&](const fs::path& out) {
        return cgbench({"export", "--no-db", "--format", "bencher", "--out", out.string(),
                        result.string()});
    };
    // One's own link to a regular file: the file is replaced, the link stays.
    std::ofstream(dir / "target.json") << "old";
    fs::create_symlink("target.json", dir / "link.json");
    ASSERT_EQ(export_to(dir / "link.json").exit_code, 0);
    EXPECT_TRUE(fs::is_symlink(dir / "link.json"));
    EXPECT_TRUE(nlohmann::json::parse(slurp(dir / "target.json")).contains("w"));
    // A dangling link is refused, and nothing is created.
    fs::create_symlink("nowhere/x.json", dir / "dangling.json");
    const auto d = export_to(dir / "dangling.json");
    EXPECT_EQ(d.exit_code, 2);
    EXPECT_NE(d.err.find("symbolic link to nothing"), std::string::npos) << d.err;
    // Another user's link (planted in a shared directory) is never followed.
    if (::geteuid() == 0) {
        std::ofstream(dir / "precious.txt") << "precious";
        fs::create_symlink(dir / "precious.txt", dir / "planted.json");
        ASSERT_EQ(::lchown((dir / "planted.json").c_str(), 65534, 65534), 0);
        const auto p = export_to(dir / "planted.json");
        EXPECT_EQ(p.exit_code, 2);
        EXPECT_NE(p.err.find("symbolic link of another user"), std::string::npos) << p.err;
        EXPECT_EQ(slurp(dir / "precious.txt"), "precious");
    }
}

TEST(Hardening, D3_KeepRawNeverWritesThroughPlantedLinks) {
    const auto dir = scratch("hardening-d3");
    const auto kr = dir / "kr";
    fs::create_directories(kr);
    std::ofstream(dir / "victim.txt") << "victim";
    std::ofstream(dir / "victim2.txt") << "victim2";
    fs::permissions(dir / "victim.txt", fs::perms(0644));
    fs::create_symlink(dir / "victim.txt", kr / "t.cachegrind.out");
    fs::create_symlink(dir / "victim2.txt", kr / "t.valgrind.log");
    const auto r = cgbench({"run", "-q", "--no-db", "--keep-raw", kr.string(), "--name", "t",
                            "--", program("workload"), "1000"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(slurp(dir / "victim.txt"), "victim");
    EXPECT_EQ(slurp(dir / "victim2.txt"), "victim2");
    EXPECT_EQ(fs::status(dir / "victim.txt").permissions(), fs::perms(0644));
    EXPECT_TRUE(fs::is_regular_file(fs::symlink_status(kr / "t.cachegrind.out")));
    EXPECT_NE(slurp(kr / "t.cachegrind.out").find("summary:"), std::string::npos);
    if (::geteuid() == 0) {  // a directory another user owns is refused before measuring
        const auto shared = dir / "shared";
        fs::create_directories(shared);
        ASSERT_EQ(::chown(shared.c_str(), 65534, 65534), 0);
        const auto s = cgbench({"run", "-q", "--no-db", "--keep-raw", shared.string(), "--",
                                program("workload"), "1000"});
        EXPECT_EQ(s.exit_code, 2);
        EXPECT_NE(s.err.find("belongs to another user"), std::string::npos) << s.err;
    }
}

TEST(Hardening, D5_LongNamesWithKeepRawKeepTheWholeSuite) {
    const auto dir = scratch("hardening-d5");
    const std::string long_name(300, 'L');
    const auto suite = write_suite(dir, fmt::format("[[bench]]\nname = \"{}\"\ncommand = [\"{}\", "
                                                    "\"1000\"]\n\n[[bench]]\nname = \"short\"\n"
                                                    "command = [\"{}\", \"1200\"]\n",
                                                    long_name, program("workload"),
                                                    program("workload")));
    const auto db = dir / "h.db";
    const auto out = dir / "r.json";
    const auto r = cgbench({"run", "-q", "-j2", "--suite", suite.string(), "--keep-raw",
                            (dir / "kr").string(), "--db", db.string(), "--out", out.string()});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto doc = read_json(out);
    ASSERT_EQ(doc["benchmarks"].size(), 2u);
    EXPECT_EQ(doc["benchmarks"][0]["name"], long_name);
    EXPECT_EQ(stored_runs(db), 1u);
    const fs::path raw = doc["benchmarks"][0]["raw_file"].get<std::string>();
    EXPECT_TRUE(fs::is_regular_file(raw));
    EXPECT_LE(raw.filename().string().size(), 160u) << raw;
}

TEST(Hardening, O22_KeepRawOnAFullDiskIsAWarningNotALoss) {
    const auto dir = scratch("hardening-o22");
    HARDENING_EXPECT_OK(in_private_tmpfs(dir / "small", "size=256k", [&](const fs::path& small) {
        Checks c;
        if (!fill_filesystem(small)) return std::string("cannot fill the tmpfs");
        const auto out = dir / "r.json";
        const auto r = run_cgbench({"run", "--no-db", "--keep-raw", small.string(), "--out",
                                    out.string(), "--", program("workload"), "1000"});
        c.expect(r.exit_code == 0, "exit " + std::to_string(r.exit_code) + ": " + r.err);
        c.expect(fs::is_regular_file(out), "no result file");
        const std::string said = r.out + r.err;
        c.expect(said.find("--keep-raw") != std::string::npos &&
                     said.find("No space left on device") != std::string::npos,
                 "no warning naming the cause: " + said);
        for (const auto& e : fs::directory_iterator(small)) {
            c.expect(e.path().filename() == "filler", "left behind: " + e.path().string());
        }
        return c.failures();
    }));
}

TEST(Hardening, D4_ClosedStdoutKeepsTheMeasurement) {
    const auto dir = scratch("hardening-d4");
    const auto db = dir / "h.db";
    const auto out = dir / "r.json";
    // `cgbench run ... | true`: the reader is gone before the report is printed.
    const auto r = run_cgbench({"run", "--db", db.string(), "--out", out.string(), "--",
                                program("workload"), "1000"},
                               {.stdout_reader_closed = true});
    EXPECT_EQ(r.exit_code, 4) << r.err;
    EXPECT_NE(r.err.find("cannot write to standard output: Broken pipe"), std::string::npos)
        << r.err;
    EXPECT_TRUE(fs::is_regular_file(out));
    EXPECT_EQ(stored_runs(db), 1u);
}

TEST(Hardening, D14_StdoutWriteErrorsAreReported) {
    const auto dir = scratch("hardening-d14");
    const auto result = measured(dir);
    HARDENING_EXPECT_OK(in_private_tmpfs(dir / "dev", "size=1m", [&](const fs::path& dev) {
        Checks c;
        const auto full = dev / "full";
        if (!make_char_device(full, 1, 7)) return std::string("mknod failed");
        const auto db = dir / "h.db";
        const auto out = dir / "r2.json";
        const auto r = run_cgbench({"run", "--db", db.string(), "--out", out.string(), "--",
                                    program("workload"), "1000"},
                                   {.stdout_path = full.string()});
        c.expect(r.exit_code == 4, "run > full: exit " + std::to_string(r.exit_code));
        c.expect(r.err.find("No space left on device") != std::string::npos, r.err);
        c.expect(fs::is_regular_file(out) && stored_runs(db) == 1, "the run was not saved");
        const auto e = run_cgbench({"export", result.string(), "--no-db", "--format", "bencher"},
                                   {.stdout_path = full.string()});
        c.expect(e.exit_code == 4, "export > full: exit " + std::to_string(e.exit_code));
        const auto h = run_cgbench({"history", "--db", db.string()}, {.stdout_path = full.string()});
        c.expect(h.exit_code == 4, "history > full: exit " + std::to_string(h.exit_code));
        return c.failures();
    }));
}

TEST(Hardening, F03_RawBytesOfADamagedFileAreNotEchoed) {
    const auto dir = scratch("hardening-f03");
    const auto result = measured(dir);
    std::ofstream(dir / "garbage.json") << "\xEA\x01\xFF garbage";
    const auto r = cgbench({"compare", "--no-db", (dir / "garbage.json").string(),
                            result.string()});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("not valid JSON"), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find('\xEA'), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("\\xea"), std::string::npos) << r.err;
}

}  // namespace cgbench::e2e
