// What Valgrind 3.24 (Debian 13) and 3.27 (Debian testing) write, on files each wrote on its
// platform (tests/data/valgrind-VERSION: examples/varint 2000, tests/programs/regions and
// workload, built there; the commands are in tests/data/valgrind-3.24/README.md, and
// tests/roots/capture_valgrind.sh runs them). Every test runs on the files of both: one test
// per difference from 3.19 found (3.27 changed none of these formats from 3.24), and the
// region markers of include/cgbench/cgbench.h. Expected numbers come from the files' own
// summary and totals lines, read by plain string splitting (support/by_hand.hpp).

#include <gtest/gtest.h>

#include <algorithm>

#include "runner/regions.hpp"
#include "support/by_hand.hpp"
#include "util/fs.hpp"
#include "valgrind/cachegrind_parser.hpp"
#include "valgrind/callgrind_parser.hpp"
#include "valgrind/process_log.hpp"

namespace cgbench::valgrind {

namespace {

// Every event of `p` equals the file's own line `values_key` (summary: or totals:).
void expect_totals_by_hand(const Profile& p, const std::string& text, std::string_view key) {
    const auto expected = test::counts_by_hand(text, "events:", key);
    ASSERT_FALSE(expected.empty());
    std::size_t present = 0;
    for (const auto& e : metrics::kEvents)
        present += p.totals.has(e.id);
    EXPECT_EQ(present, expected.size());
    for (const auto& [name, value] : expected) {
        const auto e = metrics::event_from_name(name);
        ASSERT_TRUE(e) << name;
        EXPECT_EQ(p.totals.get(*e), value) << name;
    }
}

// The captured files of one Valgrind version (the parameter).
class NewerValgrind : public ::testing::TestWithParam<const char*> {
  protected:
    std::string path_of(const std::string& name) const {
        return std::string(CGBENCH_TEST_DATA) + "/valgrind-" + GetParam() + "/" + name;
    }
    std::string data(const std::string& name) const { return util::read_file(path_of(name)); }
};

}  // namespace

INSTANTIATE_TEST_SUITE_P(Captured, NewerValgrind, ::testing::Values("3.24", "3.27"),
                         [](const ::testing::TestParamInfo<const char*>& param) {
                             std::string name = std::string("valgrind_") + param.param;
                             std::replace(name.begin(), name.end(), '.', '_');
                             return name;
                         });

TEST_P(NewerValgrind, CachegrindFilesParseToTheirSummary) {
    for (const char* file : {"varint-cache.out", "varint-branch.out", "varint-ir-only.out",
                             "regions-inner.cachegrind.out"}) {
        SCOPED_TRACE(file);
        const std::string text = data(file);
        expect_totals_by_hand(parse_cachegrind(text, {.collect_functions = true}), text,
                              "summary:");
    }
}

// 3.19 writes the `desc:` geometry lines even without cache simulation; 3.24 writes none.
TEST_P(NewerValgrind, CachegrindWithoutCacheSimulationHasNoDescLines) {
    const std::string text = data("varint-ir-only.out");
    ASSERT_EQ(text.find("desc:"), std::string::npos);
    const Profile p = parse_cachegrind(text);
    EXPECT_TRUE(p.desc.empty());
    EXPECT_TRUE(p.totals.has(metrics::Event::Ir));
    EXPECT_FALSE(p.totals.has_cache_events());
}

// Callgrind 3.24 and later without cache simulation write the `desc: I1 cache:` lines with empty
// values (3.19 left them out).
TEST_P(NewerValgrind, CallgrindWithoutCacheSimulationHasEmptyDescLines) {
    const std::string text = data("varint-ir-only.callgrind.out");
    ASSERT_NE(text.find("desc: I1 cache: \n"), std::string::npos);
    const Profile p = parse_callgrind(text);
    expect_totals_by_hand(p, text, "totals:");
    EXPECT_FALSE(p.totals.has_cache_events());
}

TEST_P(NewerValgrind, CallgrindFilesParseToTheirTotals) {
    const std::string text = data("varint-cache.callgrind.out");
    expect_totals_by_hand(parse_callgrind(text, {.collect_functions = true}), text, "totals:");
}

// The command line of the `cmd:` header is still unescaped (an argument's newline starts a
// new line), while the log escapes it (a space as "\ ", a newline as "_").
TEST_P(NewerValgrind, CmdHeaderSpansTheArgumentsNewlines) {
    const std::string text = data("newline-arg.cachegrind.out");
    ASSERT_NE(text.find("cmd: ./workload 20 a b c\nd\n"), std::string::npos);
    const Profile p = parse_cachegrind(text, {.cmd_lines = 2});
    EXPECT_EQ(p.cmd, "./workload 20 a b c\nd");
    expect_totals_by_hand(p, text, "summary:");
    const auto log = parse_process_log(data("newline-arg.log"));
    EXPECT_EQ(log.command, "./workload 20 a\\ b c_d");
}

TEST_P(NewerValgrind, RegionDumpsAttributeAsOn319) {
    const auto parts =
        parse_callgrind_parts(path_of("regions-nested.callgrind.out"), {.collect_functions = true});
    const auto found = runner::attribute_regions(parts);
    ASSERT_TRUE(found.error.empty()) << found.error;
    ASSERT_EQ(found.regions.size(), 2u);
    EXPECT_EQ(found.regions[0].name, "outer");
    EXPECT_EQ(found.regions[1].name, "inner");
    // inner is the third dump part, outer the second to fourth (parse order).
    const auto ir = [&](std::size_t i) { return parts[i].totals.get(metrics::Event::Ir); };
    EXPECT_EQ(found.regions[1].profile.totals.get(metrics::Event::Ir), ir(2));
    EXPECT_EQ(found.regions[0].profile.totals.get(metrics::Event::Ir), ir(1) + ir(2) + ir(3));
}

// The markers a program built against the new header writes when CGBENCH_REGION names no
// region (a newline): "**PID** cgbench:begin:LENGTH:NAME", one line each, in order.
TEST_P(NewerValgrind, RegionMarkersInTheLog) {
    const auto log = parse_process_log(data("markers-nested.log"));
    ASSERT_EQ(log.region_marks.size(), 4u);
    const std::vector<std::pair<bool, std::string>> want = {
        {true, "outer"}, {true, "inner"}, {false, "inner"}, {false, "outer"}};
    for (std::size_t i = 0; i < want.size(); ++i) {
        EXPECT_EQ(log.region_marks[i].begin, want[i].first) << i;
        EXPECT_EQ(log.region_marks[i].name, want[i].second) << i;
    }
    EXPECT_EQ(log.threads, 1);  // --trace-sched lines still counted around the markers
    const auto found = runner::regions_of(log.region_marks);
    ASSERT_TRUE(found.error.empty()) << found.error;
    ASSERT_EQ(found.regions.size(), 2u);
    EXPECT_EQ(found.regions[0].entries, 1u);
    EXPECT_FALSE(log.regions_nested);
}

// With CGBENCH_REGION set but empty the first region begun is measured, and inside it no
// marker is written, only a notice at its END that regions began there.
TEST_P(NewerValgrind, TheFirstRegionsRunNotesRegionsNestedInIt) {
    const auto log = parse_process_log(data("markers-first.log"));
    ASSERT_EQ(log.region_marks.size(), 2u);
    EXPECT_TRUE(log.region_marks[0].begin);
    EXPECT_EQ(log.region_marks[0].name, "outer");
    EXPECT_FALSE(log.region_marks[1].begin);
    EXPECT_EQ(log.region_marks[1].name, "outer");
    EXPECT_TRUE(log.regions_nested);
}

// A name holding a newline continues on the next "**PID**" line; its length says how far,
// and the name is refused as the Callgrind path refuses it.
TEST_P(NewerValgrind, RegionMarkerWithANewlineInItsName) {
    const auto log = parse_process_log(data("markers-newline.log"));
    ASSERT_EQ(log.region_marks.size(), 2u);
    EXPECT_EQ(log.region_marks[0].name, "a\nb");
    EXPECT_EQ(log.region_marks[1].name, "a\nb");
    const auto found = runner::regions_of(log.region_marks);
    EXPECT_EQ(found.error,
              "marked a region named 'a\\x0ab', which holds a newline (region names must be "
              "one line)");
}

}  // namespace cgbench::valgrind
