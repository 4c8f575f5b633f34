// Saying on a single run when counts cannot repeat (runner/repeatability.hpp), and the opt-in
// switches that make such programs repeat (--fixed-clock, --fixed-random): a Lua table
// program (Lua seeds its string hashes from time()), a C hash table seeded from getrandom() as
// Rust's HashMap is, a loop that runs for a set time, a shell pipeline; and no warning for
// programs that repeat. Also an instruction Valgrind cannot decode, named with its fix.

#include <gtest/gtest.h>

#include <fstream>

#include "e2e/sandbox_support.hpp"

namespace cgbench::e2e {

namespace {

constexpr const char* kLuaTable =
    "local t = {}\nfor i = 1, 3000 do t['k' .. i] = i end\nlocal s = 0\n"
    "for k, v in pairs(t) do s = s + v end\nprint(s)\n";

// Whether one run warns with `text`, and `--verify 3` with `fixes` repeats exactly.
void warned_then_exact(const std::vector<std::string>& command, const std::string& text,
                       const std::vector<std::string>& fixes, const std::string& cwd = {}) {
    const auto once = measure(command, {.cwd = cwd});
    ASSERT_EQ(once.exit_code, 0) << once.err;
    EXPECT_TRUE(mentions(once.warnings, text)) << nlohmann::json(once.warnings).dump(2);
    std::vector<std::string> args = fixes;
    args.insert(args.end(), {"--verify", "3"});
    args.insert(args.end(), command.begin(), command.end());
    const auto fixed = measure(args, {.cwd = cwd});
    EXPECT_EQ(fixed.exit_code, 0) << fixed.err;
    EXPECT_FALSE(mentions(fixed.warnings, text)) << nlohmann::json(fixed.warnings).dump(2);
}

}  // namespace

TEST(Determinism, LuaTableIsWarnedAndRepeatsWithAFixedClock) {
    const auto dir = scratch("det-lua");
    std::ofstream(dir / "table.lua") << kLuaTable;
    warned_then_exact({"--", "/usr/bin/lua5.4", "table.lua"},
                      "is Lua, which seeds its string hashes", {"--fixed-clock"}, dir.string());
}

TEST(Determinism, GetrandomSeededHashIsWarnedAndRepeatsWithFixedRandom) {
    warned_then_exact({"--", program("seeded_hash"), "3000"}, "reads entropy (getrandom)",
                      {"--fixed-random"});
}

TEST(Determinism, TimedLoopIsWarnedAndRepeatsWithAFixedClock) {
    warned_then_exact({"--", program("timed_loop"), "30"}, "reads the clock about",
                      {"--fixed-clock"});
}

TEST(Determinism, PipelineIsWarned) {
    const auto r = measure({"--", "/bin/sh", "-c", "seq 1 20000 | sort -rn | head -n 1"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(mentions(r.warnings, "'/usr/bin/sort -rn' read its input while"))
        << nlohmann::json(r.warnings).dump(2);
}

TEST(Determinism, ProgramsThatRepeatAreNotWarned) {
    CGBENCH_NEEDS_NAMESPACES();
    const auto dir = scratch("det-quiet");
    std::ofstream(dir / "two.sh") << "#!/bin/sh\n"
                                  << program("workload") << " 2000\n"
                                  << program("workload") << " 3000\n";
    fs::permissions(dir / "two.sh", fs::perms::owner_all);
    const std::vector<std::vector<std::string>> commands = {
        {"--", program("workload"), "2000"},
        {"--", program("print_pid"), "3"},
        {"--", example("word_count.py")},
        {"--", "/usr/bin/python3", CGBENCH_SOURCE_DIR "/tests/programs/pydict.py"},
        {"--", (dir / "two.sh").string()},
        {"--", "/usr/bin/sqlite3", ":memory:", "select 1;"},
    };
    for (const auto& c : commands) {
        const auto r = measure(c, {.cwd = dir.string()});
        ASSERT_EQ(r.exit_code, 0) << c[1] << ": " << r.err;
        auto warnings = r.warnings;
        // print_pid's children do not exec: that they hold their parent's counts is said
        // (Hardening.X03), and is no doubt about repeating.
        if (c[1] == program("print_pid")) {
            ASSERT_EQ(warnings.size(), 1u) << nlohmann::json(warnings).dump(2);
            EXPECT_EQ(warnings[0].rfind("3 forked process(es) that did not exec are counted", 0),
                      0u)
                << warnings[0];
            warnings.clear();
        }
        EXPECT_EQ(warnings, std::vector<std::string>{}) << c[1];
    }
}

TEST(Determinism, InstructionValgrindCannotDecodeIsNamedWithItsFix) {
    const auto r = run_cgbench({"run", "--no-db", "--", program("undecodable")});
    EXPECT_EQ(r.exit_code, 3) << r.err;
    EXPECT_NE(r.err.find("from Valgrind, not from the program"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("an AVX-512 instruction (0x62 0xF1 0x7D 0x48)"), std::string::npos)
        << r.err;
}

}  // namespace cgbench::e2e
