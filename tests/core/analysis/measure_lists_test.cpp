// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// measureLists (the breakdown's per-window sweep) against CoverageTimeline's segment table, on
// random disjoint lists and windows: the same time per mask, to the nanosecond.

#include <gtest/gtest.h>

#include <random>

#include "core/analysis/interval_union.h"

namespace tpscope::core::analysis {
namespace {

std::vector<Interval> randomUnion(std::mt19937_64& rng, int count) {
    std::uniform_int_distribution<std::int64_t> gap(0, 40);
    std::uniform_int_distribution<std::int64_t> len(1, 60);
    std::vector<Interval> out;
    std::int64_t t = gap(rng);
    for (int i = 0; i < count; ++i) {
        const std::int64_t start = t + gap(rng) + 1;  // +1: disjoint, never touching
        const std::int64_t end = start + len(rng);
        out.push_back({start, end});
        t = end;
    }
    return out;
}

TEST(MeasureLists, SameTimesAsTheSegmentTableForAnyWindow) {
    std::mt19937_64 rng(42);
    for (int round = 0; round < 20; ++round) {
        const auto a = randomUnion(rng, 50);
        const auto b = randomUnion(rng, 30);
        const auto c = randomUnion(rng, 10);
        const std::array<std::span<const Interval>, 3> lists{a, b, c};
        const CoverageTimeline table(lists);
        CoverageSweep reused(lists);
        const std::int64_t span = std::max({a.back().endNs, b.back().endNs, c.back().endNs}) + 50;
        std::uniform_int_distribution<std::int64_t> at(-20, span);
        for (int w = 0; w < 50; ++w) {
            std::int64_t x = at(rng);
            std::int64_t y = at(rng);
            if (x > y) std::swap(x, y);
            const Interval window{x, y};
            const auto swept = measureLists(lists, window);
            EXPECT_EQ(swept, table.measure(window)) << "window [" << x << ", " << y << ")";
            // A sweep reused across windows in any order (forward gallops, backward searches).
            EXPECT_EQ(reused.measure(window), swept) << "window [" << x << ", " << y << ")";
            std::int64_t sum = 0;
            for (const auto v : swept) sum += v;
            EXPECT_EQ(sum, window.length());
        }
    }
}

TEST(MeasureLists, WindowsInStartOrderGallopOverLongGaps) {
    std::vector<Interval> a;
    for (std::int64_t i = 0; i < 1000; ++i) a.push_back({i * 10, i * 10 + 4});
    const std::array<std::span<const Interval>, 1> lists{a};
    CoverageSweep sweep(lists);
    // Windows [0, 20), [3000, 3020), [9000, 9020), [9990, 10000): each covers two intervals' 4 ns,
    // but the last only [9990, 9994).
    for (const std::int64_t start : {0, 3000, 9000}) {
        const auto t = sweep.measure({start, start + 20});
        EXPECT_EQ(t[1], 8) << start;
        EXPECT_EQ(t[0], 12) << start;
    }
    EXPECT_EQ(sweep.measure({9990, 10000})[1], 4);
    EXPECT_EQ(sweep.measure({5, 15})[1], 4);  // back to an earlier start: [10, 14)
}

TEST(MeasureLists, EmptyWindowAndEmptyLists) {
    const std::vector<Interval> a{{0, 10}};
    const std::vector<Interval> none;
    const std::array<std::span<const Interval>, 2> lists{a, none};
    EXPECT_EQ(measureLists(lists, {5, 5}), CoverageTimeline::MaskTimes{});
    const auto t = measureLists(lists, {-5, 20});
    EXPECT_EQ(t[0], 5 + 10);  // before and after the only interval
    EXPECT_EQ(t[1], 10);
}

}  // namespace
}  // namespace tpscope::core::analysis
