// Which functions moved, end to end: tests/programs/attrib has two functions with the same
// work; "slow-beta" gives beta 10% more iterations and leaves alpha alone. Measured twice by
// the real cgbench, the comparison must put beta first, leave alpha out, and see beta grow
// by about 10% of its own cost.

#include <gtest/gtest.h>

#include "compare/attribution.hpp"
#include "core/result_json.hpp"
#include "e2e/harness.hpp"

namespace cgbench::e2e {

namespace {

BenchmarkResult measure(const std::string& mode, const std::vector<std::string>& extra = {}) {
    const auto out = scratch("attrib-" + mode) / "result.json";
    std::vector<std::string> args = {"run", "-q", "--out", out.string()};
    args.insert(args.end(), extra.begin(), extra.end());
    for (const auto& a : {std::string("--"), program("attrib"), mode, std::string("50000")})
        args.push_back(a);
    const auto r = cgbench(args);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return load_result_file(out).benchmarks.at(0);
}

}  // namespace

TEST(AttributionE2E, TheSlowerFunctionComesFirst) {
    const auto base = measure("normal");
    const auto head = measure("slow-beta");
    ASSERT_FALSE(base.functions.empty());
    const auto changes = compare::attribute_change(base, head);
    ASSERT_FALSE(changes.empty());
    EXPECT_EQ(changes[0].name, "beta");
    ASSERT_TRUE(changes[0].base && changes[0].head);
    const double growth =
        static_cast<double>(changes[0].delta) / static_cast<double>(*changes[0].base);
    EXPECT_GT(growth, 0.09);
    EXPECT_LT(growth, 0.11);
    ASSERT_TRUE(changes[0].share);
    EXPECT_GT(*changes[0].share, 0.9);  // beta explains nearly all of the change
    for (const auto& c : changes)
        EXPECT_NE(c.name, "alpha") << "alpha did not change";
}

TEST(AttributionE2E, AnnotateShowsTheTopFunctions) {
    const auto dir = scratch("annotate");
    const auto out = (dir / "r.json").string();
    ASSERT_EQ(
        cgbench({"run", "-q", "--name", "attrib", "--out", out, "--", program("attrib")}).exit_code,
        0);
    const auto r = cgbench({"annotate", "--top", "2", out, "attrib"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("alpha"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("beta"), std::string::npos) << r.out;
    const auto missing = cgbench({"annotate", out, "nope"});
    EXPECT_EQ(missing.exit_code, 2);
    EXPECT_NE(missing.err.find("has no benchmark named 'nope'"), std::string::npos) << missing.err;
}

}  // namespace cgbench::e2e
