// Branch simulation end to end (`--branch-sim`, a suite's branch_sim): the real Valgrind's
// Bc/Bcm/Bi/Bim equal to its own totals, the mispredictions in the cost under each kind of
// weights, in the fingerprint, and refused where they cannot be counted.

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "e2e/harness.hpp"

namespace cgbench::e2e {

namespace {

std::uint64_t u(const nlohmann::json& v) {
    return v.get<std::uint64_t>();
}

// The cost by hand from a result's events: the hits as DESIGN §2 says, the mispredicted
// conditional branches.
std::uint64_t cost_by_hand(const nlohmann::json& b, std::uint64_t l1w, std::uint64_t llw,
                           std::uint64_t ramw, std::uint64_t mw) {
    const auto& e = b["events"];
    const std::uint64_t ram = u(e["ILmr"]) + u(e["DLmr"]) + u(e["DLmw"]);
    const std::uint64_t ll = u(e["I1mr"]) + u(e["D1mr"]) + u(e["D1mw"]) - ram;
    const std::uint64_t l1 = u(e["Ir"]) + u(e["Dr"]) + u(e["Dw"]) - ram - ll;
    return l1w * l1 + llw * ll + ramw * ram + mw * u(e["Bcm"]);
}

}  // namespace

TEST(BranchSimE2E, EventsEqualValgrindsOwnTotalsAndMispredictionsWeighTheCost) {
    const auto dir = scratch("branch-sim");
    const auto r = cgbench({"run", "-q", "--no-db", "--branch-sim", "--name", "squares",
                            "--keep-raw", dir.string(), "--out", (dir / "r.json").string(), "--",
                            example("magic_squares"), "direct", "20000"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto doc = read_json(dir / "r.json");
    const auto& b = doc["benchmarks"][0];
    const auto totals = cg_annotate_totals(dir / "squares.cachegrind.out");
    ASSERT_EQ(totals.size(), 13u) << "cache and branch events";
    for (const auto& [name, value] : totals)
        EXPECT_EQ(u(b["events"][name]), value) << name;
    EXPECT_GT(u(b["events"]["Bcm"]), 1000u) << "random squares mispredict";
    // pythonspeed with branch simulation: its misprediction weight, in the fingerprint too.
    EXPECT_EQ(u(b["weights"]["mispredict"]), 20u);
    EXPECT_EQ(u(b["cost"]), cost_by_hand(b, 1, 5, 35, 20));
    const auto& fp = doc["run"]["fingerprint"];
    EXPECT_EQ(fp["branch_sim"], true);
    EXPECT_EQ(fp["weights"], b["weights"]);
    // The costliest functions still add up to the cost: their mispredictions are weighed too.
    std::uint64_t sum = 0;
    for (const auto& f : b["functions"])
        sum += u(f["cost"]);
    EXPECT_EQ(sum, u(b["cost"]));

    // Custom weights with a fourth weight, and KCachegrind's own.
    for (const auto& [weights, mw] : {std::pair{"1,2,3,7", 7}, {"kcachegrind", 10}}) {
        const auto c = run_document({"--branch-sim", "--weights", weights, "--",
                                     example("magic_squares"), "direct", "20000"});
        const auto& cb = c["benchmarks"][0];
        const std::uint64_t l1w = cb["weights"]["l1"], llw = cb["weights"]["ll"],
                            ramw = cb["weights"]["ram"];
        EXPECT_EQ(u(cb["cost"]), cost_by_hand(cb, l1w, llw, ramw, static_cast<std::uint64_t>(mw)))
            << weights;
        EXPECT_EQ(cb["events"], b["events"]) << weights << ": the same events";
    }
}

TEST(BranchSimE2E, ASuiteTurnsItOnAndCompareTellsTheRunsApart) {
    const auto dir = scratch("branch-sim-suite");
    const auto suite = write_suite(
        dir, fmt::format("[defaults]\nbranch_sim = true\nweights = \"1,5,35,12\"\n\n[[bench]]\n"
                         "name = \"w\"\ncommand = [\"{}\", \"2000\"]\n",
                         program("workload")));
    const auto on = cgbench(
        {"run", "-q", "--no-db", "--suite", suite.string(), "--out", (dir / "on.json").string()});
    ASSERT_EQ(on.exit_code, 0) << on.err;
    const auto doc = read_json(dir / "on.json");
    const auto& b = doc["benchmarks"][0];
    EXPECT_TRUE(b["events"].contains("Bim"));
    EXPECT_EQ(u(b["cost"]), cost_by_hand(b, 1, 5, 35, 12));

    const auto off = cgbench({"run", "-q", "--no-db", "--name", "w", "--out",
                              (dir / "off.json").string(), "--", program("workload"), "2000"});
    ASSERT_EQ(off.exit_code, 0) << off.err;
    EXPECT_FALSE(read_json(dir / "off.json")["benchmarks"][0]["events"].contains("Bcm"));
    const auto cmp =
        cgbench({"compare", "--no-db", (dir / "off.json").string(), (dir / "on.json").string()});
    EXPECT_EQ(cmp.exit_code, 2) << cmp.out << cmp.err;
    EXPECT_NE(cmp.err.find("branch simulation: off vs on"), std::string::npos) << cmp.err;
}

TEST(BranchSimE2E, AMispredictionWeightWithoutBranchSimulationIsRefusedBeforeMeasuring) {
    const auto r = cgbench({"run", "--no-db", "--weights", "1,5,35,20", "--", "/nonexistent/prog"});
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_NE(r.err.find("branch simulation is off"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("--branch-sim"), std::string::npos) << r.err;
}

}  // namespace cgbench::e2e
