// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// measureLists and CoverageSweep (the breakdown's per-window sweep) against CoverageTimeline's
// segment table, on random disjoint lists and windows: the same time per mask, to the nanosecond.

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <span>
#include <vector>

#include "core/analysis/interval_union.h"

namespace tpscope::core::analysis {
namespace {

// `minGap` 1: disjoint, never touching; 0: some intervals touch the next one ([0, 5), [5, 9)), as
// lists built otherwise than by unionOfSorted may.
std::vector<Interval> randomUnion(std::mt19937_64& rng, int count, std::int64_t minGap = 1) {
    std::uniform_int_distribution<std::int64_t> gap(0, 40);
    std::uniform_int_distribution<std::int64_t> touch(0, 3);
    std::uniform_int_distribution<std::int64_t> len(1, 60);
    std::vector<Interval> out;
    std::int64_t t = gap(rng);
    for (int i = 0; i < count; ++i) {
        const std::int64_t start = t + (minGap == 0 && touch(rng) == 0 ? 0 : gap(rng) + minGap);
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

// Windows that follow each other as the breakdown's layers do, each cut into parts at random
// instants as a layer at its blocks, then windows in random order (forward and backward searches),
// over one to four lists of any lengths (the sweep sums the longest list inside the stretches the
// others leave, whichever list that is).
TEST(MeasureLists, PartsOfConsecutiveWindowsMatchTheSegmentTable) {
    std::mt19937_64 rng(7);
    std::uniform_int_distribution<int> listCount(1, CoverageTimeline::kMaxLayers);
    std::uniform_int_distribution<int> intervals(0, 60);
    std::uniform_int_distribution<int> partCount(1, 4);
    for (int round = 0; round < 200; ++round) {
        std::vector<std::vector<Interval>> owned(static_cast<std::size_t>(listCount(rng)));
        for (auto& list : owned) list = randomUnion(rng, intervals(rng), round % 2);
        const std::vector<std::span<const Interval>> lists(owned.begin(), owned.end());
        const CoverageTimeline table(lists);
        CoverageSweep sweep(lists);
        std::uniform_int_distribution<std::int64_t> length(0, 150);
        std::int64_t t = -30;
        for (int w = 0; w < 40; ++w) {
            const Interval window{t, t + length(rng)};
            std::uniform_int_distribution<std::int64_t> inside(window.startNs, window.endNs);
            std::vector<std::int64_t> cuts(static_cast<std::size_t>(partCount(rng) - 1));
            for (auto& c : cuts) c = inside(rng);
            std::sort(cuts.begin(), cuts.end());
            std::vector<CoverageTimeline::MaskTimes> parts(cuts.size() + 1);
            sweep.measureParts(window, cuts, parts);
            std::int64_t from = window.startNs;
            for (std::size_t p = 0; p < parts.size(); ++p) {
                const std::int64_t to = p < cuts.size() ? cuts[p] : window.endNs;
                EXPECT_EQ(parts[p], table.measure({from, to}))
                    << "round " << round << " part [" << from << ", " << to << ")";
                from = to;
            }
            t = window.endNs + (w % 3 == 0 ? length(rng) : 0);  // usually the next window starts here
        }
        std::uniform_int_distribution<std::int64_t> at(-50, t);
        for (int w = 0; w < 40; ++w) {
            std::int64_t x = at(rng);
            std::int64_t y = at(rng);
            if (x > y) std::swap(x, y);
            EXPECT_EQ(sweep.measure({x, y}), table.measure({x, y}))
                << "round " << round << " [" << x << ", " << y << ")";
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
