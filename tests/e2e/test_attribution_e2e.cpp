// Which functions moved, end to end: tests/programs/attrib has two functions with the same
// work; "slow-beta" gives beta 10% more iterations and leaves alpha alone. Measured twice by
// the real cgbench, the comparison must put beta first, leave alpha out, and see beta grow
// by about 10% of its own cost.

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

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

TEST(AttributionE2E, CompareListsTheMovedFunctionsInEveryFormat) {
    const auto dir = scratch("compare-moved");
    for (const auto& [file, mode] :
         {std::pair{"base.json", "normal"}, {"head.json", "slow-beta"}}) {
        ASSERT_EQ(cgbench({"run", "-q", "--name", "attrib", "--out", (dir / file).string(), "--",
                           program("attrib"), mode, "50000"})
                      .exit_code,
                  0);
    }
    const auto compare = [&](const std::string& format) {
        const auto r = cgbench({"compare", "--no-db", "--format", format,
                                (dir / "base.json").string(), (dir / "head.json").string()});
        EXPECT_EQ(r.exit_code, 1) << format << ": beta's 10% is a regression\n" << r.err;
        return r.out;
    };
    for (const auto& format : {"console", "markdown", "junit"}) {
        const auto out = compare(format);
        const auto moved = out.find("Functions that moved in attrib");
        ASSERT_NE(moved, std::string::npos) << format << "\n" << out;
        EXPECT_NE(out.find("beta", moved), std::string::npos) << format;
        EXPECT_EQ(out.find("alpha", moved), std::string::npos) << format << ": alpha did not move";
    }
    const auto json = nlohmann::json::parse(compare("json"));
    const auto& moved = json["benchmarks"][0]["functions_moved"];
    ASSERT_TRUE(moved.is_array() && !moved.empty()) << json.dump();
    EXPECT_EQ(moved[0]["name"], "beta");
    EXPECT_EQ(moved[0]["delta"].get<std::int64_t>(),
              moved[0]["head"].get<std::int64_t>() - moved[0]["base"].get<std::int64_t>());
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
    // The same result from the history, by run id.
    const auto id = load_result_file(out).id;
    const auto db = (dir / "history.db").string();
    ASSERT_EQ(cgbench({"run", "-q", "--db", db, "--name", "attrib", "--out", out, "--",
                       program("attrib")})
                  .exit_code,
              0);
    const auto stored =
        cgbench({"annotate", "--db", db, "--top", "2", load_result_file(out).id, "attrib"});
    EXPECT_EQ(stored.exit_code, 0) << stored.err;
    EXPECT_EQ(stored.out, r.out) << "the same program measured again, read from the history";
    EXPECT_NE(id, load_result_file(out).id);
    const auto missing = cgbench({"annotate", out, "nope"});
    EXPECT_EQ(missing.exit_code, 2);
    EXPECT_NE(missing.err.find("has no benchmark named 'nope'"), std::string::npos) << missing.err;
}

}  // namespace cgbench::e2e
