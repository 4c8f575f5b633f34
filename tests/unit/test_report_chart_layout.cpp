// The charts' honest axis and label placement.

#include <gtest/gtest.h>

#include <algorithm>

#include "report/chart_layout.hpp"

namespace cgbench::report {

TEST(ChartLayout, ARelativeAxisIsAtLeastTwoPointsWide) {
    // A +0.42% step: the axis spans at least 2 percentage points, so it fills about a fifth.
    const auto small = relative_axis(0, 0.42);
    EXPECT_LE(small.lo, 0);
    EXPECT_GE(small.hi, 0.42);
    EXPECT_GE(small.hi - small.lo, kMinRelativeSpan);
    EXPECT_LT(0.42 / (small.hi - small.lo), 0.25);
    // A +13.56% step fills most of it.
    const auto big = relative_axis(0, 13.56);
    EXPECT_GT(13.56 / (big.hi - big.lo), 0.6);
    for (const auto& a : {small, big}) {
        EXPECT_EQ(a.ticks.front(), a.lo);
        EXPECT_EQ(a.ticks.back(), a.hi);
        EXPECT_NE(std::find(a.ticks.begin(), a.ticks.end(), 0.0), a.ticks.end()) << "0% shown";
    }
}

TEST(ChartLayout, AZeroAxisStartsAtZero) {
    const auto a = zero_axis(32'657'486);
    EXPECT_EQ(a.lo, 0);
    EXPECT_GE(a.hi, 32'657'486);
    EXPECT_LE(a.ticks.size(), 6u);
}

TEST(ChartLayout, LabelsNeverOverlap) {
    std::vector<LabelBox> boxes;
    for (int i = 0; i < 30; ++i)
        boxes.push_back({100.0 + 9 * i, 60});
    const auto rows = place_labels(boxes, 50, 800, 3, 6);
    std::size_t placed = 0;
    for (std::size_t i = 0; i < boxes.size(); ++i) {
        if (!rows[i]) continue;
        ++placed;
        for (std::size_t j = 0; j < i; ++j) {
            if (rows[j] != rows[i]) continue;
            EXPECT_GE(std::abs(boxes[i].x - boxes[j].x), 66 - 1e-9) << i << " " << j;
        }
    }
    EXPECT_GE(placed, 3u);
    EXPECT_LT(placed, 30u) << "no room for all: the rest get none";
    // Clamped inside the chart.
    std::vector<LabelBox> edge = {{0, 40}, {1000, 40}};
    place_labels(edge, 10, 500, 1, 4);
    EXPECT_EQ(edge[0].x, 30);
    EXPECT_EQ(edge[1].x, 480);
}

TEST(ChartLayout, SpreadApart) {
    const auto ys = spread_apart({100, 101, 300}, 14, 0, 400);
    EXPECT_GE(std::abs(ys[1] - ys[0]), 14 - 1e-9);
    EXPECT_EQ(ys[2], 300);
}

}  // namespace cgbench::report
