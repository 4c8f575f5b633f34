// The call-graph measurement and the differential flame graph under the real Valgrind, on
// tests/programs/flame.c built twice: the head's hot() runs its inner loop 3 times as often.
// One Callgrind run per side serves every assertion.

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>

#include "e2e/harness.hpp"
#include "exec/process.hpp"
#include "report/flame_svg.hpp"
#include "runner/call_stacks.hpp"
#include "runner/measurer.hpp"
#include "unit/flame_check.hpp"
#include "unit/markup_check.hpp"
#include "util/fs.hpp"
#include "valgrind/installation.hpp"

namespace cgbench::e2e {

namespace {

using testing_flame::drawn_frame;

// Whether an XML parser (Python's) reads `file` as a well-formed document.
bool xml_parses(const fs::path& file) {
    exec::PosixProcessRunner runner;
    exec::ProcessSpec ps;
    ps.argv = {"/usr/bin/python3", "-c",
               "import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])", file.string()};
    ps.env = {"PATH=/usr/bin:/bin"};
    const auto outcome = runner.run(ps);
    return outcome.how == exec::Termination::Exited && outcome.exit_code == 0;
}

}  // namespace

TEST(FlameE2E, TheFunctionWhoseLoopGotCostlierIsWiderAndRed) {
    exec::PosixProcessRunner runner;
    const exec::EnvMap caller = {{"PATH", "/usr/bin:/bin"}};
    const auto inst = valgrind::locate_valgrind(caller, runner);
    runner::Measurer measurer(inst, runner::MeasureSettings{}, runner, caller);
    runner::BenchmarkSpec spec;
    spec.name = "flame";
    spec.command = {program("flame_base")};
    const auto base = runner::measure_call_tree(measurer, spec);
    spec.command = {program("flame_head")};
    const auto head = runner::measure_call_tree(measurer, spec);
    ASSERT_EQ(base.result.status, BenchStatus::Ok) << base.result.error;
    ASSERT_EQ(head.result.status, BenchStatus::Ok) << head.result.error;
    // The tree covers the run: the paths' costs add up to the run's cost (from Callgrind's
    // totals), within the rounding of shared-out costs.
    for (const auto* side : {&base, &head}) {
        EXPECT_NEAR(static_cast<double>(side->tree.total()), static_cast<double>(side->result.cost),
                    0.01 * static_cast<double>(side->result.cost));
    }

    const auto dir = scratch("flame");
    const auto file = dir / "flame.svg";
    util::write_file_atomic(file, report::render_flame_svg({"flame", "", &head.tree, &base.tree}));
    EXPECT_TRUE(xml_parses(file));
    const auto svg = util::read_file(file);
    EXPECT_EQ(testing_markup::MarkupChecker().check(svg.substr(svg.find("<svg")), false), "");
    const auto plain = report::render_flame_svg({"flame", "", &base.tree, nullptr});

    const auto hot = drawn_frame(svg, "hot");
    const auto hot_before = drawn_frame(plain, "hot");
    ASSERT_GT(hot.width, 0) << svg;
    ASSERT_GT(hot_before.width, 0) << plain;
    // Red: hot() moved most, so its red is the deepest; wider: a larger share of the head
    // than of the base (both drawn kFlameWidth wide).
    EXPECT_EQ(hot.red, 255);
    EXPECT_EQ(hot.green, hot.blue);
    EXPECT_LT(hot.green, 100);
    EXPECT_GT(hot.width, hot_before.width * 1.3);
    // walk() recurses (Callgrind names its deeper calls walk'2): one path to each, the
    // recursion inside their own cost.
    std::size_t walks = 0;
    for (std::uint32_t n = 0; n < head.tree.size(); ++n) {
        const auto& name = head.tree.node(n).name;
        if (name.starts_with("walk")) {
            ++walks;
            EXPECT_LE(head.tree.depth(n), 12U) << name;
        }
    }
    EXPECT_GE(walks, 1U);
    EXPECT_LE(walks, 2U);
}

}  // namespace cgbench::e2e
