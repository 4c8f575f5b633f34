// The Callgrind parser on real captured files (tests/data/callgrind, written by Valgrind 3.19
// for examples/varint and tests/programs/regions), on the example of the format
// specification, and on damaged variants.

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <sstream>

#include "support/by_hand.hpp"
#include "util/fs.hpp"
#include "valgrind/callgrind_parser.hpp"

namespace cgbench::valgrind {

namespace {

std::string path_of(const std::string& name) {
    return std::string(CGBENCH_TEST_DATA) + "/callgrind/" + name;
}
std::string data(const std::string& name) {
    return util::read_file(path_of(name));
}

// The `events:` and `totals:` lines, independent of the parser under test.
std::map<std::string, std::uint64_t> totals_by_hand(const std::string& text) {
    return test::counts_by_hand(text, "events:", "totals:");
}

void expect_totals_match_file(const std::string& file) {
    const std::string text = data(file);
    const Profile p = parse_callgrind(text);
    const auto expected = totals_by_hand(text);
    ASSERT_FALSE(expected.empty()) << file;
    for (const auto& [name, value] : expected) {
        const auto e = metrics::event_from_name(name);
        ASSERT_TRUE(e) << name;
        EXPECT_EQ(p.totals.get(*e), value) << file << " " << name;
    }
}

// Self cost (Ir) per "file:function".
std::map<std::string, std::uint64_t> self_costs(const Profile& p) {
    std::map<std::string, std::uint64_t> out;
    for (const auto& f : p.functions)
        out[f.file + ":" + f.name] += f.counts.get(metrics::Event::Ir);
    return out;
}

std::string error_of(std::string_view text) {
    try {
        parse_callgrind(text);
    } catch (const ParseError& e) {
        return e.what();
    }
    return "no error";
}

// The example of the Callgrind Format Specification: main (self 20) calls func1 (self 100)
// once and func2 (self 700) three times; func1 calls func2 twice.
const std::string kSpecExample =
    "# callgrind format\nversion: 1\ncreator: hand\npositions: line\nevents: Ir\n"
    "summary: 999\n\n"
    "fl=(1) file1.c\nfn=(1) main\n16 20\ncfn=(2) func1\ncalls=1 50\n16 400\n"
    "cfl=(2) file2.c\ncfn=(3) func2\ncalls=3 20\n16 400\n\n"
    "fn=(2)\n51 100\ncfl=(2)\ncfn=(3)\ncalls=2 20\n51 300\n\n"
    "fl=(2)\nfn=(3)\n20 700\n\ntotals: 820\n";

}  // namespace

TEST(CallgrindParser, CacheSimulationFile) {
    expect_totals_match_file("varint-cache.out");
    const Profile p = parse_callgrind(data("varint-cache.out"));
    EXPECT_EQ(p.tool, "callgrind");
    EXPECT_EQ(p.columns.size(), 9u);
    EXPECT_TRUE(p.totals.has_cache_events());
    EXPECT_EQ(p.part, 1u);
    EXPECT_EQ(p.trigger, "Program termination");
    EXPECT_NE(p.cmd.find("varint 2000"), std::string::npos);
}

TEST(CallgrindParser, EveryCapturedVariantOfTheSameRun) {
    // The same deterministic program written five ways: with and without cache and branch
    // simulation, with instruction addresses and jumps, without name compression.
    for (const auto* file : {"varint-cache.out", "varint-ir-only.out", "varint-branch.out",
                             "varint-instr-jumps.out", "varint-uncompressed.out"}) {
        SCOPED_TRACE(file);
        expect_totals_match_file(file);
        EXPECT_EQ(parse_callgrind(data(file)).totals.get(metrics::Event::Ir),
                  parse_callgrind(data("varint-ir-only.out")).totals.get(metrics::Event::Ir));
    }
    EXPECT_TRUE(parse_callgrind(data("varint-branch.out")).totals.has(metrics::Event::Bcm));
}

TEST(CallgrindParser, SummaryIsNotTheTotal) {
    // Callgrind's summary line here says 1917716 Ir while the cost lines add up to 1917714.
    const Profile p = parse_callgrind(data("varint-cache.out"));
    EXPECT_EQ(p.totals.get(metrics::Event::Ir), totals_by_hand(data("varint-cache.out"))["Ir"]);
}

TEST(CallgrindParser, FunctionSelfCostsAddUpToTheTotals) {
    const Profile p = parse_callgrind(data("varint-cache.out"), {.collect_functions = true});
    ASSERT_GT(p.functions.size(), 10u);
    metrics::EventCounts sum;
    for (const auto& f : p.functions)
        sum.add(f.counts);
    EXPECT_EQ(sum, p.totals);
}

TEST(CallgrindParser, CompressionAndPositionsDoNotChangeFunctionCosts) {
    const auto reference = self_costs(parse_callgrind(data("varint-ir-only.out"), {true}));
    ASSERT_GT(reference.size(), 10u);
    EXPECT_EQ(self_costs(parse_callgrind(data("varint-uncompressed.out"), {true})), reference);
    EXPECT_EQ(self_costs(parse_callgrind(data("varint-instr-jumps.out"), {true})), reference);
    bool found = false;
    for (const auto& [key, cost] : reference)
        found |= key.find("parse_varint32") != std::string::npos && cost > 0;
    EXPECT_TRUE(found);
}

TEST(CallgrindParser, CallCostsAreNotSelfCosts) {
    const Profile p = parse_callgrind(kSpecExample, {.collect_functions = true});
    EXPECT_EQ(p.totals.get(metrics::Event::Ir), 820u);
    const auto self = self_costs(p);
    EXPECT_EQ(self.at("file1.c:main"), 20u);
    EXPECT_EQ(self.at("file1.c:func1"), 100u);
    EXPECT_EQ(self.at("file2.c:func2"), 700u);
}

TEST(CallgrindParser, SubpositionCompressionAndAddresses) {
    const auto p = parse_callgrind(
        "positions: instr line\nevents: Ir Dr\nfl=(1) a.c\nfn=(1) f\n0x40 3 1 1\n+2 * 2\n"
        "-1 +4 3 1\n* * 4\njump=2 +3 *\n* *\njcnd=1/2 0x44 9\n* *\ntotals: 10 2\n",
        {.collect_functions = true});
    EXPECT_EQ(p.totals.get(metrics::Event::Ir), 10u);
    EXPECT_EQ(p.totals.get(metrics::Event::Dr), 2u);
}

TEST(CallgrindParser, DumpParts) {
    const auto parts = parse_callgrind_parts(path_of("regions-nested.out"));
    ASSERT_EQ(parts.size(), 5u);
    const std::vector<std::string> triggers = {
        "Client Request: cgbench:begin:outer", "Client Request: cgbench:begin:inner",
        "Client Request: cgbench:end:inner", "Client Request: cgbench:end:outer",
        "Program termination"};
    for (std::size_t i = 0; i < parts.size(); ++i) {
        EXPECT_EQ(parts[i].part, i + 1);
        EXPECT_EQ(parts[i].trigger, triggers[i]);
    }
    // Nothing is collected before the first region begins (--collect-atstart=no).
    EXPECT_EQ(parts[0].totals.get(metrics::Event::Ir), 0u);
    // The inner region does twice the outer region's own work.
    EXPECT_GT(parts[2].totals.get(metrics::Event::Ir), parts[1].totals.get(metrics::Event::Ir));
    EXPECT_THROW(parse_callgrind_parts(path_of("no-such.out")), EnvironmentError);
}

TEST(CallgrindParser, EmptyAndGarbage) {
    EXPECT_NE(error_of("").find("no 'events:' line"), std::string::npos);
    EXPECT_NE(error_of("<html>not a profile</html>\n").find("unexpected line"), std::string::npos);
    std::string garbage;
    std::uint32_t x = 54321;
    for (int i = 0; i < 4096; ++i) {
        x = x * 1103515245 + 12345;
        garbage += static_cast<char>(x >> 24);
    }
    EXPECT_NE(error_of(garbage), "no error");
}

TEST(CallgrindParser, TruncatedFile) {
    const std::string text = data("varint-cache.out");
    for (const double fraction : {0.05, 0.5, 0.9, 0.999}) {
        const auto cut =
            text.substr(0, static_cast<std::size_t>(static_cast<double>(text.size()) * fraction));
        EXPECT_NE(error_of(cut), "no error") << fraction;
    }
    EXPECT_NE(error_of(text.substr(0, text.rfind("totals:"))).find("truncated"), std::string::npos);
    EXPECT_NE(error_of("events: Ir\nfn=(1) f\ncalls=1 2\n").find("truncated"), std::string::npos);
}

TEST(CallgrindParser, TotalsThatDisagreeWithTheLines) {
    std::string text = data("varint-ir-only.out");
    text.replace(text.rfind("totals: ") + 8, 1, "9");
    EXPECT_NE(error_of(text).find("add up to"), std::string::npos);
}

TEST(CallgrindParser, MalformedLines) {
    const std::string head = "events: Ir Dr\nfl=(1) a.c\nfn=(1) f\n";
    EXPECT_NE(error_of(head + "1 2x\ntotals: 2\n").find("malformed count"), std::string::npos);
    EXPECT_NE(error_of(head + "1 2 3 4\ntotals: 2 3\n").find("more counts"), std::string::npos);
    EXPECT_NE(error_of(head + "x1 2\ntotals: 2\n").find("unexpected line"), std::string::npos);
    EXPECT_NE(error_of(head + "+ 2\ntotals: 2\n").find("malformed position"), std::string::npos);
    EXPECT_NE(error_of(head + "0xg 2\ntotals: 2\n").find("malformed position"), std::string::npos);
    EXPECT_NE(error_of(head + "fn=(7)\n1 2\ntotals: 2\n").find("(7) used before"),
              std::string::npos);
    EXPECT_NE(error_of(head + "xyz=1\n").find("unknown specification"), std::string::npos);
    EXPECT_NE(error_of(head + "calls=1 2\nfn=(2) g\n").find("followed by its cost line"),
              std::string::npos);
    EXPECT_NE(error_of(head + "1 2\ntotals: 2\n3 4\n").find("after 'totals:'"), std::string::npos);
    EXPECT_NE(error_of("fn=(1) f\n").find("before the 'events:'"), std::string::npos);
    EXPECT_NE(error_of("positions: line col\nevents: Ir\n").find("unknown position"),
              std::string::npos);
    EXPECT_NE(error_of("events: Ir\nevents: Ir\n").find("second 'events:'"), std::string::npos);
    EXPECT_NE(error_of(head + "1 18446744073709551616\ntotals: 0\n").find("overflows 64 bits"),
              std::string::npos);
}

TEST(CallgrindParser, UncompressedNamesMayStartWithAParenthesis) {
    const auto p = parse_callgrind(
        "events: Ir\nfl=(1) a.c\nfn=(below main)\n1 5\nfn=(2) g\n1 1\n"
        "fn=(2)\n2 1\ntotals: 7\n",
        {.collect_functions = true});
    const auto self = self_costs(p);
    EXPECT_EQ(self.at("a.c:(below main)"), 5u);
    EXPECT_EQ(self.at("a.c:g"), 2u);
}

TEST(CallgrindParser, MissingTrailingCountsAreZero) {
    const auto p = parse_callgrind("events: Ir Dr Dw\nfn=(1) f\n1 5\n2 1 2 3\ntotals: 6 2 3\n");
    EXPECT_EQ(p.totals.get(metrics::Event::Dw), 3u);
    const auto q = parse_callgrind("events: Ir Dr Dw\nfn=(1) f\n1 5\ntotals: 5\n");
    EXPECT_EQ(q.totals.get(metrics::Event::Dr), 0u);
    EXPECT_TRUE(q.totals.has(metrics::Event::Dr));
}

TEST(CallgrindParser, ErrorsNameTheFileAndLine) {
    const std::string path = ::testing::TempDir() + "/broken.callgrind.out";
    util::write_file_atomic(path, "events: Ir\nfn=(1) f\n1 zz\ntotals: 1\n");
    try {
        parse_callgrind_file(path);
        FAIL() << "no error";
    } catch (const ParseError& e) {
        EXPECT_EQ(std::string(e.what()), path + ":3: malformed count");
    }
}

TEST(CallgrindParser, ATriggerWithNewlinesContinuesUpToTheBlankLine) {
    // A region name holding a newline, as Callgrind 3.19 writes its dump trigger: unescaped.
    std::string text = data("regions-nested.out.1");
    const std::string trigger = "cgbench:begin:outer";
    ASSERT_NE(text.find(trigger + "\n\n"), std::string::npos);
    text.replace(text.find(trigger), trigger.size(), trigger + "\nb: c\nfl=x");
    const Profile p = parse_callgrind(text);
    EXPECT_EQ(p.trigger, "Client Request: cgbench:begin:outer\nb: c\nfl=x");
    EXPECT_EQ(p.totals, parse_callgrind(data("regions-nested.out.1")).totals);
}

}  // namespace cgbench::valgrind

