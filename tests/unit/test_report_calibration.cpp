// The calibration reports: every kernel and weight set in each format, hostile names kept as
// text in the HTML page and its SVG, and the JSON document's shape.

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <optional>

#include "markup_check.hpp"
#include "report/calibration_plot.hpp"
#include "report/calibration_report.hpp"
#include "run_fixtures.hpp"
#include "util/strings.hpp"

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

namespace {

// calibration() with mispredicts on every kernel and two held-out programs, one named to
// attack every format; `indirect`, when given, is the first program's indirect mispredicts.
calibrate::Calibration with_programs(std::optional<std::uint64_t> indirect = std::nullopt) {
    const auto base = calibration();
    std::vector<calibrate::KernelResult> kernels = base.kernels, programs;
    for (std::size_t i = 0; i < kernels.size(); ++i) {
        kernels[i].mispredicts = 10'000 * i;
        kernels[i].timing =
            calibrate::summarize({kernels[i].timing.median + 2500.0 * static_cast<double>(i)});
    }
    for (const auto& name : {std::string("gzip"), kHostile + "<svg onload=alert(2)>"}) {
        calibrate::KernelResult p;
        p.kernel = {name, "program", std::nullopt, {}, {}};
        p.hits = {90'000'000, 2'000'000, 300'000};
        p.mispredicts = 400'000;
        p.timing = calibrate::summarize({5e7, 5.1e7});
        programs.push_back(p);
    }
    programs[0].indirect_mispredicts = indirect;
    auto c = calibrate::fit_calibration(std::move(kernels), false, calibrate::Objective::Absolute,
                                        std::move(programs));
    c.context = base.context;
    return c;
}

}  // namespace

TEST(CalibrationReport, ProgramsAndMispredictsInEveryFormat) {
    const auto c = with_programs();
    ASSERT_TRUE(c.model.mispredicts);
    const auto text = render_calibration_console(c, false);
    for (const char* s :
         {"program (held out)", "gzip", "mispredicts", "programs: r", "pythonspeed + mispredicts",
          "fitted + mispredicts", "held out of every fit"}) {
        EXPECT_NE(text.find(s), std::string::npos) << s << "\n" << text;
    }
    EXPECT_NE(text.find(util::printable(c.programs[1].kernel.name)), std::string::npos);
    EXPECT_NE(text.find(fmt::format("1 / 5 / 35 / mispredicts {}", c.sets[3].weights.back())),
              std::string::npos)
        << text;

    const auto doc = nlohmann::json::parse(render_calibration_json(c));
    ASSERT_EQ(doc["programs"].size(), 2u);
    EXPECT_EQ(doc["programs"][1]["name"], c.programs[1].kernel.name);
    EXPECT_EQ(doc["programs"][0]["mispredicts"], 400'000);
    EXPECT_EQ(doc["kernels"][2]["mispredicts"], 20'000);
    for (std::size_t s = 0; s < c.sets.size(); ++s) {
        const auto& j = doc["weight_sets"][s];
        EXPECT_EQ(j["name"], c.sets[s].name);
        EXPECT_DOUBLE_EQ(j["programs"]["r"].get<double>(), c.sets[s].programs->pearson_r);
        EXPECT_DOUBLE_EQ(doc["programs"][0]["predicted"][c.sets[s].name].get<double>(),
                         c.sets[s].programs->predicted[0]);
    }
    EXPECT_FALSE(doc["programs"][0].contains("indirect_mispredicts")) << "not simulated";
    EXPECT_EQ(doc["weight_sets"][5]["name"], "fitted + mispredicts");
    EXPECT_TRUE(doc["weight_sets"][5].contains("mispredict"));
    EXPECT_EQ(doc["fitted"]["mispredict"], c.fitted.mispredict);

    const auto html = render_calibration_html(c);
    EXPECT_EQ(check_html(html), "");
    for (const auto svg : svg_fragments(html))
        EXPECT_EQ(check_xml(svg), "");
    EXPECT_EQ(svg_fragments(html).size(), 4u);  // linear, random, kernels, programs
    EXPECT_EQ(html.find("<svg onload"), std::string::npos);
    EXPECT_NE(html.find("Held-out programs"), std::string::npos);
    EXPECT_NE(programs_chart(c), "");
    EXPECT_EQ(programs_chart(calibration()), "");
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

TEST(CalibrationReport, IndirectMispredictsAreRecordedButWeighNothing) {
    const auto plain = with_programs();
    const auto c = with_programs(7'000'000);
    const auto doc = nlohmann::json::parse(render_calibration_json(c));
    EXPECT_EQ(doc["programs"][0]["indirect_mispredicts"], 7'000'000);
    EXPECT_FALSE(doc["programs"][1].contains("indirect_mispredicts"));
    ASSERT_EQ(c.sets.size(), plain.sets.size());
    for (std::size_t s = 0; s < c.sets.size(); ++s) {
        EXPECT_EQ(c.sets[s].programs->predicted, plain.sets[s].programs->predicted)
            << c.sets[s].name << ": Bim must not move a prediction";
    }
}

}  // namespace cgbench::report
