// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include <gtest/gtest.h>

#include <array>

#include "core/analysis/interval_union.h"

namespace tpscope::core::analysis {
namespace {

TEST(IntervalUnion, OverlappingAndTouchingIntervalsMerge) {
    const std::vector<Interval> in{{0, 10}, {5, 12}, {12, 20}, {30, 40}, {31, 35}};
    EXPECT_EQ(unionOfSorted(in), (std::vector<Interval>{{0, 20}, {30, 40}}));
}

TEST(IntervalUnion, EmptyIntervalsAreDropped) {
    const std::vector<Interval> in{{5, 5}, {6, 8}, {9, 9}};
    EXPECT_EQ(unionOfSorted(in), (std::vector<Interval>{{6, 8}}));
}

TEST(IntervalUnion, MergeOfTwoUnionsIsTheirUnion) {
    const std::vector<Interval> a{{0, 10}, {20, 30}};
    const std::vector<Interval> b{{5, 15}, {40, 50}};
    const auto m = mergeUnions(a, b);
    EXPECT_EQ(m, (std::vector<Interval>{{0, 15}, {20, 30}, {40, 50}}));
    EXPECT_EQ(totalLength(m), 15 + 10 + 10);
}

TEST(CoverageTimeline, MasksSayWhichListsCoverEachSegment) {
    const std::vector<Interval> a{{0, 10}};
    const std::vector<Interval> b{{5, 15}};
    const std::array<std::span<const Interval>, 2> lists{a, b};
    const CoverageTimeline c(lists);
    ASSERT_EQ(c.segments().size(), 3u);
    EXPECT_EQ(c.segments()[0].mask, 1u);
    EXPECT_EQ(c.segments()[1].mask, 3u);
    EXPECT_EQ(c.segments()[2].mask, 2u);
    EXPECT_EQ(c.segments()[1].startNs, 5);
    EXPECT_EQ(c.segments()[1].endNs, 10);
}

TEST(CoverageTimeline, WindowTimesSumToTheWindowLength) {
    const std::vector<Interval> a{{0, 10}, {20, 25}};
    const std::vector<Interval> b{{5, 22}};
    const std::array<std::span<const Interval>, 2> lists{a, b};
    const CoverageTimeline c(lists);
    const auto m = c.measure({-5, 30});
    // [-5,0) none, [0,5) a, [5,10) ab, [10,20) b, [20,22) ab, [22,25) a, [25,30) none
    EXPECT_EQ(m[0], 5 + 5);
    EXPECT_EQ(m[1], 5 + 3);
    EXPECT_EQ(m[3], 5 + 2);
    EXPECT_EQ(m[2], 10);
    std::int64_t sum = 0;
    for (const auto v : m) sum += v;
    EXPECT_EQ(sum, 35);
}

TEST(CoverageTimeline, WindowsClipSegments) {
    const std::vector<Interval> a{{0, 100}};
    const std::array<std::span<const Interval>, 1> lists{a};
    const CoverageTimeline c(lists);
    EXPECT_EQ(c.measure({40, 60})[1], 20);
    EXPECT_EQ(c.measure({90, 130})[1], 10);
    EXPECT_EQ(c.measure({90, 130})[0], 30);
    EXPECT_EQ(c.measure({200, 300})[0], 100);
    EXPECT_EQ(c.measure({50, 50})[0], 0);
}

}  // namespace
}  // namespace tpscope::core::analysis
