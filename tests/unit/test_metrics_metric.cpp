// The table of metrics: its order, names in any case, values read from a measurement.

#include <gtest/gtest.h>

#include <set>

#include "metrics/metric.hpp"
#include "run_fixtures.hpp"

namespace cgbench::metrics {

TEST(Metric, TableListsTheCostThenEveryEventThenTheHits) {
    ASSERT_EQ(kMetrics.size(), 1 + kEventCount + kHits.size());
    EXPECT_EQ(kMetrics.front().key, Metric::cost());
    for (std::size_t i = 0; i < kEventCount; ++i) {
        EXPECT_EQ(kMetrics[1 + i].key, Metric::event(kEvents[i].id));
        EXPECT_EQ(kMetrics[1 + i].name, kEvents[i].name) << "event names come from kEvents";
    }
    EXPECT_EQ(kMetrics.back().key, Metric::hits(Hits::Ram));
    std::set<std::string_view> names;
    for (const auto& m : kMetrics) {
        EXPECT_TRUE(names.insert(m.name).second) << m.name << " twice";
        EXPECT_FALSE(m.description.empty()) << m.name;
        EXPECT_EQ(info(m.key).name, m.key.name());
    }
}

TEST(Metric, KeysAreSmallValuesOrderedAsTheTable) {
    static_assert(sizeof(Metric) <= 2);
    EXPECT_EQ(Metric(), Metric::cost());
    EXPECT_LT(Metric::cost(), Metric::event(Event::Ir));
    EXPECT_LT(Metric::event(Event::Bim), Metric::hits(Hits::L1));
    EXPECT_NE(Metric::event(Event::Ir), Metric::event(Event::Dr));
    EXPECT_EQ(Metric::event(Event::D1mr).kind(), MetricKind::Event);
    EXPECT_EQ(Metric::event(Event::D1mr).as_event(), Event::D1mr);
    EXPECT_EQ(Metric::hits(Hits::LL).as_hits(), Hits::LL);
    EXPECT_EQ(Metric::hits(Hits::LL).label(), "LL hits");
}

// The threshold grammar's rule: a metric's name in any case.
TEST(Metric, NamesParseInAnyCase) {
    EXPECT_EQ(metric_from_name("cost"), Metric::cost());
    EXPECT_EQ(metric_from_name("IR"), Metric::event(Event::Ir));
    EXPECT_EQ(metric_from_name("d1mr"), Metric::event(Event::D1mr));
    EXPECT_EQ(metric_from_name("L1_Hits"), Metric::hits(Hits::L1));
    EXPECT_FALSE(metric_from_name("cycles"));
    EXPECT_FALSE(metric_from_name(""));
    EXPECT_FALSE(metric_from_name("l1 hits")) << "labels are not names";
    for (const auto& m : kMetrics)
        EXPECT_EQ(metric_from_name(m.name), m.key);
    EXPECT_EQ(metric_names(),
              "cost, Ir, I1mr, ILmr, Dr, D1mr, DLmr, Dw, D1mw, DLmw, Bc, Bcm, Bi, Bim, l1_hits, "
              "ll_hits, ram_hits");
}

TEST(Metric, ValuesAreReadFromAResult) {
    const auto b = testing_fixtures::bench("x", 1000, 4242);
    EXPECT_EQ(metric_value(b, Metric::cost()), 4242u);
    EXPECT_EQ(metric_value(b, Metric::event(Event::Ir)), 1000u);
    EXPECT_EQ(metric_value(b, Metric::hits(Hits::L1)), b.derived->l1_hits);
    EXPECT_EQ(metric_value(b, Metric::hits(Hits::LL)), b.derived->ll_hits);
    EXPECT_EQ(metric_value(b, Metric::hits(Hits::Ram)), b.derived->ram_hits);
    EXPECT_FALSE(metric_value(b, Metric::event(Event::Bc))) << "branch simulation was off";
    EXPECT_FALSE(metric_value(testing_fixtures::failed_bench("f"), Metric::cost()));
    EventCounts ir_only;
    ir_only.set(Event::Ir, 7);
    EXPECT_EQ(Metric::event(Event::Ir).value(ir_only, std::nullopt, 7), 7u);
    EXPECT_FALSE(Metric::hits(Hits::L1).value(ir_only, std::nullopt, 7))
        << "no hits without cache simulation";
}

}  // namespace cgbench::metrics
