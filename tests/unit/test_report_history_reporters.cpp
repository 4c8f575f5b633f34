// `cgbench history` rendering: console table and JSON array, with epochs explicit.

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "base/errors.hpp"
#include "history_fixtures.hpp"
#include "report/formats.hpp"
#include "report/history_reporter.hpp"

namespace cgbench::report {

using testing_fixtures::HistoryBuilder;

namespace {

// The history reporter of the format named `format`, as `cgbench history --format` chooses it.
std::unique_ptr<HistoryReporter> make_history_reporter(std::string_view format) {
    return find_format(format, Model::History, "history").history();
}

// r0 1000, r1 (dirty) 1031, then a new fingerprint: r2 2000, r3 2100.
history::History two_epochs() {
    HistoryBuilder b;
    const auto r0 = b.add_run();
    const auto r1 = b.add_run("main", true);
    b.change_fingerprint([](Fingerprint& f) { f.cpu_baseline = "native"; });
    const auto r2 = b.add_run();
    const auto r3 = b.add_run();
    b.series("x\x1b", {r0, r1, r2, r3}, {1000, 1031, 2000, 2100});
    return b.take();
}

}  // namespace

TEST(HistoryReporters, ConsoleSeries) {
    const auto h = two_epochs();
    const std::string out =
        make_history_reporter("console")->series(view_series(h, h.series[0]), {});
    EXPECT_NE(out.find("x\\x1b: 4 results in 2 epochs"), std::string::npos) << out;
    EXPECT_NE(out.find("2026-11-01 00:01"), std::string::npos) << out;
    EXPECT_NE(out.find("c000000001+"), std::string::npos) << "dirty marked\n" << out;
    EXPECT_NE(out.find("+3.10%"), std::string::npos);
    EXPECT_NE(out.find("+5.00%"), std::string::npos);
    EXPECT_EQ(out.find("+100.00%"), std::string::npos) << "never across epochs\n" << out;
    const auto marker = out.find("-- epoch 2: fingerprint ");
    ASSERT_NE(marker, std::string::npos) << out;
    EXPECT_NE(out.find("CPU baseline: portable vs native", marker), std::string::npos) << out;
    EXPECT_LT(out.find("1,031"), marker);
    EXPECT_GT(out.find("2,000"), marker) << "the marker comes before the new epoch's first";
}

TEST(HistoryReporters, JsonSeriesIsAnArray) {
    const auto h = two_epochs();
    const auto doc = nlohmann::json::parse(
        make_history_reporter("json")->series(view_series(h, h.series[0]), {}));
    ASSERT_TRUE(doc.is_array());
    ASSERT_EQ(doc.size(), 4u);
    EXPECT_EQ(doc[0]["run"], "run0000");
    EXPECT_TRUE(doc[0]["change"].is_null());
    EXPECT_DOUBLE_EQ(doc[1]["change"].get<double>(), 0.031);
    EXPECT_EQ(doc[1]["cost"], 1031);
    EXPECT_EQ(doc[1]["Ir"], 824);
    EXPECT_EQ(doc[1]["dirty"], true);
    EXPECT_EQ(doc[1]["epoch"], 1);
    EXPECT_EQ(doc[2]["epoch"], 2);
    EXPECT_TRUE(doc[2]["change"].is_null()) << "the first of its epoch";
    EXPECT_NE(doc[2]["fingerprint"], doc[1]["fingerprint"]);
    EXPECT_DOUBLE_EQ(doc[3]["change"].get<double>(), 0.05);
}

TEST(HistoryReporters, Runs) {
    history::RunRow row;
    row.id = "r1";
    row.started = "2026-11-22T03:15:00Z";
    row.benchmarks = 3;
    row.failed = 1;
    row.fingerprint_key = "00112233aabbccdd";
    const auto doc = nlohmann::json::parse(make_history_reporter("json")->runs({row}, {}));
    EXPECT_EQ(doc[0]["benchmarks"], 3);
    EXPECT_EQ(doc[0]["failed"], 1);
    EXPECT_EQ(doc[0]["fingerprint"], "00112233aabbccdd");
    EXPECT_NE(make_history_reporter("console")->runs({row}, {}).find("00112233aabbccdd"),
              std::string::npos);
    EXPECT_EQ(make_history_reporter("console")->runs({}, {}), "no runs recorded yet\n");
    EXPECT_EQ(make_history_reporter("console")->runs({row}, {}).find("(detached)"),
              std::string::npos)
        << "no commit: not a checkout";
    row.git.commit = "0123456789abcdef";
    EXPECT_NE(make_history_reporter("console")->runs({row}, {}).find("(detached)"),
              std::string::npos)
        << "a commit on no branch is named as steps names its line";
    EXPECT_THROW(make_history_reporter("junit"), UsageError);
}

}  // namespace cgbench::report
