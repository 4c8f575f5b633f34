// `cgbench calibrate` end to end with a tiny sweep: the real kernels timed natively and run
// under the real Valgrind, the weights file it writes used by `cgbench run --weights FILE`
// and by a suite, hits that equal what Valgrind itself counts, and the refusal of noisy
// timings (a program whose run time is random) with exit 4.

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <fstream>

#include "config/weights_file.hpp"
#include "e2e/harness.hpp"
#include "exec/process.hpp"
#include "support/by_hand.hpp"
#include "util/fs.hpp"

namespace cgbench::e2e {

namespace {

// Fast: three sizes, short loops, one round of three runs, any noise accepted.
const std::vector<std::string> kTiny = {"--sizes",  "4K,256K,16M", "--steps",  "20000",
                                        "--rounds", "1",           "--repeat", "3"};

Result calibrate(std::vector<std::string> args, const Options& options = {}) {
    std::vector<std::string> full = {"calibrate"};
    full.insert(full.end(), args.begin(), args.end());
    return cgbench(full, options);
}

// Valgrind's own counts in one of the output files calibrate kept, read by hand.
std::map<std::string, std::uint64_t> valgrind_counts(const fs::path& file) {
    return test::counts_by_hand(util::read_file(file), "events:", "summary:");
}

// a - b, or 0: a loop that touches nothing new can end with one RAM hit fewer than the run
// without it (what the exit path misses differs), and calibration counts that as none.
std::uint64_t minus(std::uint64_t a, std::uint64_t b) {
    return a > b ? a - b : 0;
}

struct Hits {
    std::uint64_t l1, ll, ram, ir;
};

Hits hits_by_hand(std::map<std::string, std::uint64_t> c) {
    const std::uint64_t ram = c["ILmr"] + c["DLmr"] + c["DLmw"];
    const std::uint64_t misses = c["I1mr"] + c["D1mr"] + c["D1mw"];
    return {c["Ir"] + c["Dr"] + c["Dw"] - misses, misses - ram, ram, c["Ir"]};
}

}  // namespace

TEST(CalibrateE2E, TinySweepWritesWeightsThatRunAndSuitesUse) {
    const auto dir = scratch("calibrate-sweep");
    auto args = kTiny;
    fs::create_directories(dir / "raw");
    args.insert(args.end(),
                {"--max-noise", "100%", "--format", "json", "--out", (dir / "w.toml").string(),
                 "--html", (dir / "c.html").string(), "--keep-raw", (dir / "raw").string()});
    const auto r = calibrate(args);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto doc = nlohmann::json::parse(r.out);
    EXPECT_EQ(doc["schema"], "cgbench-calibration/1");
    ASSERT_EQ(doc["kernels"].size(), 10u);  // 2 walks x 3 sizes, 2 compute, 2 branch
    EXPECT_EQ(doc["kernels"][4]["name"], "walk/random/256K");
    for (const auto& k : doc["kernels"]) {
        EXPECT_EQ(k["time"]["runs"].size(), 3u) << k["name"];
        EXPECT_GT(k["time"]["median"].get<double>(), 0) << k["name"];
    }
    ASSERT_EQ(doc["weight_sets"].size(), 3u);
    EXPECT_EQ(doc["weight_sets"][2]["name"], "fitted");

    // The file holds the fitted weights of the report.
    const auto w = config::load_weights_file(dir / "w.toml");
    EXPECT_EQ(w.name, "calibrated");
    EXPECT_EQ(w.l1, doc["fitted"]["l1"].get<std::uint64_t>());
    EXPECT_EQ(w.ll, doc["fitted"]["ll"].get<std::uint64_t>());
    EXPECT_EQ(w.ram, doc["fitted"]["ram"].get<std::uint64_t>());
    EXPECT_NE(util::read_file(dir / "c.html").find("<svg"), std::string::npos);

    // One loop's hits are what Valgrind counted with the loop minus without it, in the very
    // files it wrote for calibrate.
    const auto with = hits_by_hand(valgrind_counts(dir / "raw/walk_random_256K.cachegrind.out"));
    const auto without =
        hits_by_hand(valgrind_counts(dir / "raw/walk_random_256K__setup_.cachegrind.out"));
    EXPECT_NE(util::read_file(dir / "raw/walk_random_256K.cachegrind.out")
                  .find("cgbench-kernels run walk-random 262144 20000 1 1\n"),
              std::string::npos);
    EXPECT_NE(util::read_file(dir / "raw/walk_random_256K__setup_.cachegrind.out")
                  .find("cgbench-kernels run walk-random 262144 20000 1 0\n"),
              std::string::npos);
    const auto& k = doc["kernels"][4];
    EXPECT_EQ(k["Ir"].get<std::uint64_t>(), minus(with.ir, without.ir));
    EXPECT_EQ(k["hits"]["l1"].get<std::uint64_t>(), minus(with.l1, without.l1));
    EXPECT_EQ(k["hits"]["ll"].get<std::uint64_t>(), minus(with.ll, without.ll));
    EXPECT_EQ(k["hits"]["ram"].get<std::uint64_t>(), minus(with.ram, without.ram));
    EXPECT_GT(with.ir - without.ir, 20000u * 10) << "not one loop of 20000 steps";

    // `run --weights FILE` records them like any custom weights, and its cost uses them.
    const auto run =
        cgbench({"run", "-q", "--no-db", "--weights", (dir / "w.toml").string(), "--out",
                 (dir / "r.json").string(), "--", example("memory_cache"), "linear", "20000"});
    ASSERT_EQ(run.exit_code, 0) << run.err;
    const auto result = read_json(dir / "r.json");
    const auto& b = result["benchmarks"][0];
    EXPECT_EQ(b["weights"]["l1"], w.l1);
    EXPECT_EQ(b["weights"]["ll"], w.ll);
    EXPECT_EQ(b["weights"]["ram"], w.ram);
    EXPECT_EQ(b["weights"]["preset"], "calibrated");
    EXPECT_EQ(result["run"]["fingerprint"]["weights"], b["weights"]);
    const auto& d = b["derived"];
    EXPECT_EQ(b["cost"].get<std::uint64_t>(), w.l1 * d["l1_hits"].get<std::uint64_t>() +
                                                  w.ll * d["ll_hits"].get<std::uint64_t>() +
                                                  w.ram * d["ram_hits"].get<std::uint64_t>());

    // A suite names the file relative to itself, wherever cgbench runs.
    fs::create_directories(dir / "proj");
    fs::copy_file(dir / "w.toml", dir / "proj" / "machine.toml");
    const auto suite = write_suite(
        dir / "proj", fmt::format("[defaults]\nweights = \"machine.toml\"\n\n[[bench]]\nname = "
                                  "\"m\"\ncommand = [\"{}\", \"linear\", \"20000\"]\n",
                                  example("memory_cache")));
    const auto s = cgbench(
        {"run", "-q", "--no-db", "--suite", suite.string(), "--out", (dir / "s.json").string()},
        {.cwd = fs::temp_directory_path().string()});
    ASSERT_EQ(s.exit_code, 0) << s.err;
    EXPECT_EQ(read_json(dir / "s.json")["benchmarks"][0]["weights"], b["weights"]);
}

TEST(CalibrateE2E, NoisyTimingsAreRefusedWithExit4AndNothingWritten) {
    const auto dir = scratch("calibrate-noisy");
    const auto suite = write_suite(
        dir,
        fmt::format("[[bench]]\nname = \"noisy\"\ncommand = [\"{}\"]\n", program("noisy_spin")));
    const auto r = calibrate({"--sizes", "4K", "--steps", "200000", "--rounds", "1", "--repeat",
                              "9", "--max-noise", "5%", "--suite", suite.string(), "--out",
                              (dir / "w.toml").string()});
    EXPECT_EQ(r.exit_code, 4) << r.err;
    EXPECT_NE(r.err.find("native timings are too noisy to fit"), std::string::npos) << r.err;
    // The worst kernel is named; on a loaded machine a short real kernel can be worse than
    // the noisy program, which the table must flag in any case.
    EXPECT_NE(r.err.find("(worst: "), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("quiet machine"), std::string::npos) << r.err;
    const auto row = r.err.find("\nnoisy ");
    ASSERT_NE(row, std::string::npos) << "no table of timings: " << r.err;
    EXPECT_EQ(r.err.substr(r.err.find('\n', row + 1) - 9, 9), "too noisy") << r.err;
    EXPECT_FALSE(fs::exists(dir / "w.toml"));
    EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator()), 1)
        << "something besides the suite was left behind";
}

