// Escaping and the run reporters, with a hostile benchmark name.

#include <gtest/gtest.h>

#include "base/errors.hpp"
#include "report/escape.hpp"
#include "report/formats.hpp"
#include "report/reporter.hpp"
#include "report/text_table.hpp"

namespace cgbench::report {

namespace {

const std::string kHostile = "<img src=x onerror=alert(1)>|**x**";

// The run reporter of the format named `format`, as `cgbench run --format` chooses it.
std::unique_ptr<RunReporter> run_reporter(std::string_view format) {
    return find_format(format, Model::Run, "run").run();
}

RunResult run_with(std::string name, BenchStatus status = BenchStatus::Ok) {
    RunResult run;
    run.id = "id";
    run.started = "2026-11-22T00:00:00Z";
    run.fingerprint.weights = metrics::parse_weights("pythonspeed");
    BenchmarkResult b;
    b.name = std::move(name);
    b.command = {"./p"};
    b.status = status;
    if (status == BenchStatus::Ok) {
        for (const auto& e : metrics::kEvents) {
            if (e.source != metrics::EventSource::BranchSim) b.events.set(e.id, 1);
        }
        b.events.set(metrics::Event::Ir, 1234567);
        b.derived = metrics::derive(b.events);
        b.cost = 42;
    } else {
        b.error = "exited with status 3 <b>";
        b.stderr_tail = "boom & </failure>";
    }
    b.weights = run.fingerprint.weights;
    run.benchmarks.push_back(b);
    return run;
}

}  // namespace

TEST(Escape, Markdown) {
    const std::string s = markdown_escape(kHostile);
    EXPECT_EQ(s.find('<'), std::string::npos);
    EXPECT_EQ(s.find('>'), std::string::npos);
    EXPECT_EQ(s, "&lt;img src=x onerror=alert\\(1\\)&gt;\\|\\*\\*x\\*\\*");
    EXPECT_EQ(markdown_escape("a\nb"), "a b");
}

TEST(Escape, MarkdownReplacesWhatIsNotUtf8) {
    EXPECT_EQ(markdown_escape("caf\xe9|\xc3\xa9"), "caf\xef\xbf\xbd\\|\xc3\xa9");
    EXPECT_EQ(markdown_escape("\xc3<"), "\xef\xbf\xbd&lt;") << "a broken sequence never swallows <";
    EXPECT_EQ(markdown_escape("a\xc2\x9b" "b\xc2\xa0"), "a b\xc2\xa0") << "C1 controls become spaces";
}

TEST(Escape, Markup) {
    EXPECT_EQ(markup_escape(kHostile), "&lt;img src=x onerror=alert(1)&gt;|**x**");
    EXPECT_EQ(markup_escape("<a href=\"x\">'&'</a>"),
              "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;");
    EXPECT_EQ(markup_escape("caf\xc3\xa9 \xe2\x86\x92 \xf0\x9f\x90\x8d"),
              "caf\xc3\xa9 \xe2\x86\x92 \xf0\x9f\x90\x8d")
        << "UTF-8 is kept";
    EXPECT_EQ(markup_escape("tab\tnew\nline"), "tab\tnew\nline");
}

TEST(Escape, MarkupReplacesWhatIsNotUtf8OrNotText) {
    const std::string fffd = "\xef\xbf\xbd";
    EXPECT_EQ(markup_escape("a\xffz"), "a" + fffd + "z");
    EXPECT_EQ(markup_escape("\xc3"), fffd) << "truncated";
    EXPECT_EQ(markup_escape("\xc3<"), fffd + "&lt;") << "a broken sequence never swallows <";
    EXPECT_EQ(markup_escape("\xc0\xbc"), fffd + fffd) << "overlong <";
    EXPECT_EQ(markup_escape("\xed\xa0\x80"), fffd + fffd + fffd) << "surrogate";
    EXPECT_EQ(markup_escape("\xf4\x90\x80\x80"), fffd + fffd + fffd + fffd) << "past U+10FFFF";
    EXPECT_EQ(markup_escape(std::string("a\x01\x1b\x7f\0z", 6)),
              "a" + fffd + fffd + fffd + fffd + "z");
    EXPECT_EQ(markup_escape("\xc2\x85"), fffd) << "C1 control";
    EXPECT_EQ(markup_escape("\xef\xbf\xbf"), fffd) << "U+FFFF";
}

TEST(Reporters, FormatsParse) {
    EXPECT_EQ(find_format("json", Model::Run, "run").name, "json");
    EXPECT_EQ(find_format("junit", Model::Run, "run").name, "junit");
    EXPECT_THROW(find_format("xml", Model::Run, "run"), UsageError);
}

TEST(Reporters, MarkdownTableSurvivesAHostileName) {
    const std::string md = run_reporter("markdown")->render(run_with(kHostile), {});
    EXPECT_EQ(md.find("<img"), std::string::npos);
    // The table row keeps exactly its columns: 7 cells -> 8 unescaped pipes.
    const auto row_start = md.find("| &lt;img");
    ASSERT_NE(row_start, std::string::npos);
    const std::string row = md.substr(row_start, md.find('\n', row_start) - row_start);
    std::size_t pipes = 0;
    for (std::size_t i = 0; i < row.size(); ++i)
        pipes += row[i] == '|' && (i == 0 || row[i - 1] != '\\');
    EXPECT_EQ(pipes, 8u);
    EXPECT_NE(md.find("1,234,567"), std::string::npos);
}

TEST(Reporters, JunitStaysWellFormed) {
    const std::string xml =
        run_reporter("junit")->render(run_with(kHostile, BenchStatus::Failed), {});
    EXPECT_EQ(xml.find("<img"), std::string::npos);
    EXPECT_EQ(xml.find("</failure>"), xml.rfind("</failure>"));  // only the real closing tag
    EXPECT_NE(xml.find("failures=\"1\""), std::string::npos);
    EXPECT_NE(xml.find("name=\"&lt;img src=x onerror=alert(1)&gt;|**x**\""), std::string::npos);
}

TEST(Reporters, ConsoleShowsEventsForASingleBenchmark) {
    const std::string out = run_reporter("console")->render(run_with("one"), {});
    EXPECT_NE(out.find("1,234,567"), std::string::npos);
    EXPECT_NE(out.find("instructions executed"), std::string::npos);
    EXPECT_NE(out.find("1·L1 + 5·LL + 35·RAM"), std::string::npos);
    EXPECT_EQ(out.find("\033["), std::string::npos);  // no colour unless asked
}

TEST(Reporters, ConsoleEscapesControlCharacters) {
    const std::string out =
        run_reporter("console")->render(run_with("evil\033[2Jname"), {});
    EXPECT_EQ(out.find('\033'), std::string::npos);
}

TEST(Reporters, ConsoleShowsFailuresWithStderr) {
    const std::string out =
        run_reporter("console")->render(run_with("bad", BenchStatus::Failed), {});
    EXPECT_NE(out.find("FAILED"), std::string::npos);
    EXPECT_NE(out.find("boom & </failure>"), std::string::npos);
}

TEST(Reporters, EveryFormatShowsWarnings) {
    RunResult run = run_with(kHostile);
    run.benchmarks[0].warnings.push_back("region 'x' executed only 22 instructions <b>");
    run.warnings.push_back("ASLR could not be disabled");
    for (const std::string_view format : {"console", "markdown", "json", "junit"}) {
        const std::string out = run_reporter(format)->render(run, {});
        EXPECT_NE(out.find("executed only 22 instructions"), std::string::npos) << out;
        EXPECT_NE(out.find("ASLR could not be disabled"), std::string::npos) << out;
        const bool markup = format == "markdown" || format == "junit";
        EXPECT_EQ(out.find("<b>") == std::string::npos, markup) << "escaped in markup: " << out;
    }
}

TEST(TextTable, AlignsColumns) {
    TextTable t({{"name", Align::Left}, {"n", Align::Right}});
    t.add_row({"a", "1"});
    t.add_row({"long-name", "1,000"});
    EXPECT_EQ(t.render(), "name           n\na              1\nlong-name  1,000\n");
}

}  // namespace cgbench::report