namespace cgbench::valgrind {

namespace {

// The Ir of every call's cost line (the line after `calls=`, its second field), summed,
// and the callees named on `cfn=` lines (compressed names resolved), read by hand.
std::pair<std::uint64_t, std::set<std::string>> calls_by_hand(const std::string& text) {
    std::istringstream in(text);
    std::string line;
    std::uint64_t ir = 0;
    bool after_calls = false;
    std::map<std::string, std::string> names;  // "(id)" -> name
    std::set<std::string> callees;
    while (std::getline(in, line)) {
        if (after_calls) {
            std::istringstream fields(line);
            std::string position, count;
            fields >> position >> count;
            ir += std::stoull(count);
        }
        after_calls = line.starts_with("calls=");
        if (!line.starts_with("cfn=") && !line.starts_with("fn=")) continue;
        const auto value = line.substr(line.find('=') + 1);
        const auto close = value.find(')');
        std::string name = value;
        const bool compressed = value.starts_with("(") && close != std::string::npos && close > 1 &&
                                value.find_first_not_of("0123456789", 1) == close;
        if (compressed) {
            const auto id = value.substr(0, close + 1);
            if (close + 1 < value.size()) names[id] = value.substr(close + 2);
            name = names[id];
        }
        if (line.starts_with("cfn=")) callees.insert(name);
    }
    return {ir, callees};
}

}  // namespace

// The call graph: every call's cost is collected (by caller and callee) and none is lost,
// whatever the compression of names and positions.
TEST(CallgrindParser, CollectsEveryCallByCallerAndCallee) {
    for (const auto* file :
         {"varint-cache.out", "varint-uncompressed.out", "regions-nested.out.2"}) {
        const auto text = data(file);
        const auto p = parse_callgrind(text, {.collect_functions = true, .collect_calls = true});
        const auto [ir, callees] = calls_by_hand(text);
        std::uint64_t sum = 0;
        std::set<std::string> seen;
        for (const auto& c : p.calls) {
            sum += c.counts.get(metrics::Event::Ir);
            seen.insert(c.callee);
            EXPECT_FALSE(c.caller.empty()) << file;
            EXPECT_FALSE(c.callee_file.empty()) << file;
        }
        EXPECT_EQ(sum, ir) << file;
        EXPECT_EQ(seen, callees) << file;
        EXPECT_TRUE(parse_callgrind(text).calls.empty()) << "collected unasked: " << file;
    }
    // A whole run: every callee is a function of the file, named by its file (cfi=, else the
    // file of the call's position) as its own cost lines name it, so the two "(below main)"
    // of glibc stay apart.
    const auto p = parse_callgrind(data("varint-cache.out"),
                                   {.collect_functions = true, .collect_calls = true});
    std::set<std::pair<std::string, std::string>> functions;
    for (const auto& f : p.functions)
        functions.emplace(f.file, f.name);
    for (const auto& c : p.calls) {
        EXPECT_TRUE(functions.contains({c.callee_file, c.callee}))
            << c.callee_file << ": " << c.callee;
        EXPECT_TRUE(functions.contains({c.caller_file, c.caller}))
            << c.caller_file << ": " << c.caller;
    }
}

}  // namespace cgbench::valgrind
