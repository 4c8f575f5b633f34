#include <gtest/gtest.h>

#include "base/errors.hpp"
#include "metrics/events.hpp"
#include "metrics/score.hpp"

namespace cgbench::metrics {

namespace {

// Hand-worked example:
//   ram = ILmr + DLmr + DLmw            = 5 + 30 + 10            = 45
//   ll  = (I1mr + D1mr + D1mw) - ram    = (10 + 50 + 20) - 45    = 35
//   l1  = (Ir + Dr + Dw) - ram - ll     = (1000 + 400 + 200) - 80 = 1520
EventCounts sample() {
    EventCounts c;
    c.set(Event::Ir, 1000);
    c.set(Event::Dr, 400);
    c.set(Event::Dw, 200);
    c.set(Event::I1mr, 10);
    c.set(Event::D1mr, 50);
    c.set(Event::D1mw, 20);
    c.set(Event::ILmr, 5);
    c.set(Event::DLmr, 30);
    c.set(Event::DLmw, 10);
    return c;
}

}  // namespace

TEST(Events, TableDrivesNameLookup) {
    for (const auto& e : kEvents) {
        EXPECT_EQ(event_from_name(e.name), e.id) << e.name;
        EXPECT_FALSE(e.description.empty());
    }
    EXPECT_FALSE(event_from_name("Xx"));
}

TEST(Events, CountsKnowWhatWasMeasured) {
    EventCounts c;
    EXPECT_TRUE(c.empty());
    c.set(Event::Ir, 0);
    EXPECT_TRUE(c.has(Event::Ir));
    EXPECT_FALSE(c.has(Event::Dr));
    EXPECT_FALSE(c.has_cache_events());
    EXPECT_TRUE(sample().has_cache_events());
}

TEST(Score, DerivedHitsByHand) {
    const auto d = derive(sample());
    ASSERT_TRUE(d);
    EXPECT_EQ(d->ram_hits, 45u);
    EXPECT_EQ(d->ll_hits, 35u);
    EXPECT_EQ(d->l1_hits, 1520u);
}

TEST(Score, PresetsByHand) {
    // pythonspeed: 1520 + 5*35 + 35*45 = 1520 + 175 + 1575
    EXPECT_EQ(cost(sample(), parse_weights("pythonspeed")), 3270u);
    // kcachegrind: 1520 + 10*35 + 100*45 = 1520 + 350 + 4500
    EXPECT_EQ(cost(sample(), parse_weights("kcachegrind")), 6370u);
    // ir: the instruction count
    EXPECT_EQ(cost(sample(), parse_weights("ir")), 1000u);
    // custom 1,6,80: 1520 + 210 + 3600
    EXPECT_EQ(cost(sample(), parse_weights("1,6,80")), 5330u);
}

TEST(Score, IrPresetNeedsNoCacheEvents) {
    EventCounts c;
    c.set(Event::Ir, 77);
    EXPECT_FALSE(derive(c));
    EXPECT_EQ(cost(c, parse_weights("ir")), 77u);
    EXPECT_THROW(cost(c, parse_weights("pythonspeed")), UsageError);
}

TEST(Score, WeightPresetsAreDocumented) {
    const auto w = parse_weights("pythonspeed");
    EXPECT_EQ(w.l1, 1u);
    EXPECT_EQ(w.ll, 5u);
    EXPECT_EQ(w.ram, 35u);
    EXPECT_EQ(w.describe(), "1/5/35");
    const auto k = parse_weights("kcachegrind");
    EXPECT_EQ(k.describe(), "1/10/100");
    EXPECT_TRUE(parse_weights("ir").instructions_only);
    EXPECT_EQ(parse_weights(" 2, 3 ,4").describe(), "2/3/4");
}

TEST(Score, BadWeightsAreUsageErrors) {
    for (const char* bad : {"", "fast", "1,2", "1,2,3,4", "1,-2,3", "0,0,0", "1.5,2,3", "a,b,c"}) {
        try {
            parse_weights(bad);
            ADD_FAILURE() << "accepted '" << bad << "'";
        } catch (const UsageError& e) {
            EXPECT_NE(std::string(e.hint()).find("pythonspeed"), std::string::npos);
        }
    }
}

TEST(Score, InconsistentCountsAreRejected) {
    auto c = sample();
    c.set(Event::DLmr, 1000);  // more LL misses than L1 misses
    EXPECT_THROW(derive(c), UsageError);
}

TEST(Score, OverflowIsAnErrorNotAWrap) {
    EventCounts c;
    for (const auto& e : kEvents) {
        if (e.source != EventSource::BranchSim) c.set(e.id, 0);
    }
    c.set(Event::Ir, UINT64_MAX);
    c.set(Event::Dr, 1);
    EXPECT_THROW(derive(c), UsageError);
    c.set(Event::Dr, 0);
    EXPECT_EQ(cost(c, parse_weights("1,0,0")), UINT64_MAX);
    EXPECT_THROW(cost(c, parse_weights("2,0,0")), UsageError);
}

}  // namespace cgbench::metrics
