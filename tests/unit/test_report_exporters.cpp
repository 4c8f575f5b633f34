// Exports for Bencher, github-action-benchmark and OpenMetrics, with a hostile name.

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "base/errors.hpp"
#include "report/exporter.hpp"
#include "run_fixtures.hpp"

namespace cgbench::report {

using namespace testing_fixtures;

TEST(Exporters, BencherMetricFormat) {
    const auto r = run("id", {bench(kHostile, 1000, 4242), failed_bench("broken")});
    const auto doc = nlohmann::json::parse(make_exporter(ExportFormat::Bencher)->render(r));
    ASSERT_EQ(doc.size(), 1u) << "failed benchmarks carry no numbers";
    const auto& m = doc[kHostile];
    EXPECT_EQ(m["cost"]["value"], 4242);
    EXPECT_EQ(m["instructions"]["value"], 1000);
    EXPECT_EQ(m["ram-hits"]["value"], r.benchmarks[0].derived->ram_hits);
    EXPECT_EQ(skipped(r), 1u);
}

TEST(Exporters, GithubActionBenchmarkCustomSmallerIsBetter) {
    const auto r = run("id", {bench(kHostile, 1000, 4242)});
    const auto doc =
        nlohmann::json::parse(make_exporter(ExportFormat::GithubActionBenchmark)->render(r));
    ASSERT_TRUE(doc.is_array());
    ASSERT_EQ(doc.size(), 2u);
    EXPECT_EQ(doc[0]["name"], kHostile);
    EXPECT_EQ(doc[0]["unit"], "cost");
    EXPECT_EQ(doc[0]["value"], 4242);
    EXPECT_TRUE(doc[0]["extra"].is_string());
    EXPECT_EQ(doc[1]["name"], kHostile + " (Ir)");
    EXPECT_EQ(doc[1]["value"], 1000);
}

TEST(Exporters, OpenMetricsOneGaugePerMeasureWithEscapedLabels) {
    const std::string name = "a\"b\\c\nd";
    const auto r = run("id", {bench(name, 1000, 4242), failed_bench("broken")});
    const auto text = make_exporter(ExportFormat::OpenMetrics)->render(r);
    EXPECT_NE(text.find("# TYPE cgbench_cost gauge\n"), std::string::npos) << text;
    EXPECT_NE(text.find("cgbench_cost{benchmark=\"a\\\"b\\\\c\\nd\"} 4242\n"), std::string::npos)
        << text;
    EXPECT_NE(text.find("cgbench_instructions{benchmark=\"a\\\"b\\\\c\\nd\"} 1000\n"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("cgbench_ram_hits{"), std::string::npos);
    EXPECT_EQ(text.find("broken"), std::string::npos) << "failed benchmarks carry no numbers";
    EXPECT_TRUE(text.ends_with("# EOF\n"));
    // Every line is a comment or `name{labels} value`: one raw newline per sample.
    std::size_t samples = 0;
    for (std::size_t pos = 0; pos < text.size();) {
        const auto end = text.find('\n', pos);
        const auto line = text.substr(pos, end - pos);
        if (!line.starts_with("#")) ++samples;
        pos = end + 1;
    }
    EXPECT_EQ(samples, 5u);
}

TEST(Exporters, FormatNames) {
    EXPECT_EQ(parse_export_format("bencher"), ExportFormat::Bencher);
    EXPECT_EQ(parse_export_format("github-action-benchmark"), ExportFormat::GithubActionBenchmark);
    EXPECT_EQ(parse_export_format("openmetrics"), ExportFormat::OpenMetrics);
    EXPECT_THROW(parse_export_format("csv"), UsageError);
}

}  // namespace cgbench::report
