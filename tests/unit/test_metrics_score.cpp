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
    for (const char* bad : {"", "fast", "1,2", "1,2,3,4,5", "1,-2,3", "0,0,0", "1.5,2,3", "a,b,c",
                            "0,0,0,20", "1,2,3,-4"}) {
        try {
            parse_weights(bad);
            ADD_FAILURE() << "accepted '" << bad << "'";
        } catch (const UsageError& e) {
            EXPECT_NE(std::string(e.hint()).find("pythonspeed"), std::string::npos);
        }
    }
}

namespace {

// sample() with branch simulation: 7 mispredicted conditional branches, 3 indirect ones.
EventCounts with_branches() {
    auto c = sample();
    c.set(Event::Bc, 300);
    c.set(Event::Bcm, 7);
    c.set(Event::Bi, 40);
    c.set(Event::Bim, 3);
    return c;
}

}  // namespace

TEST(Score, MispredictsWeighTheirWeightWhenSimulated) {
    // Only the conditional ones weigh: Cachegrind's indirect predictor is no CPU's.
    EXPECT_EQ(mispredicts(with_branches()), 7u);
    EXPECT_FALSE(mispredicts(sample()));
    // 1,5,35 with 20 per misprediction: 3270 + 20 * 7
    const auto w = parse_weights("1,5,35,20");
    EXPECT_EQ(w.mispredict, 20u);
    EXPECT_EQ(w.describe(), "1/5/35, mispredict 20");
    EXPECT_EQ(cost(with_branches(), w), 3410u);
    // Without the branch events there is nothing to weigh: an error, not a cost without them.
    EXPECT_THROW(cost(sample(), w), UsageError);
    // A set without a misprediction weight ignores the branch events.
    EXPECT_EQ(cost(with_branches(), parse_weights("1,5,35")), 3270u);
    EXPECT_EQ(cost(with_branches(), parse_weights("1,5,35,0")), 3270u);
}

TEST(Score, PresetsTakeTheirMispredictionWeightOnlyWithBranchSimulation) {
    for (const auto& p : weight_presets()) {
        EXPECT_EQ(p.weights.mispredict, 0u) << p.name;
        const auto off = with_branch_sim(parse_weights(p.name), false);
        EXPECT_EQ(off, p.weights) << p.name;
        EXPECT_EQ(with_branch_sim(parse_weights(p.name), true).mispredict, p.mispredict) << p.name;
    }
    EXPECT_EQ(with_branch_sim(parse_weights("kcachegrind"), true).mispredict, 10u);
    EXPECT_EQ(with_branch_sim(parse_weights("ir"), true).mispredict, 0u);
    // The key of a run without branch simulation is what it always was.
    EXPECT_EQ(with_branch_sim(parse_weights("pythonspeed"), false).describe(), "1/5/35");
    const auto on = with_branch_sim(parse_weights("pythonspeed"), true);
    EXPECT_NE(on.describe(), "1/5/35");
    EXPECT_EQ(cost(with_branches(), on), 3270u + on.mispredict * 7);
}

TEST(Score, CustomMispredictionWeightsNeedBranchSimulation) {
    EXPECT_EQ(with_branch_sim(parse_weights("1,6,80,9"), true).mispredict, 9u);
    EXPECT_EQ(with_branch_sim(parse_weights("1,6,80"), true).mispredict, 0u);
    EXPECT_EQ(with_branch_sim(parse_weights("1,6,80,0"), false).mispredict, 0u);
    try {
        with_branch_sim(parse_weights("1,6,80,9"), false);
        FAIL() << "accepted a misprediction weight without branch simulation";
    } catch (const UsageError& e) {
        EXPECT_NE(std::string(e.what()).find("branch simulation is off"), std::string::npos)
            << e.what();
        EXPECT_NE(e.hint().find("--branch-sim"), std::string::npos);
    }
}

TEST(Score, AMispredictionWeightIsBoundedLikeTheOthers) {
    EXPECT_THROW(parse_weights("1,2,3,1000001"), UsageError);
    EXPECT_EQ(parse_weights("1,2,3,1000000").mispredict, kMaxWeight);
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
