// Per-line costs: the parser's lines on the captured Cachegrind file of examples/varint
// (checked against a plain scan of the same file), attach_lines, the result file and its fast
// reader, the pairing of lines across two versions of the code (compare::diff_lines), the
// forge annotations and the repository paths they name.

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <tuple>

#include "cli/pr.hpp"
#include "compare/line_diff.hpp"
#include "core/result_json.hpp"
#include "core/result_reader.hpp"
#include "report/line_annotations.hpp"
#include "runner/function_costs.hpp"
#include "unit/run_fixtures.hpp"
#include "util/fs.hpp"
#include "util/strings.hpp"
#include "valgrind/cachegrind_parser.hpp"

namespace cgbench {

namespace {

std::string varint_profile() {
    return util::read_file(std::string(CGBENCH_TEST_DATA) + "/cachegrind/varint-cache.out");
}

// Ir per (file, function, line) by a plain scan of a cachegrind.out text.
std::map<std::tuple<std::string, std::string, std::uint32_t>, std::uint64_t> scan_ir(
    const std::string& text) {
    std::map<std::tuple<std::string, std::string, std::uint32_t>, std::uint64_t> out;
    std::istringstream in(text);
    std::string line, file, fn;
    while (std::getline(in, line)) {
        if (line.rfind("fl=", 0) == 0)
            file = line.substr(3);
        else if (line.rfind("fn=", 0) == 0)
            fn = line.substr(3);
        else if (!line.empty() && line[0] >= '0' && line[0] <= '9') {
            std::istringstream fields(line);
            std::uint32_t number = 0;
            std::uint64_t ir = 0;
            fields >> number >> ir;
            if (number != 0) out[{file, fn, number}] += ir;
        }
    }
    return out;
}

LineResult line(std::string function, std::uint32_t number, std::string text, std::uint64_t cost) {
    metrics::EventCounts ir;
    ir.set(metrics::Event::Ir, cost);
    return LineResult{"/repo/a.c", std::move(function), number, std::move(text), ir, cost};
}

}  // namespace

TEST(LineCosts, TheParserKeepsTheCostliestLinesAsTheFileCountsThem) {
    const auto text = varint_profile();
    auto options = runner::top_function_options(metrics::parse_weights("ir"));
    const auto profile = valgrind::parse_cachegrind(text, options);
    ASSERT_TRUE(profile.has_lines);
    ASSERT_EQ(profile.lines.size(), runner::kTopLines);
    const auto scanned = scan_ir(text);
    std::vector<std::uint64_t> all;
    for (const auto& [key, ir] : scanned)
        all.push_back(ir);
    std::sort(all.rbegin(), all.rend());
    for (std::size_t i = 0; i < profile.lines.size(); ++i) {
        const auto& l = profile.lines[i];
        EXPECT_EQ(l.counts.get(metrics::Event::Ir), scanned.at({l.file, l.function, l.line}));
        EXPECT_EQ(l.counts.get(metrics::Event::Ir), all[i]) << "rank " << i;
    }
}

TEST(LineCosts, AHundredThousandFunctionsKeepTwentyLines) {
    std::string text = "cmd: big\nevents: Ir\n";
    std::uint64_t total = 0;
    for (int f = 0; f < 100000; ++f) {
        text += "fl=/src/gen " + std::to_string(f % 100) + ".c\nfn=f" + std::to_string(f) + "\n";
        text += "0 3\n";  // no line: kept by the function only
        for (int l = 1; l <= 2; ++l) {
            const std::uint64_t ir = static_cast<std::uint64_t>((f * 7 + l) % 1000);
            text += std::to_string(l * 10) + " " + std::to_string(ir) + "\n";
            total += ir;
        }
        total += 3;
    }
    text += "summary: " + std::to_string(total) + "\n";
    const auto profile = valgrind::parse_cachegrind(
        text, runner::top_function_options(metrics::parse_weights("ir")));
    ASSERT_EQ(profile.lines.size(), runner::kTopLines);
    EXPECT_EQ(profile.functions.size(), runner::kTopFunctions + 1);
    for (const auto& l : profile.lines) {
        EXPECT_EQ(l.counts.get(metrics::Event::Ir), 999u);
        EXPECT_NE(l.line, 0u);
    }
}

TEST(LineCosts, AttachLinesReadsTheSourceTextAndSaysWhetherThereWereLines) {
    const auto dir = std::filesystem::temp_directory_path() / "cgbench-line-costs";
    std::filesystem::create_directories(dir);
    const auto source = dir / "hot.c";
    util::write_file_atomic(source, "int a;\n   s += i * 7;   \nint c;\n");
    valgrind::Profile p;
    p.has_lines = true;
    metrics::EventCounts ir;
    ir.set(metrics::Event::Ir, 90);
    p.lines = {{source.string(), "hot", 2, ir}, {"/nonexistent/x.c", "f", 4, ir}};
    BenchmarkResult b;
    runner::attach_lines(p, metrics::parse_weights("ir"), b);
    ASSERT_EQ(b.lines.size(), 2u);
    EXPECT_EQ(b.line_info, true);
    EXPECT_EQ(b.lines[0].file, "/nonexistent/x.c");  // ties by file
    EXPECT_EQ(b.lines[0].text, "");
    EXPECT_EQ(b.lines[1].text, "s += i * 7;");
    EXPECT_EQ(b.lines[1].cost, 90u);
    p.lines.clear();
    runner::attach_lines(p, metrics::parse_weights("ir"), b);
    EXPECT_EQ(b.line_info, false) << "lines collected, none found: no debug info";
    p.has_lines = false;
    runner::attach_lines(p, metrics::parse_weights("ir"), b);
    EXPECT_FALSE(b.line_info.has_value()) << "not collected (Callgrind): not known";
}

TEST(LineCosts, TheResultFileAndTheFastReaderReadLinesAlike) {
    auto b = testing_fixtures::bench("x", 1000);
    b.lines = {line("hot", 7, "s += \"q\\u\";\xff", 60), line("cold", 9, "", 10)};
    b.line_info = true;
    const auto text = dump_json(to_json(b), -1);
    const auto fast = read_known_benchmark(text);
    ASSERT_TRUE(fast.has_value()) << text;
    EXPECT_EQ(fast->lines.size(), 2u);
    EXPECT_EQ(fast->lines[0].text, "s += \"q\\u\";\xEF\xBF\xBD");
    EXPECT_EQ(fast->lines[1].text, "");
    EXPECT_EQ(fast->line_info, true);
    const auto back = run_from_json(
        nlohmann::json::parse(dump_json(to_json(testing_fixtures::run("r", {b})))), "t");
    EXPECT_EQ(back.benchmarks.at(0).lines, fast->lines);
    EXPECT_EQ(back.benchmarks.at(0).line_info, true);
}

TEST(LineDiff, ALineMovedByCodeAboveItPairsByItsText) {
    // The head inserted three lines above hot's loop and made the loop 3x costlier.
    const std::vector<LineResult> base = {line("hot", 10, "s += i * 7;", 100),
                                          line("hot", 9, "for (i = 0; i < n; ++i)", 40),
                                          line("main", 20, "return 0;", 5)};
    const std::vector<LineResult> head = {line("hot", 13, "s +=  i * 7;", 300),
                                          line("hot", 12, "for (i = 0; i < 3 * n; ++i)", 120),
                                          line("main", 23, "return 0;", 5)};
    const auto changes = compare::diff_lines(base, head);
    ASSERT_FALSE(changes.empty());
    EXPECT_EQ(changes[0].head_line, 13u);
    EXPECT_EQ(changes[0].base_line, 10u) << "paired by text, whitespace runs as one";
    EXPECT_EQ(changes[0].delta, 200);
    EXPECT_FALSE(changes[0].at_least);
    // The loop's header changed its text: unpaired, a bound on each side.
    for (const auto& c : changes) {
        EXPECT_NE(c.function, "main") << "moved, same cost: no change";
        if (c.head_line == 12u) {
            EXPECT_TRUE(c.at_least);
            EXPECT_EQ(c.delta, 120 - 5) << "the base's cheapest kept line bounds it";
        }
    }
    EXPECT_TRUE(compare::diff_lines({}, head).empty()) << "no lines on one side: nothing";
}

TEST(LineDiff, RepeatedTextPairsInLineOrder) {
    const auto changes = compare::diff_lines({line("f", 5, "x++;", 10), line("f", 8, "x++;", 20)},
                                             {line("f", 6, "x++;", 10), line("f", 9, "x++;", 50)});
    ASSERT_EQ(changes.size(), 1u);
    EXPECT_EQ(changes[0].base_line, 8u);
    EXPECT_EQ(changes[0].head_line, 9u);
    EXPECT_EQ(changes[0].delta, 30);
}

TEST(LineAnnotations, WorkflowCommandsAreEscaped) {
    EXPECT_EQ(report::workflow_data("50% a:b,c\r\nd"), "50%25 a:b,c%0D%0Ad");
    EXPECT_EQ(report::workflow_property("a:b,c%\n"), "a%3Ab%2Cc%25%0A");
    const report::LineAnnotation a{"src/a b,c.c", 13,    "sum/60000", "hot\nx",
                                   "s += 1;",     12345, false,       400000};
    const auto out = report::github_annotations({a});
    EXPECT_EQ(out,
              "::warning file=src/a b%2Cc.c,line=13,title=cgbench%3A cost grew in hot\\x0ax::"
              "+12,345 cost (+3.1%25 of sum/60000)\n");
}

TEST(LineAnnotations, GitlabCodeQualityHasTheRequiredKeys) {
    const report::LineAnnotation a{"src/a.c", 13, "b", "hot", "s += 1;", 10, true, 100};
    const report::LineAnnotation twin{"src/a.c", 14, "b", "hot", "s += 1;", 10, false, 100};
    const auto doc = nlohmann::json::parse(report::gitlab_code_quality({a, twin}));
    ASSERT_TRUE(doc.is_array());
    ASSERT_EQ(doc.size(), 2u);
    for (const auto& e : doc) {
        EXPECT_TRUE(e.at("description").is_string());
        EXPECT_TRUE(e.at("check_name").is_string());
        EXPECT_TRUE(e.at("fingerprint").is_string());
        EXPECT_TRUE(e.at("location").at("path").is_string());
        EXPECT_TRUE(e.at("location").at("lines").at("begin").is_number_integer());
    }
    EXPECT_EQ(doc[0]["description"], "≥+10 cost (+10.0% of b) in hot");
    EXPECT_NE(doc[0]["fingerprint"], doc[1]["fingerprint"]);
    EXPECT_EQ(report::gitlab_code_quality({}), "[]\n");
}

TEST(LineAnnotations, SourcesMapToTheRepositorysPaths) {
    using cli::pr::repository_path;
    EXPECT_EQ(repository_path("/repo/src/a.c", "/repo"), "src/a.c");
    EXPECT_EQ(repository_path("/repo/build/../src/a.c", "/repo/"), "src/a.c");
    EXPECT_EQ(repository_path("/cgbench/tree/src/a.c", "/repo"), "src/a.c");
    EXPECT_EQ(repository_path("src/a.c", "/repo"), "src/a.c");
    EXPECT_EQ(repository_path("/usr/include/stdio.h", "/repo"), std::nullopt);
    EXPECT_EQ(repository_path("/repository/a.c", "/repo"), std::nullopt);
    EXPECT_EQ(repository_path("../libc/a.c", "/repo"), std::nullopt);
    EXPECT_EQ(repository_path("???", "/repo"), std::nullopt);
}

}  // namespace cgbench
