// One benchmark's chart: a line per branch broken at epochs, steps marked with labels that
// do not overlap, an honest axis, failed results as crosses.

#include <gtest/gtest.h>

#include <regex>

#include "history/steps.hpp"
#include "history_fixtures.hpp"
#include "markup_check.hpp"
#include "report/history_chart.hpp"

namespace cgbench::report {

using testing_fixtures::flat;
using testing_fixtures::HistoryBuilder;
using testing_fixtures::occurrences;
using testing_fixtures::operator+;
using testing_markup::check_xml;

namespace {

struct Fixture {
    history::History h;
    std::vector<history::BranchSteps> steps;
    ChartInput input;
    ChartContext context;
};

Fixture chart_of(history::History h) {
    Fixture f{std::move(h), {}, {}, {}};
    f.steps = history::find_all_steps(f.h, {"main", std::nullopt, false});
    f.input.name = f.h.series[0].name;
    f.input.id = "b0";
    f.input.lines = history::lines_of(f.h, f.h.series[0], history::run_keys(f.h), "main");
    f.input.dirty = history::dirty_results(f.h, f.h.series[0]);
    for (const auto& b : f.steps) {
        for (const auto& e : b.events) {
            for (const auto& s : e.steps)
                f.input.steps.push_back(&s);
        }
    }
    f.context.history = &f.h;
    f.context.branches = {{"main", 0}, {"feature", 1}};
    return f;
}


}  // namespace

TEST(HistoryChart, StepsAreMarkedWithTheirChangeAndLabel) {
    auto f = chart_of(HistoryBuilder::simple(flat(8, 28'757'186) + flat(8, 32'657'486) +
                                             flat(1, 30'000'000) + flat(8, 32'657'486)));
    const auto chart = history_chart(f.input, f.context);
    EXPECT_EQ(check_xml(chart.svg), "") << chart.svg;
    EXPECT_EQ(occurrences(chart.svg, "class=\"stepmark code\""), 1u) << "the blip is no step";
    EXPECT_NE(chart.svg.find(">+13.56% code</text>"), std::string::npos) << chart.svg;
    EXPECT_EQ(chart.step_labels, 1u);
    EXPECT_EQ(occurrences(chart.svg, "class=\"line br0\""), 1u);
}

TEST(HistoryChart, LabelsOfManyStepsStayApart) {
    // A step at every other commit: more labels than fit; those placed never overlap.
    std::vector<std::optional<std::uint64_t>> costs;
    for (int i = 0; i < 80; ++i)
        costs.push_back(1'000'000 + static_cast<std::uint64_t>(i / 2) * 1000);
    auto f = chart_of(HistoryBuilder::simple(costs));
    const auto chart = history_chart(f.input, f.context);
    EXPECT_EQ(check_xml(chart.svg), "");
    EXPECT_EQ(occurrences(chart.svg, "class=\"stepmark code\""), 39u);
    EXPECT_LT(chart.step_labels, 39u);
    EXPECT_GT(chart.step_labels, 5u);
    // Same row (same y), centred x: at least the two half widths apart.
    const std::regex label(R"re(<text x="([0-9.]+)" y="([0-9.]+)" text-anchor="middle" class="steplabel[^"]*"><title>[^<]*</title>([^<]*)</text>)re");
    std::vector<std::tuple<double, double, std::string>> boxes;
    for (auto it = std::sregex_iterator(chart.svg.begin(), chart.svg.end(), label);
         it != std::sregex_iterator(); ++it) {
        boxes.emplace_back(std::stod((*it)[1]), std::stod((*it)[2]), (*it)[3]);
    }
    EXPECT_EQ(boxes.size(), chart.step_labels);
    for (std::size_t i = 0; i < boxes.size(); ++i) {
        for (std::size_t j = 0; j < i; ++j) {
            const auto& [xi, yi, ti] = boxes[i];
            const auto& [xj, yj, tj] = boxes[j];
            if (yi != yj) continue;
            EXPECT_GE(std::abs(xi - xj), (label_width(ti) + label_width(tj)) / 2) << ti << " / " << tj;
        }
    }
}

TEST(HistoryChart, EpochsBreakTheLineAndAreLabelled) {
    HistoryBuilder b;
    std::vector<std::size_t> runs;
    for (int i = 0; i < 4; ++i)
        runs.push_back(b.add_run());
    b.change_fingerprint([](Fingerprint& fp) { fp.valgrind_version = "3.22.0"; });
    for (int i = 0; i < 4; ++i)
        runs.push_back(b.add_run());
    b.series("x", runs, flat(4, 1000) + flat(4, 1100));
    auto f = chart_of(b.take());
    const auto chart = history_chart(f.input, f.context);
    EXPECT_EQ(check_xml(chart.svg), "");
    EXPECT_EQ(occurrences(chart.svg, "class=\"line br0\""), 2u) << "broken at the new epoch";
    EXPECT_EQ(occurrences(chart.svg, "class=\"break\""), 1u);
    EXPECT_NE(chart.svg.find("valgrind: 3.19.0 vs 3.22.0"), std::string::npos);
    EXPECT_NE(chart.svg.find(">fingerprint 2</text>"), std::string::npos);
    EXPECT_EQ(occurrences(chart.svg, "class=\"stepmark environment\""), 1u);
    // Each epoch against its own first result: both flat at 0%.
    EXPECT_EQ(chart.svg.find(">+10%</text>"), std::string::npos) << "no tick beyond ±1%";
}

TEST(HistoryChart, BranchesFailuresAndDirtyResults) {
    HistoryBuilder b;
    const auto r0 = b.add_run();
    const auto r1 = b.add_run("feature");
    const auto r2 = b.add_run();
    const auto r3 = b.add_run("main", true);
    const auto r4 = b.add_run();
    b.series("x", {r0, r1, r2, r3, r4}, {1000, 1100, std::nullopt, 900, 1000});
    auto f = chart_of(b.take());
    const auto chart = history_chart(f.input, f.context);
    EXPECT_EQ(check_xml(chart.svg), "");
    EXPECT_EQ(occurrences(chart.svg, "class=\"failed\""), 1u);
    EXPECT_EQ(occurrences(chart.svg, "class=\"dot dirty br0\""), 1u);
    EXPECT_EQ(occurrences(chart.svg, "class=\"dot br1\""), 1u);
    EXPECT_NE(chart.svg.find("class=\"value br1\""), std::string::npos) << "its latest value";
    EXPECT_NE(chart.data.find("\"runs\":[0,1,2,3,4]"), std::string::npos) << chart.data;
}

TEST(HistoryChart, Sparkline) {
    auto f = chart_of(HistoryBuilder::simple({1000, 1004, std::nullopt, 1004}));
    const auto s = sparkline(f.input, f.context);
    EXPECT_EQ(check_xml(s), "");
    EXPECT_NE(s.find("class=\"spark\""), std::string::npos);
    EXPECT_EQ(occurrences(s, "class=\"failed\""), 1u);
}

}  // namespace cgbench::report
