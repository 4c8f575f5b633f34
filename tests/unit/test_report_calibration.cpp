// The calibration reports: every kernel and weight set in each format, hostile names kept as
// text in the HTML page and its SVG, and the JSON document's shape.

#include "report/calibration_report.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "markup_check.hpp"
#include "util/strings.hpp"
#include "report/calibration_plot.hpp"
#include "run_fixtures.hpp"

namespace cgbench::report {

using testing_fixtures::kHostile;
using testing_markup::check_html;
using testing_markup::check_xml;
using testing_markup::svg_fragments;

namespace {

// Two walks of three sizes each and a suite benchmark named to attack every format; times
// from 1/4/60 weights plus a 10% error on one kernel, so weight sets disagree.
calibrate::Calibration calibration(bool ir_term = false) {
    std::vector<calibrate::KernelResult> kernels;
    const std::uint64_t sizes[] = {1024, 1 << 20, 64 << 20};
    for (const std::string family : {"walk/linear", "walk/random"}) {
        for (int i = 0; i < 3; ++i) {
            calibrate::KernelResult k;
            k.kernel.name = family + "/" + std::to_string(i);
            k.kernel.family = family;
            k.kernel.working_set = sizes[i];
            const bool random = family == "walk/random";
            k.hits = {20'000'000, static_cast<std::uint64_t>(i) * 1'000'000,
                      static_cast<std::uint64_t>(i) * (random ? 2'000'000 : 200'000)};
            kernels.push_back(k);
        }
    }
    calibrate::KernelResult evil;
    evil.kernel.name = kHostile + "</script><svg onload=alert(1)>";
    evil.kernel.family = "suite";
    evil.hits = {5'000'000, 100'000, 50'000};
    kernels.push_back(evil);
    for (std::size_t i = 0; i < kernels.size(); ++i) {
        auto& h = kernels[i].hits;
        double ns = 0.25 * (static_cast<double>(h.l1_hits) + 4.0 * static_cast<double>(h.ll_hits) +
                           60.0 * static_cast<double>(h.ram_hits));
        if (i == 2) ns *= 1.1;
        kernels[i].timing = calibrate::summarize({ns * 0.99, ns, ns * 1.02});
        kernels[i].ir = h.l1_hits / 2;
    }
    auto c = calibrate::fit_calibration(std::move(kernels), ir_term);
    c.context.cpu_model = "CPU <b>bold</b>";
    c.context.started = "2026-11-22T03:15:00Z";
    c.context.steps = 2097152;
    c.context.native.clock = calibrate::Clock::Cpu;
    c.context.cycles_unavailable = "No such file or directory";
    c.context.pinned_cpu = 1;
    c.context.cpus = 2;
    c.context.load_before = 0.5;
    c.context.load_after = 0.7;
    return c;
}

}  // namespace

TEST(CalibrationReport, ConsoleListsEveryKernelAndWeightSet) {
    const auto c = calibration(true);
    const auto text = render_calibration_console(c, false);
    for (const auto& k : c.kernels)
        EXPECT_NE(text.find(util::printable(k.kernel.name)), std::string::npos) << k.kernel.name;
    for (const char* s : {"pythonspeed", "kcachegrind", "fitted", "fitted + Ir", "1 / 5 / 35",
                          "1 / 10 / 100", "median error", "pinned to CPU 1", "CPU time",
                          "no cycle counter: No such file or directory",
                          "2 CPUs · load average 0.50 before the native runs, 0.70 after"}) {
        EXPECT_NE(text.find(s), std::string::npos) << s << "\n" << text;
    }
    // The fitted row shows the integer weights written to the file.
    EXPECT_NE(text.find(fmt::format("{} / {} / {}", c.fitted.l1, c.fitted.ll, c.fitted.ram)),
              std::string::npos);
}

TEST(CalibrationReport, TimingsTableMarksTheNoisyKernels) {
    const auto c = calibration();
    std::vector<calibrate::Kernel> kernels;
    std::vector<calibrate::Timing> timings;
    for (const auto& k : c.kernels) {
        kernels.push_back(k.kernel);
        timings.push_back(k.timing);
    }
    timings[1] = calibrate::summarize({1e6, 2e6, 3e6});
    const auto text = render_timings_console(kernels, timings, calibrate::Clock::Cpu, 0.02);
    EXPECT_NE(text.find("walk/linear/1"), std::string::npos);
    EXPECT_EQ(text.find("too noisy"), text.rfind("too noisy")) << text;  // one kernel
    EXPECT_NE(text.find("too noisy"), std::string::npos);
}

TEST(CalibrationReport, HtmlIsSelfContainedAndEscapesEveryName) {
    const auto html = render_calibration_html(calibration(true));
    EXPECT_EQ(check_html(html), "");
    for (const auto svg : svg_fragments(html))
        EXPECT_EQ(check_xml(svg), "");
    EXPECT_EQ(svg_fragments(html).size(), 3u);  // linear, random, scatter
    EXPECT_EQ(html.find("<script"), std::string::npos);
    EXPECT_EQ(html.find("<img"), std::string::npos);
    EXPECT_EQ(html.find("<svg onload"), std::string::npos);
    EXPECT_NE(html.find("&lt;img src=x onerror=alert(1)&gt;"), std::string::npos);
    EXPECT_NE(html.find("default-src 'none'"), std::string::npos);
    EXPECT_EQ(html.find("href=\"http"), std::string::npos);  // nothing loaded from elsewhere
    EXPECT_EQ(html.find("url("), std::string::npos);
}

TEST(CalibrationReport, WalkChartsNeedTwoSizes) {
    const auto c = calibration();
    EXPECT_NE(walk_chart(c, "walk/linear"), "");
    EXPECT_EQ(walk_chart(c, "suite"), "");
    EXPECT_EQ(walk_chart(c, "compute"), "");
}

TEST(CalibrationReport, JsonHasTheSchemaEveryKernelAndWeightSet) {
    const auto c = calibration(true);
    const auto doc = nlohmann::json::parse(render_calibration_json(c));
    EXPECT_EQ(doc["schema"], "cgbench-calibration/1");
    EXPECT_EQ(doc["native"]["clock"], "cpu");
    EXPECT_EQ(doc["native"]["pinned_cpu"], 1);
    EXPECT_EQ(doc["fitted"]["l1"], c.fitted.l1);
    EXPECT_EQ(doc["fitted"]["ram"], c.fitted.ram);
    ASSERT_EQ(doc["kernels"].size(), c.kernels.size());
    EXPECT_EQ(doc["kernels"][6]["name"], c.kernels[6].kernel.name);
    EXPECT_EQ(doc["kernels"][0]["time"]["runs"].size(), 3u);
    EXPECT_EQ(doc["kernels"][0]["hits"]["l1"], 20'000'000);
    ASSERT_EQ(doc["weight_sets"].size(), 4u);
    EXPECT_EQ(doc["weight_sets"][3]["name"], "fitted + Ir");
    EXPECT_EQ(doc["weight_sets"][3]["usable"], false);
    EXPECT_TRUE(doc["weight_sets"][3].contains("ir"));
    EXPECT_DOUBLE_EQ(doc["weight_sets"][0]["r"].get<double>(), c.sets[0].agreement.pearson_r);
}

}  // namespace cgbench::report
