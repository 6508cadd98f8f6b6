// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include <gtest/gtest.h>

#include <limits>
#include <random>
#include <stdexcept>
#include <utility>

#include "core/analysis/layer_breakdown.h"
#include "core/analysis/layer_rows.h"
#include "trace_builder_fixtures.h"

namespace tpscope::core::analysis {
namespace {

// A breakdown that adds up (exposed = wait + transfer, comm = exposed + overlapped,
// idle = wall - compute - exposed), as the coverage sweep measures it.
TimeBreakdown consistent(std::int64_t wall, std::int64_t compute, std::int64_t overlapped, std::int64_t wait,
                         std::int64_t transfer) {
    TimeBreakdown t;
    t.wallNs = wall;
    t.computeNs = compute;
    t.overlappedCommNs = overlapped;
    t.exposedWaitNs = wait;
    t.exposedTransferNs = transfer;
    t.exposedCommNs = wait + transfer;
    t.commNs = t.exposedCommNs + overlapped;
    t.idleNs = wall - compute - t.exposedCommNs;
    return t;
}

// What the 32-bit form can hold, from its definition: the five stored times in [0, 2^32 - 1) and
// the three others their sums.
bool narrowByDefinition(const TimeBreakdown& t) {
    const std::int64_t limit = 0xFFFFFFFFLL;
    for (const std::int64_t v : {t.wallNs, t.computeNs, t.overlappedCommNs, t.exposedWaitNs, t.exposedTransferNs}) {
        if (v < 0 || v >= limit) return false;
    }
    return t.exposedCommNs == t.exposedWaitNs + t.exposedTransferNs &&
           t.commNs == t.exposedCommNs + t.overlappedCommNs && t.idleNs == t.wallNs - t.computeNs - t.exposedCommNs;
}

void expectSameRow(const LayerRankRow& got, const LayerRankRow& want) {
    EXPECT_EQ(got.step, want.step);
    EXPECT_EQ(got.layer, want.layer);
    EXPECT_EQ(got.rankIndex, want.rankIndex);
    EXPECT_EQ(got.startNs, want.startNs);
    EXPECT_EQ(got.time, want.time);
}

TEST(LayerRows, EveryRowReadsBackExactlyNarrowOrWide) {
    std::mt19937_64 rng(31);
    std::uniform_int_distribution<std::int64_t> small(0, 2'000'000);
    std::uniform_int_distribution<int> pick(0, 9);
    const std::uint32_t ranks = 3;
    std::vector<LayerRows::Instance> instances;
    std::vector<LayerRankRow> want;
    for (std::int64_t step = 0; step < 4; ++step) {
        for (int layer = 0; layer < 5; ++layer) {
            instances.push_back({step * 7 + 100, layer, static_cast<std::uint32_t>(want.size())});
            for (std::uint32_t r = 0; r < ranks; ++r) {
                TimeBreakdown t = consistent(small(rng) * 4, small(rng), small(rng), small(rng), small(rng));
                switch (pick(rng)) {
                    case 0:  // a layer of 4.29 s or more
                        t = consistent(0xFFFFFFFFLL + small(rng), small(rng), small(rng), small(rng), small(rng));
                        break;
                    case 1:  // exactly the largest narrow wall, and the value reserved for wide rows
                        t = consistent(r == 0 ? 0xFFFFFFFELL : 0xFFFFFFFFLL, 5, 6, 7, 8);
                        break;
                    case 2:  // negative (a clock step backwards inside a window)
                        t.idleNs = -small(rng) - 1;
                        t.wallNs = t.computeNs + t.exposedCommNs + t.idleNs;
                        break;
                    case 3:  // times that do not add up
                        t.commNs += 1;
                        break;
                    default:
                        break;
                }
                want.push_back({step * 7 + 100, layer, r, -5'000'000'000LL + small(rng) * 1000, t});
            }
        }
    }
    LayerRows rows;
    rows.reset(instances, want.size());
    std::vector<LayerRows::WideRow> wide;
    // Stored out of order, as the ranks' tasks do.
    for (std::size_t k = 0; k < want.size(); ++k) {
        const std::size_t i = (k * 7) % want.size();
        const bool narrow = rows.store(i, want[i]);
        EXPECT_EQ(narrow, narrowByDefinition(want[i].time)) << "row " << i;
        if (!narrow) wide.emplace_back(static_cast<std::uint32_t>(i), want[i].time);
    }
    const std::size_t wideCount = wide.size();
    ASSERT_GT(wideCount, 0u);
    ASSERT_LT(wideCount, want.size());
    rows.keepWide(std::move(wide));
    ASSERT_EQ(rows.size(), want.size());
    EXPECT_EQ(rows.wideRowCount(), wideCount);
    EXPECT_EQ(rows.instanceCount(), instances.size());
    for (std::size_t i = 0; i < want.size(); ++i) expectSameRow(rows[i], want[i]);
    std::size_t i = 0;
    for (const LayerRankRow row : rows) expectSameRow(row, want[i++]);
    EXPECT_EQ(i, want.size());
    for (const auto& inst : instances) {
        auto it = rows.from(inst.firstRow);
        for (std::uint32_t r = 0; r < ranks; ++r, ++it) expectSameRow(*it, want[inst.firstRow + r]);
    }
    EXPECT_TRUE(rows.from(want.size()) == rows.end());
    // Summed where they lie: the sums of the rows as stored, wide ones and one rank's alone included.
    for (const auto& [first, last] : {std::pair<std::size_t, std::size_t>{0, want.size()}, {3, 4}, {5, 17}, {9, 9}}) {
        for (const std::int64_t rank : {-1, 0, 2}) {
            TimeBreakdown sum;
            std::size_t n = 0;
            for (std::size_t k = first; k < last; ++k) {
                if (rank >= 0 && want[k].rankIndex != rank) continue;
                sum += want[k].time;
                ++n;
            }
            const LayerRows::TimesSum got = rows.sumTimes(first, last, rank);
            EXPECT_EQ(got.time, sum) << "rows [" << first << ", " << last << "), rank " << rank;
            EXPECT_EQ(got.rows, n) << "rows [" << first << ", " << last << "), rank " << rank;
        }
    }
}

TEST(LayerRows, HoldThirtyTwoBytesARowAndSixteenAnInstance) {
    LayerRows rows;
    const std::size_t n = 1000;
    std::vector<LayerRows::Instance> instances;
    for (std::uint32_t k = 0; k < n / 4; ++k) instances.push_back({0, static_cast<int>(k), k * 4});
    rows.reset(instances, n);
    for (std::size_t i = 0; i < n; ++i) {
        ASSERT_TRUE(rows.store(
            i, {0, static_cast<int>(i / 4), static_cast<std::uint32_t>(i % 4), 10, consistent(100, 50, 10, 20, 5)}));
    }
    rows.keepWide({});
    // 88 bytes a row as LayerRankRow values: the budget of issue 31 is 32 and 16 an instance.
    EXPECT_EQ(sizeof(LayerRankRow), 88u);
    EXPECT_EQ(rows.residentBytes(), n * 32 + (n / 4) * 16);
}

TEST(LayerRows, RejectInstancesThatDoNotPartitionTheRowsAndRowsOutsideTheirInstance) {
    LayerRows rows;
    EXPECT_THROW(rows.reset({{0, 0, 1}}, 3), std::invalid_argument);             // first row not 0
    EXPECT_THROW(rows.reset({{0, 0, 0}, {0, 1, 0}}, 3), std::invalid_argument);  // not increasing
    EXPECT_THROW(rows.reset({{0, 0, 0}, {0, 1, 3}}, 3), std::invalid_argument);  // an empty instance at the end
    EXPECT_THROW(rows.reset({}, 2), std::invalid_argument);                      // rows without instances
    rows.reset({{4, 1, 0}, {4, 2, 2}}, 3);
    EXPECT_THROW(rows.store(2, {4, 1, 0, 0, {}}), std::invalid_argument);  // row 2 is in (4, 2)
    EXPECT_TRUE(rows.store(2, {4, 2, 0, 0, {}}));
}

// A layer of 5 s (over the 32-bit 4.29 s) through the whole breakdown: its row is wide, and its times
// are the ones the windows define.
TEST(LayerRows, LayersLongerThanFourSecondsKeepTheirExactTimesInTheBreakdown) {
    const std::int64_t s = 1'000'000'000;
    test::TraceBuilder b;
    for (int r = 0; r < 2; ++r) {
        b.layer(r, 0, 0, 5 * s).gemm(r, 0, 4 * s).allReduce(r, 4 * s, 4 * s + s / 2, 0, test::kNcclStream);
        b.layer(r, 1, 5 * s, 6 * s).gemm(r, 5 * s, 5 * s + s / 2);
    }
    const auto trace = b.build();
    const auto seg = segmentLayers(*trace);
    const auto bd = computeBreakdown(*trace, seg, matchCollectives(*trace, seg));
    ASSERT_EQ(bd.rows.size(), 4u);
    EXPECT_EQ(bd.rows.wideRowCount(), 2u);  // layer 0 of each rank
    for (std::size_t i = 0; i < 2; ++i) {
        const LayerRankRow row = bd.rows[i];
        EXPECT_EQ(row.layer, 0);
        EXPECT_EQ(row.rankIndex, i);
        EXPECT_EQ(row.time, consistent(5 * s, 4 * s, 0, 0, s / 2));  // both ranks arrive together
    }
    for (std::size_t i = 2; i < 4; ++i) {
        const LayerRankRow row = bd.rows[i];
        EXPECT_EQ(row.layer, 1);
        EXPECT_EQ(row.startNs, 5 * s);
        EXPECT_EQ(row.time, consistent(s, s / 2, 0, 0, 0));
    }
    ASSERT_EQ(bd.layers.size(), 2u);
    EXPECT_EQ(bd.layers[0].maxWallNs, 5 * s);
    EXPECT_EQ(bd.layers[0].ranks, 2u);
    EXPECT_EQ(bd.layers[1].firstRow, 2u);
}

}  // namespace
}  // namespace tpscope::core::analysis