TEST(CalibrateE2E, BadOptionsFailBeforeAnythingRuns) {
    const auto dir = scratch("calibrate-usage");
    const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
        {{"--sizes", "12X"}, "invalid working-set size '12X'"},
        {{"--clock", "sundial"}, "invalid --clock 'sundial'"},
        {{"--max-noise", "0%"}, "invalid --max-noise '0%'"},
        {{"--filter", "x"}, "--filter selects benchmarks of --suite"},
        {{"--steps", "10"}, "invalid --steps '10'"},
        {{"--cpu", "eleven"}, "invalid --cpu 'eleven'"},
        {{"--format", "xml"}, "unknown format 'xml'"},
        {{"--out", (dir / "missing" / "w.toml").string()}, "missing"},
        {{"--out", (dir / "same").string(), "--html", (dir / "same").string()}, "same file"},
        {{"--json", (dir / "same").string(), "--html", (dir / "x" / ".." / "same").string()},
         "same file"},
    };
    for (const auto& [args, message] : cases) {
        const auto r = calibrate(args);
        EXPECT_EQ(r.exit_code, 2) << args.front() << ": " << r.err;
        EXPECT_NE(r.err.find(message), std::string::npos) << r.err;
        EXPECT_EQ(r.out, "");
    }
}

TEST(CalibrateE2E, CyclesWithoutACounterIsAnEnvironmentError) {
    exec::ProcessSpec spec;
    spec.argv = {CGBENCH_KERNELS_PROGRAM, "probe"};
    spec.env = {"PATH=/usr/bin:/bin"};
    exec::PosixProcessRunner runner;
    const auto probe = runner.run(spec);
    ASSERT_EQ(probe.exit_code, 0);
    if (probe.stdout_tail.find("timer cycles") != std::string::npos) {
        GTEST_SKIP() << "this machine has a cycle counter";
    }
    const auto r = calibrate({"--clock", "cycles", "--sizes", "4K"});
    EXPECT_EQ(r.exit_code, 4) << r.err;
    EXPECT_NE(r.err.find("cycle counter is not available here"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("--clock cpu"), std::string::npos) << r.err;
}

// A program timed natively reads its stdin file from the start on every run: `grep -q` exits
// 1 when it finds nothing, which it would from the second run on if the runs shared the
// offset the first one left at the end.
TEST(CalibrateE2E, EveryNativeRunOfAProgramReadsAllOfItsStdin) {
    const auto dir = scratch("calibrate-stdin");
    util::write_file_atomic(dir / "input.txt", "needle\n");
    exec::ProcessSpec spec;
    spec.argv = {CGBENCH_KERNELS_PROGRAM, "exec", "1", "3", "--", "/bin/grep", "-q", "needle"};
    spec.env = {"PATH=/usr/bin:/bin"};
    spec.stdin_path = (dir / "input.txt").string();
    exec::PosixProcessRunner runner;
    const auto r = runner.run(spec);
    EXPECT_EQ(r.exit_code, 0) << r.stdout_tail << r.stderr_tail;
    EXPECT_EQ(r.stdout_tail.find("failed"), std::string::npos) << r.stdout_tail;
    std::size_t samples = 0;
    for (std::size_t at = r.stdout_tail.find("sample "); at != std::string::npos;
         at = r.stdout_tail.find("sample ", at + 1))
        ++samples;
    EXPECT_EQ(samples, 3u) << r.stdout_tail;
}

// Every new term in one tiny calibration: branch simulation, an L2 from a second geometry run
// and held-out programs. The mispredicts and L2 hits of a loop are what Valgrind counted in the
// files it wrote; the programs are tested on, never fitted on; the weights file carries the
// misprediction weight, which `run` uses only with --branch-sim.
TEST(CalibrateE2E, BranchSimL2AndHeldOutProgramsInOneTinySweep) {
    const auto dir = scratch("calibrate-terms");
    fs::create_directories(dir / "raw");
    const auto programs = write_suite(
        dir,
        fmt::format("[[bench]]\nname = \"workload\"\ncommand = [\"{}\", \"20000\"]\n\n"
                    "[[bench]]\nname = \"squares\"\ncommand = [\"{}\", \"direct\", \"3000\"]\n",
                    program("workload"), example("magic_squares")));
    const auto r = calibrate({"--sizes",
                              "4K,256K",
                              "--steps",
                              "20000",
                              "--rounds",
                              "1",
                              "--repeat",
                              "3",
                              "--max-noise",
                              "100%",
                              "--branch-sim",
                              "--l2",
                              "131072,8,64",
                              "--programs",
                              programs.string(),
                              "--format",
                              "json",
                              "--out",
                              (dir / "w.toml").string(),
                              "--keep-raw",
                              (dir / "raw").string()});
    // So tiny a sweep may fit the times too badly for its weights to be written (exit 4, the
    // file refused: Hardening.C04); the report is printed either way.
    const bool written = r.exit_code == 0;
    if (!written) {
        ASSERT_EQ(r.exit_code, 4) << r.err;
        ASSERT_NE(r.err.find("was not written"), std::string::npos) << r.err;
        EXPECT_FALSE(fs::exists(dir / "w.toml"));
    }
    const auto doc = nlohmann::json::parse(r.out);
    EXPECT_EQ(doc["l2"], "131072,8,64");
    EXPECT_EQ(doc["fingerprint"]["branch_sim"], true);
    ASSERT_EQ(doc["kernels"].size(), 8u);  // 2 walks x 2 sizes, 2 compute, 2 branch
    ASSERT_EQ(doc["programs"].size(), 2u);
    EXPECT_EQ(doc["programs"][1]["name"], "squares");
    std::vector<std::string> names;
    for (const auto& s : doc["weight_sets"]) {
        names.push_back(s["name"]);
        EXPECT_TRUE(s.contains("programs")) << s["name"];
    }
    EXPECT_EQ(names,
              (std::vector<std::string>{"pythonspeed", "kcachegrind", "fitted",
                                        "pythonspeed + mispredicts", "kcachegrind + mispredicts",
                                        "fitted + mispredicts", "fitted + L2", "fitted + all"}));

    // branch/random: one loop's mispredictions by hand, from the runs with and without it.
    const auto by_hand = [&](const std::string& file) {
        return valgrind_counts(dir / "raw" / file);
    };
    auto with = by_hand("branch_random.cachegrind.out");
    auto without = by_hand("branch_random__setup_.cachegrind.out");
    const auto& random = doc["kernels"][7];
    ASSERT_EQ(random["name"], "branch/random");
    EXPECT_EQ(random["mispredicts"].get<std::uint64_t>(), minus(with["Bcm"], without["Bcm"]));
    EXPECT_EQ(random["indirect_mispredicts"].get<std::uint64_t>(),
              minus(with["Bim"], without["Bim"]));
    EXPECT_GT(random["mispredicts"].get<std::uint64_t>(), 20000u / 4) << "a random branch";
    EXPECT_LT(doc["kernels"][6]["mispredicts"].get<std::uint64_t>(), 20000u / 100)
        << "branch/predictable";
    // walk/random/256K: its L2 hits are the LL hits of the run with the L2 as LL.
    const auto l2_with = hits_by_hand(by_hand("L2/walk_random_256K.cachegrind.out"));
    const auto l2_without = hits_by_hand(by_hand("L2/walk_random_256K__setup_.cachegrind.out"));
    EXPECT_NE(util::read_file(dir / "raw/L2/walk_random_256K.cachegrind.out").find("131072 B"),
              std::string::npos)
        << "not the L2 geometry";
    const auto& walk = doc["kernels"][3];
    ASSERT_EQ(walk["name"], "walk/random/256K");
    EXPECT_EQ(walk["hits"]["l2"].get<std::uint64_t>(), minus(l2_with.ll, l2_without.ll));
    // A program's counts are its whole run, once.
    const auto squares = by_hand("squares.cachegrind.out");
    EXPECT_EQ(doc["programs"][1]["mispredicts"].get<std::uint64_t>(), squares.at("Bcm"));
    EXPECT_EQ(doc["programs"][1]["indirect_mispredicts"].get<std::uint64_t>(), squares.at("Bim"));

    // The weights file holds the fit with mispredicts; run uses it with --branch-sim only.
    if (!written) return;
    const auto w = config::load_weights_file(dir / "w.toml");
    EXPECT_EQ(w.mispredict, doc["fitted"]["mispredict"].get<std::uint64_t>());
    const auto refused = cgbench({"run", "-q", "--no-db", "--weights", (dir / "w.toml").string(),
                                  "--", program("workload"), "2000"});
    EXPECT_EQ(refused.exit_code, w.mispredict > 0 ? 2 : 0) << refused.err;
    const auto used = cgbench({"run", "-q", "--no-db", "--branch-sim", "--weights",
                               (dir / "w.toml").string(), "--", program("workload"), "2000"});
    EXPECT_EQ(used.exit_code, 0) << used.err;
}

}  // namespace cgbench::e2e
