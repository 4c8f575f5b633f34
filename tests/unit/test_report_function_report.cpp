// Per-function views in every format, with hostile names.

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

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

}  // namespace

TEST(FunctionReport, ConsoleShowsCostShareAndFile) {
    const auto out = render_functions(sample(), Format::Console, 20);
    EXPECT_NE(out.find("bench|x · cachegrind · cost 1,000 = Ir"), std::string::npos) << out;
    EXPECT_NE(out.find("75.00%"), std::string::npos) << out;
    EXPECT_NE(out.find("parse|*x*"), std::string::npos);
    EXPECT_NE(out.find("(other)"), std::string::npos);
}

TEST(FunctionReport, MarkdownEscapesNames) {
    const auto out = render_functions(sample(), Format::Markdown, 1);
    EXPECT_NE(out.find("parse\\|\\*x\\*"), std::string::npos) << out;
    EXPECT_NE(out.find("&lt;a&gt;"), std::string::npos) << out;
    EXPECT_EQ(out.find("(other)"), std::string::npos);  // --top 1
}

TEST(FunctionReport, Json) {
    const auto doc = nlohmann::json::parse(render_functions(sample(), Format::Json, 20));
    EXPECT_EQ(doc["schema"], "cgbench-annotate/1");
    EXPECT_EQ(doc["functions"].size(), 2u);
    EXPECT_EQ(doc["functions"][0]["name"], "parse|*x*");
}

TEST(FunctionReport, ChangesInEveryFormat) {
    std::vector<compare::FunctionChange> changes = {
        {"a.c", "beta", 1000, 1100, 100, 1.0},
        {"b.c", "gone|x", 50, std::nullopt, -50, std::nullopt}};
    const auto console = render_function_changes("bench", changes, Format::Console);
    EXPECT_NE(console.find("+100"), std::string::npos) << console;
    EXPECT_NE(console.find("100.0%"), std::string::npos) << console;
    const auto md = render_function_changes("bench", changes, Format::Markdown);
    EXPECT_NE(md.find("gone\\|x"), std::string::npos) << md;
    EXPECT_NE(md.find("| -50 |"), std::string::npos) << md;
    const auto json =
        nlohmann::json::parse(render_function_changes("bench", changes, Format::Json));
    EXPECT_EQ(json[1]["head"], nullptr);
    EXPECT_EQ(json[0]["delta"], 100);
}

}  // namespace cgbench::report
