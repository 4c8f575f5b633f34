// `cgbench history` rendering: console table and JSON array.

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "core/errors.hpp"
#include "report/history_reporter.hpp"
#include "run_fixtures.hpp"

namespace cgbench::report {

namespace {

std::vector<store::SeriesPoint> points() {
    store::SeriesPoint a;
    a.run_id = "r1";
    a.started = "2026-11-22T03:15:00Z";
    a.git.commit = "0123456789abcdef";
    a.cost = 1000;
    a.ir = 800;
    store::SeriesPoint b = a;
    b.run_id = "r2";
    b.git.dirty = true;
    b.cost = 1031;
    b.change = 0.031;
    return {a, b};
}

}  // namespace

TEST(HistoryReporters, ConsoleSeries) {
    const std::string out = make_history_reporter(Format::Console)->series("x\x1b", points(), {});
    EXPECT_NE(out.find("x\\x1b: 2 results"), std::string::npos) << out;
    EXPECT_NE(out.find("2026-11-22 03:15"), std::string::npos);
    EXPECT_NE(out.find("0123456789+"), std::string::npos) << "dirty marked";
    EXPECT_NE(out.find("+3.10%"), std::string::npos);
    EXPECT_NE(out.find("1,031"), std::string::npos);
}

TEST(HistoryReporters, JsonSeriesIsAnArray) {
    const auto doc =
        nlohmann::json::parse(make_history_reporter(Format::Json)->series("x", points(), {}));
    ASSERT_TRUE(doc.is_array());
    ASSERT_EQ(doc.size(), 2u);
    EXPECT_EQ(doc[0]["run"], "r1");
    EXPECT_TRUE(doc[0]["change"].is_null());
    EXPECT_DOUBLE_EQ(doc[1]["change"].get<double>(), 0.031);
    EXPECT_EQ(doc[1]["cost"], 1031);
    EXPECT_EQ(doc[1]["Ir"], 800);
    EXPECT_EQ(doc[1]["dirty"], true);
}

TEST(HistoryReporters, Runs) {
    store::RunRow row;
    row.id = "r1";
    row.started = "2026-11-22T03:15:00Z";
    row.benchmarks = 3;
    row.failed = 1;
    const auto doc = nlohmann::json::parse(make_history_reporter(Format::Json)->runs({row}, {}));
    EXPECT_EQ(doc[0]["benchmarks"], 3);
    EXPECT_EQ(doc[0]["failed"], 1);
    EXPECT_EQ(make_history_reporter(Format::Console)->runs({}, {}), "no runs recorded yet\n");
    EXPECT_THROW(make_history_reporter(Format::Junit), UsageError);
}

}  // namespace cgbench::report
