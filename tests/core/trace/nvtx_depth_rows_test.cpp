// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/trace/nvtx_depth_rows.h"

#include <gtest/gtest.h>

#include <random>

#include "core/trace/level_of_detail.h"

namespace tpscope::core {
namespace {

// What the timeline held before its rows read the trace's ranges: one EventColumns per depth, each
// range appended as an event of kind Other lasting max(0, end - start), then finalized.
std::vector<EventColumns> columnsPerDepth(const Rank& rank, int maxDepth) {
    std::vector<EventColumns> rows;
    for (const auto& r : rank.ranges) {
        if (r.depth > maxDepth) continue;
        if (rows.size() <= r.depth) rows.resize(r.depth + 1u);
        rows[r.depth].append(
            {r.startNs, std::max<std::int64_t>(0, r.endNs - r.startNs), r.name, EventKind::Other, 0, kNoPayload});
    }
    for (auto& row : rows) row.finalize();
    return rows;
}

void expectSameSpans(const std::vector<LodSpan>& got, const std::vector<LodSpan>& want) {
    ASSERT_EQ(got.size(), want.size());
    for (std::size_t i = 0; i < got.size(); ++i) {
        EXPECT_EQ(got[i].startNs, want[i].startNs) << i;
        EXPECT_EQ(got[i].endNs, want[i].endNs) << i;
        EXPECT_EQ(got[i].firstIndex, want[i].firstIndex) << i;
        EXPECT_EQ(got[i].count, want[i].count) << i;
        EXPECT_EQ(got[i].representative, want[i].representative) << i;
        EXPECT_EQ(got[i].kind, want[i].kind) << i;
    }
}

// Ranges with every case the columns treat specially: ends before starts, durations and gaps of
// 2^32 ns or more (the columns' escapes), ranges of one depth that overlap, one range that lasts
// through most of the others (found by the block maxima for windows that start after it), ties of
// start within a depth, depths beyond the rows. shuffled: not in start order (a trace not finalized).
Rank randomRank(std::size_t n, unsigned seed, bool shuffled) {
    std::mt19937_64 rng(seed);
    std::uniform_int_distribution<int> depth(0, 3), pick(0, 99);
    std::uniform_int_distribution<std::int64_t> small(0, 5'000);
    std::vector<NvtxRange> ranges;
    std::int64_t t = -20'000;
    for (std::size_t i = 0; i < n; ++i) {
        const int p = pick(rng);
        if (p < 2) t += std::int64_t{1} << 33;  // a gap past the 32-bit offsets
        if (p >= 2 && p < 80) t += small(rng);  // else: a tie with the previous start
        std::int64_t end = t + small(rng) + 1;
        if (p >= 80 && p < 85) end = t - small(rng);               // ends before it starts
        if (p >= 85 && p < 88) end = t + (std::int64_t{1} << 33);  // longer than 32 bits
        if (p >= 88 && p < 90) end = t + 300 * small(rng);         // overlaps the next ones
        ranges.push_back({t, end, NameId{static_cast<std::uint32_t>(i % 7)}, static_cast<std::uint8_t>(depth(rng))});
    }
    ranges.push_back({ranges.front().startNs, ranges.back().startNs, NameId{9}, 1});  // the long one
    std::stable_sort(ranges.begin(), ranges.end(),
                     [](const NvtxRange& a, const NvtxRange& b) { return a.startNs < b.startNs; });
    if (shuffled) std::shuffle(ranges.begin(), ranges.end(), rng);
    Rank rank;
    for (const NvtxRange& r : ranges) rank.ranges.push_back(r);  // not finalized: in this order
    return rank;
}

TEST(NvtxDepthRows, SplitIntoOneRowPerDepth) {
    Rank rank;
    rank.ranges = {{0, 1000, NameId{1}, 0},  {0, 400, NameId{2}, 1},    {0, 200, NameId{3}, 2},
                   {200, 400, NameId{4}, 2}, {400, 1000, NameId{2}, 1}, {0, 10, NameId{5}, 3}};
    const auto index = nvtxDepthIndex(rank, 2);
    ASSERT_EQ(index.size(), 3u);
    const NvtxDepthRow steps(rank.ranges, index[0]), layers(rank.ranges, index[1]), blocks(rank.ranges, index[2]);
    EXPECT_EQ(steps.size(), 1u);
    EXPECT_EQ(layers.size(), 2u);
    EXPECT_EQ(blocks.size(), 2u);
    EXPECT_EQ(blocks.position(1), 4u);  // after the depth-3 range, sorted before it (same start, deeper)
    EXPECT_EQ(blocks.startNs(1), 200);
    EXPECT_EQ(blocks.durNs(1), 200);
    EXPECT_EQ(blocks.name(1), NameId{4});
    EXPECT_EQ(layers.position(1), 5u);
    const auto spans = visibleSpans(layers, 0, 1000, 100);
    ASSERT_EQ(spans.size(), 2u);
    EXPECT_EQ(spans[1].startNs, 400);
    EXPECT_EQ(spans[1].firstIndex, 1u);
}

TEST(NvtxDepthRows, OutOfOrderRangesAreOrderedByStartKeepingTies) {
    Rank rank;  // pushed, not finalized: in the order given
    for (const NvtxRange& r : {NvtxRange{50, 60, NameId{1}, 0}, NvtxRange{10, 20, NameId{2}, 0},
                               NvtxRange{50, 70, NameId{3}, 0}, NvtxRange{10, 30, NameId{4}, 0}}) {
        rank.ranges.push_back(r);
    }
    const auto index = nvtxDepthIndex(rank, 2);
    ASSERT_EQ(index.size(), 1u);
    const NvtxDepthRow row(rank.ranges, index[0]);
    ASSERT_EQ(row.size(), 4u);
    EXPECT_EQ(row.position(0), 1u);
    EXPECT_EQ(row.position(1), 3u);
    EXPECT_EQ(row.position(2), 0u);
    EXPECT_EQ(row.position(3), 2u);
}

TEST(NvtxDepthRows, AnIndexOfOtherRangesDrawsNothing) {
    Rank rank;
    rank.ranges = {{0, 10, NameId{1}, 0}, {10, 20, NameId{1}, 0}};
    const auto index = nvtxDepthIndex(rank, 2);
    rank.ranges.push_back({20, 30, NameId{1}, 0});
    const NvtxDepthRow row(rank.ranges, index[0]);
    EXPECT_TRUE(row.empty());
    EXPECT_TRUE(visibleSpans(row, 0, 30, 10).empty());
    EXPECT_TRUE(row.visibleRange(0, 30).empty());
}

// The rows must draw exactly what the columns drew: every accessor, every visible range and every
// level-of-detail item, over random windows and widths.
TEST(NvtxDepthRows, ReadAsColumnsOfTheSameRangesWould) {
    for (const bool shuffled : {false, true}) {
        for (const unsigned seed : {1u, 2u, 3u}) {
            const Rank rank = randomRank(3000, seed, shuffled);
            const auto want = columnsPerDepth(rank, 2);
            const auto index = nvtxDepthIndex(rank, 2);
            ASSERT_EQ(index.size(), want.size());
            std::int64_t lo = INT64_MAX, hi = INT64_MIN;
            for (std::size_t d = 0; d < want.size(); ++d) {
                const NvtxDepthRow row(rank.ranges, index[d]);
                ASSERT_EQ(row.size(), want[d].size());
                for (std::size_t i = 0; i < row.size(); ++i) {
                    ASSERT_EQ(row.startNs(i), want[d].startNs(i)) << d << " " << i;
                    ASSERT_EQ(row.durNs(i), want[d].durNs(i)) << d << " " << i;
                    ASSERT_EQ(row.endNs(i), want[d].endNs(i)) << d << " " << i;
                    ASSERT_EQ(row.name(i), want[d].name(i)) << d << " " << i;
                    ASSERT_EQ(row.kind(i), want[d].kind(i)) << d << " " << i;
                    lo = std::min(lo, row.startNs(i));
                    hi = std::max(hi, row.endNs(i));
                }
            }
            std::mt19937_64 rng(seed);
            std::uniform_int_distribution<std::int64_t> at(lo - 1000, hi + 1000);
            std::uniform_int_distribution<int> width(1, 2000);
            for (int trial = 0; trial < 300; ++trial) {
                std::int64_t t0 = at(rng), t1 = at(rng);
                if (t1 < t0) std::swap(t0, t1);
                if (trial % 3 == 0) t1 = t0 + 1 + (t1 - t0) / 5000;  // deep zoom: a few ranges, most begun before
                const int w = width(rng);
                for (std::size_t d = 0; d < want.size(); ++d) {
                    const NvtxDepthRow row(rank.ranges, index[d]);
                    const IndexRange got = row.visibleRange(t0, t1), expected = want[d].visibleRange(t0, t1);
                    ASSERT_EQ(got.first, expected.first) << d << " [" << t0 << ", " << t1 << ")";
                    ASSERT_EQ(got.last, expected.last) << d << " [" << t0 << ", " << t1 << ")";
                    expectSameSpans(visibleSpans(row, t0, t1, w), visibleSpans(want[d], t0, t1, w));
                }
            }
        }
    }
}

}  // namespace
}  // namespace tpscope::core
