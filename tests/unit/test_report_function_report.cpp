// Per-function views in every format, with hostile names.

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "report/escape.hpp"
#include "report/formats.hpp"
#include "report/function_report.hpp"

namespace cgbench::report {

namespace {

BenchmarkResult sample() {
    BenchmarkResult b;
    b.name = "bench|x";
    b.tool = "cachegrind";
    b.weights = metrics::parse_weights("ir");
    FunctionResult f{"src/<a>.c", "parse|*x*", {}, 750};
    f.events.set(metrics::Event::Ir, 750);
    b.functions = {f, FunctionResult{"", "(other)", {}, 250}};
    b.functions[1].events.set(metrics::Event::Ir, 250);
    b.cost = 1000;
    return b;
}

// `cgbench annotate --format FORMAT --top TOP` of `b`.
std::string render_functions(const BenchmarkResult& b, std::string_view format, std::size_t top) {
    return find_format(format, Model::Functions, "annotate").functions()->render(b, top, {});
}

}  // namespace

TEST(FunctionReport, ConsoleShowsCostShareAndFile) {
    const auto out = render_functions(sample(), "console", 20);
    EXPECT_NE(out.find("bench|x · cachegrind · cost 1,000 = Ir"), std::string::npos) << out;
    EXPECT_NE(out.find("75.00%"), std::string::npos) << out;
    EXPECT_NE(out.find("parse|*x*"), std::string::npos);
    EXPECT_NE(out.find("(other)"), std::string::npos);
}

TEST(FunctionReport, MarkdownEscapesNames) {
    const auto out = render_functions(sample(), "markdown", 1);
    EXPECT_NE(out.find("parse\\|\\*x\\*"), std::string::npos) << out;
    EXPECT_NE(out.find("&lt;a&gt;"), std::string::npos) << out;
    EXPECT_EQ(out.find("(other)"), std::string::npos);  // --top 1
}

TEST(FunctionReport, Json) {
    const auto doc = nlohmann::json::parse(render_functions(sample(), "json", 20));
    EXPECT_EQ(doc["schema"], "cgbench-annotate/1");
    EXPECT_EQ(doc["functions"].size(), 2u);
    EXPECT_EQ(doc["functions"][0]["name"], "parse|*x*");
}

TEST(FunctionReport, ChangesInEveryFormat) {
    std::vector<compare::FunctionChange> changes = {
        {"a.c", "beta", "", 1000, 1100, 100, 1.0},
        {"b.c", "gone|x", "", 50, std::nullopt, -50, std::nullopt}};
    const auto console = console_function_changes("bench", changes);
    EXPECT_NE(console.find("+100"), std::string::npos) << console;
    EXPECT_NE(console.find("100.0%"), std::string::npos) << console;
    const auto md = markdown_table(function_changes_table("bench", changes, markdown_escape));
    EXPECT_NE(md.find("gone\\|x"), std::string::npos) << md;
    EXPECT_NE(md.find("| -50 |"), std::string::npos) << md;
    const auto json = nlohmann::json::parse(function_changes_json(changes).dump());
    EXPECT_EQ(json[1]["head"], nullptr);
    EXPECT_EQ(json[0]["delta"], 100);
}

}  // namespace cgbench::report
