// Functions that moved between Valgrind 3.24 and 3.27 on one binary: tests/data/valgrind-3.27/
// overloads.cpp built `g++ -O2 -g -static-pie` on Debian 12, stripped, and run under Callgrind
// 3.24 (Debian 13's package) and 3.27 (Debian testing's) with an empty environment. Being
// static, the program's code is the same under both. 3.25 moved the load address of
// position-independent executables, so its unnamed functions that Callgrind names by their
// load address ("0x..." names; the others it names by an offset, unchanged) changed name;
// attribution matches them back.

#include <gtest/gtest.h>

#include <set>

#include "compare/attribution.hpp"
#include "runner/function_costs.hpp"
#include "util/fs.hpp"
#include "valgrind/callgrind_parser.hpp"

namespace cgbench::compare {

namespace {

BenchmarkResult measured(const std::string& file) {
    const auto weights = metrics::parse_weights("ir");
    const std::string text =
        util::read_file(std::string(CGBENCH_TEST_DATA) + "/valgrind-3.27/" + file);
    const auto profile = valgrind::parse_callgrind(text, {.collect_functions = true});
    BenchmarkResult r;
    r.name = "overloads";
    r.functions = runner::top_functions(profile, weights, 1000);
    for (const auto& f : r.functions)
        r.cost += f.cost;
    return r;
}

bool is_address(const std::string& name) {
    return name.size() == 18 && name.starts_with("0x");
}

}  // namespace

TEST(AttributionAcrossValgrind, UnnamedFunctionsOfAPieAreMatchedAcrossTheLoadAddressMove) {
    const auto base = measured("pie-stripped-3.24.callgrind.out");
    const auto head = measured("pie-stripped-3.27.callgrind.out");
    // Unnamed functions (file and address) listed under one version only, by name alone.
    std::set<std::pair<std::string, std::string>> in_base, in_head;
    for (const auto& f : base.functions)
        if (is_address(f.name)) in_base.insert({f.file, f.name});
    for (const auto& f : head.functions)
        if (is_address(f.name)) in_head.insert({f.file, f.name});
    std::size_t one_sided_by_name = 0;
    for (const auto& k : in_base)
        one_sided_by_name += !in_head.count(k);
    for (const auto& k : in_head)
        one_sided_by_name += !in_base.count(k);
    // The functions named by their load address (the others by an offset) moved with it.
    ASSERT_GE(one_sided_by_name, 2u);

    const auto changes = attribute_change(base, head, 100000);
    std::size_t matched = 0, one_sided = 0;
    for (const auto& c : changes) {
        if (!is_address(c.name)) continue;
        if (!c.base_name.empty()) {
            ++matched;
            // The same offset in the executable: the names differ by the move of its base.
            const auto b = std::stoull(c.base_name, nullptr, 16);
            const auto h = std::stoull(c.name, nullptr, 16);
            EXPECT_EQ(h - b, 0x4000000u - 0x108000u) << c.base_name << " " << c.name;
        }
        one_sided += !c.base || !c.head;
    }
    // Every one of them is matched back: none stays one-sided.
    EXPECT_EQ(one_sided, 0u) << one_sided << " of " << one_sided_by_name;
}

}  // namespace cgbench::compare
