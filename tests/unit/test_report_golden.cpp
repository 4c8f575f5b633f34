// Golden files: every output format renders every model it supports, from models whose names
// attack it (golden_fixtures.hpp), exactly as tests/data/golden/VIEW.FORMAT holds; a model a
// format does not render is refused as the commands refuse it, and has no golden file.
// CGBENCH_UPDATE_GOLDEN=1 writes the files instead of comparing: read every changed one
// before committing it, since a golden file that keeps broken escaping is a defect.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <set>
#include <sstream>

#include "base/errors.hpp"
#include "golden_fixtures.hpp"
#include "report/calibration_report.hpp"
#include "report/formats.hpp"
#include "report/function_report.hpp"
#include "util/fs.hpp"
#include "util/strings.hpp"

namespace cgbench::report {

namespace fs = std::filesystem;
using namespace testing_fixtures;

namespace {

// One rendering of a model: the stem of its golden files and how a format renders it.
struct View {
    Model model;
    std::string name;
    std::function<std::string(const OutputFormat&)> render;
};

// Console without colour; verbose, so every part a format can show is shown.
const RenderOptions kOptions{false, true};

std::vector<View> views() {
    return {
        {Model::Run, "run", [](const auto& f) { return f.run()->render(hostile_run(), kOptions); }},
        {Model::Compare, "compare",
         [](const auto& f) { return f.compare()->render(hostile_comparison(), kOptions); }},
        {Model::History, "history-series",
         [](const auto& f) {
             const auto h = hostile_history(hostile_names()[4] + hostile_names()[1]);
             return f.history()->series(view_series(h, h.series[0]), kOptions);
         }},
        {Model::History, "history-runs",
         [](const auto& f) { return f.history()->runs(hostile_run_rows(), kOptions); }},
        {Model::Steps, "steps",
         [](const auto& f) {
             const auto h = hostile_steps_history();
             auto report = hostile_steps(h);
             report.verbose = true;
             return f.steps()->render(report, kOptions);
         }},
        {Model::Bisect, "bisect",
         [](const auto& f) { return f.bisect()->render(hostile_bisect(), kOptions); }},
        {Model::Functions, "functions",
         [](const auto& f) {
             return f.functions()->render(hostile_functions_result(), 20, kOptions);
         }},
        {Model::Calibration, "calibration",
         [](const auto& f) { return f.calibration()->render(hostile_calibration(), kOptions); }},
        {Model::Bisect, "bisect-within",
         [](const auto& f) { return f.bisect()->render(hostile_bisect_within(), kOptions); }},
        {Model::Backfill, "backfill",
         [](const auto& f) { return f.backfill()->render(hostile_backfill(), kOptions); }},
    };
}

fs::path golden_dir() {
    return fs::path(CGBENCH_TEST_DATA) / "golden";
}

bool updating() {
    const char* v = std::getenv("CGBENCH_UPDATE_GOLDEN");
    return v != nullptr && std::string_view(v) == "1";
}

struct Case {
    const OutputFormat* format;
    std::size_t view;
};

std::vector<Case> cases() {
    std::vector<Case> out;
    for (const auto& f : output_formats()) {
        for (std::size_t v = 0; v < views().size(); ++v)
            out.push_back({&f, v});
    }
    return out;
}

std::string case_name(const ::testing::TestParamInfo<Case>& info) {
    std::string name = std::string(info.param.format->name) + "_" + views()[info.param.view].name;
    for (auto& c : name) {
        if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
    }
    return name;
}

std::string read(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

// What no format may write, whatever the names: bytes that are not UTF-8, and C0 controls but
// newline, tab and CR (which XML keeps and its readers normalise): an ESC drives a terminal,
// a NUL cuts text. Unless `exact` (JSON, whose strings keep every other character), no C1
// control either: a terminal may take U+009B for ESC [.
std::string broken_text(std::string_view text, bool exact) {
    for (std::size_t i = 0; i < text.size();) {
        char32_t cp = 0;
        const std::size_t n = util::utf8_sequence(text.substr(i), cp);
        if (n == 0) return "a byte that is not UTF-8 at " + std::to_string(i);
        const bool c0 = cp < 0x20 && cp != '\n' && cp != '\t' && cp != '\r';
        if (c0 || (!exact && cp >= 0x80 && cp <= 0x9f)) {
            return "control character " + std::to_string(cp) + " at " + std::to_string(i);
        }
        i += n;
    }
    return {};
}

class ReportGolden : public ::testing::TestWithParam<Case> {};

}  // namespace

TEST_P(ReportGolden, MatchesItsFileOrIsRefused) {
    const auto& format = *GetParam().format;
    const auto view = views()[GetParam().view];
    const fs::path path = golden_dir() / (view.name + "." + std::string(format.name));
    if (!supports(format, view.model)) {
        try {
            find_format(format.name, view.model, "command");
            ADD_FAILURE() << format.name << " was not refused for " << view.name;
        } catch (const UsageError& e) {
            EXPECT_EQ(std::string(e.what()),
                      "cgbench command cannot write " + std::string(format.name));
            EXPECT_EQ(e.hint(), "it writes " + format_names(view.model));
        }
        if (updating()) fs::remove(path);
        EXPECT_FALSE(fs::exists(path)) << path << " is left from a format that rendered it";
        return;
    }
    const std::string text = view.render(format);
    EXPECT_EQ(broken_text(text, format.name == "json"), "") << path;
    if (updating()) {
        fs::create_directories(golden_dir());
        util::write_file_atomic(path, text);
        return;
    }
    ASSERT_TRUE(fs::exists(path)) << path << " is missing: CGBENCH_UPDATE_GOLDEN=1 writes it";
    EXPECT_EQ(text, read(path)) << "rendered differently from " << path
                                << " (CGBENCH_UPDATE_GOLDEN=1 rewrites it; review the diff)";
}

INSTANTIATE_TEST_SUITE_P(EveryFormatAndModel, ReportGolden, ::testing::ValuesIn(cases()),
                         case_name);

// Every model has a view here, and every file in the folder is one some case writes.
TEST(ReportGoldenFiles, CoverEveryModelAndNoMore) {
    // It may run before the cases that write the files.
    if (updating()) GTEST_SKIP() << "writing the golden files; run again to check them";
    std::set<Model> viewed;
    std::set<std::string> expected;
    for (const auto& v : views()) {
        viewed.insert(v.model);
        for (const auto& f : output_formats()) {
            if (supports(f, v.model)) expected.insert(v.name + "." + std::string(f.name));
        }
    }
    EXPECT_EQ(viewed.size(), kModels.size());
    std::set<std::string> found;
    for (const auto& entry : fs::directory_iterator(golden_dir()))
        found.insert(entry.path().filename().string());
    EXPECT_EQ(found, expected);
}

}  // namespace cgbench::report
