// The bisect search: halving finds the first moved commit in about log2(n) probes, skips
// commits that cannot be measured, and then answers with a range.

#include <gtest/gtest.h>

#include <cmath>
#include <set>

#include "history/bisect.hpp"

namespace cgbench::history {

namespace {

// A line of `n` commits that moved from `first`; `broken` cannot be measured.
BisectOutcome bisect_line(std::size_t n, std::size_t first, std::set<std::size_t> broken,
                          std::set<std::size_t>* asked = nullptr) {
    return bisect(n, [&](std::size_t i) {
        EXPECT_GT(i, 0u) << "GOOD is never asked";
        EXPECT_LT(i, n - 1) << "BAD is never asked";
        if (asked != nullptr) {
            EXPECT_TRUE(asked->insert(i).second) << "asked twice: " << i;
        }
        if (broken.count(i) != 0) return Verdict::Skip;
        return i >= first ? Verdict::Moved : Verdict::Unmoved;
    });
}

}  // namespace

TEST(HistoryBisect, FindsEveryPositionInLogTime) {
    for (std::size_t n : {2u, 3u, 17u, 100u, 1000u}) {
        for (std::size_t first = 1; first < n; first += std::max<std::size_t>(1, n / 37)) {
            std::set<std::size_t> asked;
            const auto out = bisect_line(n, first, {}, &asked);
            EXPECT_EQ(out.first_moved, first) << n;
            EXPECT_EQ(out.last_unmoved, first - 1) << n;
            EXPECT_TRUE(out.skipped.empty());
            EXPECT_LE(out.tested, static_cast<std::size_t>(std::ceil(std::log2(n))) + 1) << n;
            EXPECT_EQ(out.tested, asked.size());
        }
    }
}

TEST(HistoryBisect, SkipsWhatCannotBeMeasured) {
    // The change is at 40; 39 and 41 do not build: still exact when 40 can be measured.
    auto out = bisect_line(100, 40, {39, 41});
    EXPECT_EQ(out.first_moved, 40u);
    EXPECT_EQ(out.last_unmoved, 38u);
    EXPECT_EQ(out.skipped, std::vector<std::size_t>({39}));
    // 40 itself does not build: the answer is a range.
    out = bisect_line(100, 40, {40});
    EXPECT_EQ(out.last_unmoved, 39u);
    EXPECT_EQ(out.first_moved, 41u);
    EXPECT_EQ(out.skipped, std::vector<std::size_t>({40}));
    // Nothing between builds.
    out = bisect_line(10, 5, {1, 2, 3, 4, 5, 6, 7, 8});
    EXPECT_EQ(out.last_unmoved, 0u);
    EXPECT_EQ(out.first_moved, 9u);
    EXPECT_EQ(out.skipped.size(), 8u);
}

}  // namespace cgbench::history
