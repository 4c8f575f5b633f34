// The Cachegrind parser on real captured files (tests/data/cachegrind, written by Valgrind
// 3.19 for examples/varint) and on damaged variants of them.

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "support/by_hand.hpp"
#include "util/fs.hpp"
#include "util/strings.hpp"
#include "valgrind/cachegrind_parser.hpp"

namespace cgbench::valgrind {

namespace {

std::string data(const std::string& name) {
    return util::read_file(std::string(CGBENCH_TEST_DATA) + "/cachegrind/" + name);
}

// The `events:` and `summary:` lines, independent of the parser under test.
std::map<std::string, std::uint64_t> summary_by_hand(const std::string& text) {
    return test::counts_by_hand(text, "events:", "summary:");
}

void expect_totals_match_summary(const std::string& file) {
    const std::string text = data(file);
    const Profile p = parse_cachegrind(text);
    const auto expected = summary_by_hand(text);
    ASSERT_FALSE(expected.empty());
    for (const auto& [name, value] : expected) {
        const auto e = metrics::event_from_name(name);
        ASSERT_TRUE(e) << name;
        EXPECT_EQ(p.totals.get(*e), value) << file << " " << name;
    }
    std::size_t present = 0;
    for (const auto& e : metrics::kEvents)
        present += p.totals.has(e.id);
    EXPECT_EQ(present, expected.size()) << file;
}

std::string error_of(std::string_view text) {
    try {
        parse_cachegrind(text);
    } catch (const ParseError& e) {
        return e.what();
    }
    return "no error";
}

std::string replace_line(std::string text, const std::string& prefix, const std::string& with) {
    const auto pos = text.find("\n" + prefix);
    EXPECT_NE(pos, std::string::npos) << prefix;
    const auto end = text.find('\n', pos + 1);
    return text.replace(pos + 1, end - pos - 1, with);
}

}  // namespace

TEST(CachegrindParser, CacheSimulationFile) {
    expect_totals_match_summary("varint-cache.out");
    const Profile p = parse_cachegrind(data("varint-cache.out"));
    EXPECT_EQ(p.tool, "cachegrind");
    EXPECT_EQ(p.columns.size(), 9u);
    EXPECT_EQ(p.desc.size(), 3u);
    EXPECT_NE(p.cmd.find("varint"), std::string::npos);
    EXPECT_TRUE(p.totals.has_cache_events());
    EXPECT_FALSE(p.totals.has(metrics::Event::Bc));
}

TEST(CachegrindParser, InstructionOnlyFile) {
    expect_totals_match_summary("varint-ir-only.out");
    const Profile p = parse_cachegrind(data("varint-ir-only.out"));
    EXPECT_TRUE(p.totals.has(metrics::Event::Ir));
    EXPECT_FALSE(p.totals.has(metrics::Event::Dr));
}

TEST(CachegrindParser, BranchSimulationFile) {
    expect_totals_match_summary("varint-branch.out");
    const Profile p = parse_cachegrind(data("varint-branch.out"));
    EXPECT_TRUE(p.totals.has(metrics::Event::Bcm));
}

TEST(CachegrindParser, SameFileSameNumbers) {
    const std::string text = data("varint-cache.out");
    EXPECT_EQ(parse_cachegrind(text).totals, parse_cachegrind(text).totals);
}

TEST(CachegrindParser, FunctionTotalsAddUpToTheSummary) {
    const Profile p = parse_cachegrind(data("varint-cache.out"), {.collect_functions = true});
    ASSERT_GT(p.functions.size(), 10u);
    metrics::EventCounts sum;
    bool found_parser = false;
    for (const auto& f : p.functions) {
        sum.add(f.counts);
        found_parser |= f.name.find("parse_varint32") != std::string::npos;
    }
    EXPECT_TRUE(found_parser);
    EXPECT_EQ(sum, p.totals);
}

TEST(CachegrindParser, KeepsOnlyTheTopFunctionsWhenAsked) {
    const std::string text = data("varint-cache.out");
    ParseOptions options{.collect_functions = true, .function_limit = 3};
    options.function_rank = [](const metrics::EventCounts& c) { return c.get(metrics::Event::Ir); };
    const Profile top = parse_cachegrind(text, options);
    const Profile all = parse_cachegrind(text, {.collect_functions = true});
    ASSERT_EQ(top.functions.size(), 4u);
    EXPECT_EQ(top.functions[3].name, kOtherFunctions);
    std::vector<std::uint64_t> ir;
    for (const auto& f : all.functions)
        ir.push_back(f.counts.get(metrics::Event::Ir));
    std::sort(ir.rbegin(), ir.rend());
    metrics::EventCounts sum;
    for (std::size_t i = 0; i < 3; ++i) {
        EXPECT_EQ(top.functions[i].counts.get(metrics::Event::Ir), ir[i]) << i;
        sum.add(top.functions[i].counts);
    }
    sum.add(top.functions[3].counts);
    EXPECT_EQ(sum, top.totals);  // "(other)" holds exactly the rest
}

TEST(CachegrindParser, ReadsFilesFromDisk) {
    const auto p =
        parse_cachegrind_file(std::string(CGBENCH_TEST_DATA) + "/cachegrind/varint-cache.out");
    EXPECT_EQ(p.totals, parse_cachegrind(data("varint-cache.out")).totals);
    EXPECT_THROW(parse_cachegrind_file("/nonexistent/cachegrind.out"), EnvironmentError);
}

TEST(CachegrindParser, EmptyFile) {
    EXPECT_NE(error_of("").find("no 'events:' line"), std::string::npos);
    EXPECT_NE(error_of("\n\n").find("no 'events:' line"), std::string::npos);
}

TEST(CachegrindParser, TruncatedFile) {
    const std::string text = data("varint-cache.out");
    for (const double fraction : {0.1, 0.5, 0.9, 0.999}) {
        const std::string cut =
            text.substr(0, static_cast<std::size_t>(static_cast<double>(text.size()) * fraction));
        const std::string err = error_of(cut);
        EXPECT_NE(err, "no error") << fraction;
    }
    // Cut right before the summary line: every line is intact, only the summary is gone.
    EXPECT_NE(error_of(text.substr(0, text.rfind("summary:"))).find("truncated"),
              std::string::npos);
}

TEST(CachegrindParser, GarbageFile) {
    std::string garbage;
    std::uint32_t x = 12345;
    for (int i = 0; i < 4096; ++i) {
        x = x * 1103515245 + 12345;
        garbage += static_cast<char>(x >> 24);
    }
    EXPECT_NE(error_of(garbage), "no error");
    EXPECT_NE(error_of("<html>not a profile</html>\n").find("unexpected line"), std::string::npos);
}

TEST(CachegrindParser, MissingEventsLine) {
    const std::string text = replace_line(data("varint-cache.out"), "events:", "");
    EXPECT_NE(error_of(text).find("no 'events:' line"), std::string::npos) << error_of(text);
}

TEST(CachegrindParser, MissingSummaryLine) {
    const std::string text = replace_line(data("varint-cache.out"), "summary:", "");
    EXPECT_NE(error_of(text).find("no 'summary:' line"), std::string::npos);
}

TEST(CachegrindParser, SummaryThatDisagreesWithTheLines) {
    const std::string text = data("varint-cache.out");
    std::string summary = text.substr(text.rfind("summary:"));
    summary = summary.substr(0, summary.find('\n'));
    // "summary: 1015606 ..." -> "summary: 11015606 ...": one count changed, the rest intact.
    const std::string edited = replace_line(text, "summary:", "summary: 1" + summary.substr(9));
    EXPECT_NE(error_of(edited).find("add up to"), std::string::npos);
}

TEST(CachegrindParser, MalformedCounts) {
    const std::string head = "events: Ir Dr\nfl=a.c\nfn=f\n";
    EXPECT_NE(error_of(head + "1 2x 3\nsummary: 2 3\n").find("malformed count"), std::string::npos);
    EXPECT_NE(error_of(head + "1 2 3 4\nsummary: 2 3\n").find("more counts"), std::string::npos);
    EXPECT_NE(error_of(head + "1 2 3\nsummary: 2\n").find("summary has 1 counts"),
              std::string::npos);
    EXPECT_NE(error_of(head + "1 2 3\nsummary: 2 3\n9 9\n").find("after 'summary:'"),
              std::string::npos);
    EXPECT_NE(error_of("events: Ir\nevents: Ir\n").find("second 'events:'"), std::string::npos);
    EXPECT_NE(error_of("events:\n").find("lists no events"), std::string::npos);
    // Found by fuzzing: a repeated event made its total depend on the column order.
    EXPECT_NE(error_of("events: Bc Bc\nfl=a\nfn=f\n1 1 2\nsummary: 1 2\n").find("lists Bc twice"),
              std::string::npos);
}

TEST(CachegrindParser, MissingTrailingCountsAreZero) {
    const auto p =
        parse_cachegrind("events: Ir Dr Dw\nfl=a.c\nfn=f\n1 5\n2 1 2 3\nsummary: 6 2 3\n");
    EXPECT_EQ(p.totals.get(metrics::Event::Ir), 6u);
    EXPECT_EQ(p.totals.get(metrics::Event::Dw), 3u);
}

TEST(CachegrindParser, CountsNearTwoToTheSixtyFour) {
    // 18446744073709551615 = 2^64 - 1, split over two lines.
    const auto p = parse_cachegrind(
        "events: Ir\nfl=a.c\nfn=f\n1 18446744073709551000\n2 615\n"
        "summary: 18446744073709551615\n");
    EXPECT_EQ(p.totals.get(metrics::Event::Ir), UINT64_MAX);
    // One more and the sum no longer fits.
    EXPECT_NE(error_of("events: Ir\nfl=a.c\nfn=f\n1 18446744073709551000\n2 616\n"
                       "summary: 18446744073709551615\n")
                  .find("overflows"),
              std::string::npos);
    // A single count past 2^64 - 1.
    EXPECT_NE(error_of("events: Ir\nfl=a.c\nfn=f\n1 18446744073709551616\nsummary: 0\n")
                  .find("overflows 64 bits"),
              std::string::npos);
}

TEST(CachegrindParser, UnknownEventsKeepColumnsAligned) {
    const auto p = parse_cachegrind("events: Ir Foo Dr\nfl=a.c\nfn=f\n1 1 2 3\nsummary: 1 2 3\n");
    EXPECT_EQ(p.totals.get(metrics::Event::Ir), 1u);
    EXPECT_EQ(p.totals.get(metrics::Event::Dr), 3u);
    EXPECT_FALSE(p.columns[1].has_value());
}

TEST(CachegrindParser, ErrorsNameTheFileAndLine) {
    const std::string path = ::testing::TempDir() + "/broken.cachegrind.out";
    {
        std::ofstream out(path);
        out << "events: Ir\nfl=a.c\nfn=f\n1 zz\nsummary: 1\n";
    }
    try {
        parse_cachegrind_file(path);
        FAIL() << "no error";
    } catch (const ParseError& e) {
        EXPECT_EQ(std::string(e.what()), path + ":4: malformed count");
        EXPECT_EQ(e.line(), 4u);
    }
}

TEST(CachegrindParser, ArgumentsWithNewlinesContinueTheCommandLine) {
    // Valgrind 3.19 writes the command line unescaped: `varint 2000 $'x\nevents: Ir'` gives
    // continuation lines that may look like anything.
    const std::string text = data("varint-cache.out");
    const std::string cmd = "cmd: ./build/examples/varint 2000";
    ASSERT_NE(text.find(cmd + "\n"), std::string::npos);
    const auto with = [&](const std::string& args) {
        std::string t = text;
        t.replace(t.find(cmd), cmd.size(), cmd + args);
        return t;
    };
    const Profile plain = parse_cachegrind(text);
    const std::string spoof = with(" x\nevents: Ir\nsummary: 1\nfl=a.c\n0 99");
    ParseOptions exact;
    exact.cmd_lines = 5;  // 1 + the newlines in the arguments
    const Profile p = parse_cachegrind(spoof, exact);
    EXPECT_EQ(p.totals, plain.totals) << "the injected lines counted";
    EXPECT_EQ(p.cmd, "./build/examples/varint 2000 x\nevents: Ir\nsummary: 1\nfl=a.c\n0 99");
    // Without the count (0), a continuation runs up to the `events:` line.
    const Profile guessed = parse_cachegrind(with(" 'for i in range(3):\n  s += i'"));
    EXPECT_EQ(guessed.totals, plain.totals);
    // What used to happen: the continuation is an unexpected line.
    ParseOptions one;
    one.cmd_lines = 1;
    EXPECT_THROW(parse_cachegrind(with(" x\nsecond line"), one), ParseError);
}

}  // namespace cgbench::valgrind
