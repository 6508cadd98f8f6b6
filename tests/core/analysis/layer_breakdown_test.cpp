// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <tuple>
#include <vector>

#include "core/analysis/analysis.h"
#include "core/analysis/layer_breakdown.h"
#include "trace_builder_fixtures.h"

namespace tpscope::core::analysis {
namespace {

using test::TraceBuilder;

LayerBreakdown breakdownOf(const Trace& trace) {
    const auto seg = segmentLayers(trace);
    const auto m = matchCollectives(trace, seg);
    return computeBreakdown(trace, seg, m);
}

void expectPartition(const TimeBreakdown& t) {
    EXPECT_EQ(t.computeOnlyNs() + t.overlappedCommNs + t.exposedCommNs + t.idleNs, t.wallNs);
    EXPECT_EQ(t.computeNs + t.exposedCommNs + t.idleNs, t.wallNs);
    EXPECT_EQ(t.exposedWaitNs + t.exposedTransferNs, t.exposedCommNs);
    EXPECT_EQ(t.overlappedCommNs + t.exposedCommNs, t.commNs);
    EXPECT_GE(t.idleNs, 0);
    EXPECT_GE(t.exposedWaitNs, 0);
    EXPECT_GE(t.overlappedCommNs, 0);
}

TEST(LayerBreakdown, ExposedCommExcludesOverlappedGemm) {
    // GEMM [0,1000) on the compute stream, all-reduce [600,1200) on the NCCL stream, layer [0,1300).
    TraceBuilder b;
    for (int r = 0; r < 2; ++r) {
        b.layer(r, 0, 0, 1300).gemm(r, 0, 1000).allReduce(r, 600, 1200, 0, test::kNcclStream);
    }
    const auto bd = breakdownOf(*b.build());
    ASSERT_EQ(bd.rows.size(), 2u);
    const auto& t = bd.rows[0].time;
    EXPECT_EQ(t.wallNs, 1300);
    EXPECT_EQ(t.computeNs, 1000);
    EXPECT_EQ(t.commNs, 600);
    EXPECT_EQ(t.exposedCommNs, 200);
    EXPECT_LT(t.exposedCommNs, t.commNs);
    EXPECT_EQ(t.overlappedCommNs, 400);
    EXPECT_EQ(t.idleNs, 100);
    EXPECT_EQ(t.exposedTransferNs, 200);  // both ranks arrive together: no wait
    expectPartition(t);
}

TEST(LayerBreakdown, LateRankShowsAsWaitOnOthersAndComputeOnItself) {
    const test::DecodeFixture f{.ranks = 4,
                                .steps = 2,
                                .layers = 3,
                                .computeNs = 1000,
                                .arNs = 200,
                                .gapNs = 50,
                                .lateRank = 1,
                                .lateByNs = 300};
    const auto bd = breakdownOf(*test::makeDecodeTrace(f));
    ASSERT_EQ(bd.rows.size(), static_cast<std::size_t>(f.ranks * f.steps * f.layers));
    const std::int64_t wall = 2 * (f.gapNs + f.computeNs + f.lateByNs + f.arNs);
    for (const auto& row : bd.rows) {
        const auto& t = row.time;
        EXPECT_EQ(t.wallNs, wall);
        EXPECT_EQ(t.idleNs, 2 * f.gapNs);
        EXPECT_EQ(t.exposedTransferNs, 2 * f.arNs);
        if (row.rankIndex == 1) {
            EXPECT_EQ(t.computeNs, 2 * (f.computeNs + f.lateByNs));
            EXPECT_EQ(t.exposedWaitNs, 0);
        } else {
            EXPECT_EQ(t.computeNs, 2 * f.computeNs);
            EXPECT_EQ(t.exposedWaitNs, 2 * f.lateByNs);
        }
        expectPartition(t);
    }
    ASSERT_EQ(bd.layers.size(), static_cast<std::size_t>(f.steps * f.layers));
    for (const auto& l : bd.layers) {
        EXPECT_EQ(l.ranks, 4u);
        EXPECT_EQ(l.imbalanceNs(), 2 * f.lateByNs);
        EXPECT_EQ(l.slowestRankIndex, 1u);
        EXPECT_DOUBLE_EQ(l.meanComputeNs, (3.0 * 2 * f.computeNs + 2 * (f.computeNs + f.lateByNs)) / 4.0);
    }
    ASSERT_EQ(bd.steps.size(), static_cast<std::size_t>(f.ranks * f.steps));
    EXPECT_EQ(bd.steps[0].time.wallNs, f.layers * wall);
    EXPECT_EQ(bd.rankTotals[0].exposedWaitNs, f.steps * f.layers * 2 * f.lateByNs);
}

TEST(LayerBreakdown, EmptyLayerIsAllIdleAndReported) {
    TraceBuilder b;
    b.layer(0, 0, 0, 100).layer(0, 1, 100, 250).gemm(0, 0, 80);
    const auto trace = b.build();
    const auto bd = breakdownOf(*trace);
    ASSERT_EQ(bd.rows.size(), 2u);
    EXPECT_EQ(bd.rows[1].time.wallNs, 150);
    EXPECT_EQ(bd.rows[1].time.idleNs, 150);
    EXPECT_EQ(bd.rows[1].time.computeNs, 0);
    expectPartition(bd.rows[1].time);
    const auto a = analyzeTrace(*trace);
    bool reported = false;
    for (const auto& n : a.notes) reported = reported || n.find("1 layer window(s)") != std::string::npos;
    EXPECT_TRUE(reported);
}

TEST(LayerBreakdown, KernelsCrossingLayerBoundariesAreSplitByTime) {
    TraceBuilder b;
    b.layer(0, 0, 0, 100).layer(0, 1, 100, 200).gemm(0, 50, 150);
    const auto bd = breakdownOf(*b.build());
    EXPECT_EQ(bd.rows[0].time.computeNs, 50);
    EXPECT_EQ(bd.rows[1].time.computeNs, 50);
}

TEST(LayerBreakdown, MissingNvtxStillGivesLayersFromThePattern) {
    const test::DecodeFixture f{.ranks = 2, .steps = 1, .layers = 4, .computeNs = 1000, .arNs = 100, .nvtx = false};
    const auto bd = breakdownOf(*test::makeDecodeTrace(f));
    ASSERT_EQ(bd.rows.size(), 8u);
    for (const auto& row : bd.rows) {
        EXPECT_EQ(row.time.wallNs, 2 * (f.computeNs + f.arNs));
        EXPECT_EQ(row.time.computeNs, 2 * f.computeNs);
        EXPECT_EQ(row.time.exposedTransferNs, 2 * f.arNs);
        expectPartition(row.time);
    }
}

TEST(LayerBreakdown, SingleRankCountsAllCommAsTransfer) {
    TraceBuilder b;
    b.layer(0, 0, 0, 300).gemm(0, 0, 200).allReduce(0, 200, 300);
    const auto bd = breakdownOf(*b.build());
    ASSERT_EQ(bd.rows.size(), 1u);
    EXPECT_EQ(bd.rows[0].time.exposedTransferNs, 100);
    EXPECT_EQ(bd.rows[0].time.exposedWaitNs, 0);
    EXPECT_EQ(bd.layers[0].imbalanceNs(), 0);
}

// Brute force over every nanosecond of a small random trace with overlapping kernels on two streams:
// the sweep must agree with counting time units one by one.
// Rows are in (step, layer, rank) order, each with its own rank's times: when every rank holds the
// same layer windows (rows placed as i * ranks + r, no merge) and when one rank lacks a layer (the
// general merge of the ranks' windows).
TEST(LayerBreakdown, RowsComeInStepLayerRankOrderWhetherOrNotRanksShareTheirWindows) {
    constexpr int kRanks = 3;
    constexpr int kSteps = 2;
    constexpr int kLayers = 3;
    constexpr std::int64_t kLayerNs = 1000;
    auto computeOf = [](int step, int layer, int rank) { return 100 + 10 * rank + 3 * layer + step; };
    for (const bool rankTwoLacksALayer : {false, true}) {
        TraceBuilder b;
        for (int r = 0; r < kRanks; ++r) {
            for (int s = 0; s < kSteps; ++s) {
                const std::int64_t stepStart = s * kLayers * kLayerNs;
                b.step(r, s, stepStart, stepStart + kLayers * kLayerNs);
                for (int l = 0; l < kLayers; ++l) {
                    if (rankTwoLacksALayer && r == 2 && s == 1 && l == 1) continue;
                    const std::int64_t start = stepStart + l * kLayerNs;
                    b.layer(r, l, start, start + kLayerNs).gemm(r, start, start + computeOf(s, l, r));
                }
            }
        }
        const auto bd = breakdownOf(*b.build());
        ASSERT_EQ(bd.rows.size(), std::size_t{kRanks * kSteps * kLayers} - (rankTwoLacksALayer ? 1 : 0));
        std::vector<std::tuple<std::int64_t, int, std::uint32_t>> keys;
        for (const auto& row : bd.rows) {
            keys.emplace_back(row.step, row.layer, row.rankIndex);
            const int rank = static_cast<int>(row.rankIndex);
            EXPECT_EQ(row.time.computeNs, computeOf(static_cast<int>(row.step), row.layer, rank))
                << "step " << row.step << " layer " << row.layer << " rank " << rank << " lacking "
                << rankTwoLacksALayer;
        }
        EXPECT_TRUE(std::is_sorted(keys.begin(), keys.end()));
        EXPECT_EQ(std::adjacent_find(keys.begin(), keys.end()), keys.end());
    }
}

TEST(LayerBreakdown, SweepAgreesWithBruteForceOnRandomOverlappingKernels) {
    std::mt19937 rng(12345);
    std::uniform_int_distribution<int> startDist(0, 1900);
    std::uniform_int_distribution<int> lenDist(1, 120);
    TraceBuilder b;
    struct K {
        int rank;
        int start;
        int end;
        bool comm;
    };
    std::vector<K> kernels;
    for (int r = 0; r < 2; ++r) {
        for (int i = 0; i < 60; ++i) {
            const int s = startDist(rng);
            const int e = std::min(2000, s + lenDist(rng));
            const bool comm = i % 3 == 0;
            kernels.push_back({r, s, e, comm});
            if (comm) {
                b.allReduce(r, s, e, 0, i % 2 ? test::kNcclStream : test::kComputeStream);
            } else {
                b.gemm(r, s, e, i % 2 ? test::kNcclStream : test::kComputeStream);
            }
        }
        b.layer(r, 0, 0, 700).layer(r, 1, 700, 1500).layer(r, 2, 1500, 2100);
    }
    const auto trace = b.build();
    const auto seg = segmentLayers(*trace);
    const auto m = matchCollectives(*trace, seg, MatchingOptions{.toleranceNs = -1});
    const auto bd = computeBreakdown(*trace, seg, m);
    // Waiting part of each collective kernel, from the matching.
    std::vector<std::vector<int>> waitUntil(2, std::vector<int>(2100, 0));
    for (std::size_t i = 0; i < m.participants.size(); ++i) {
        const auto& p = m.participants[i];
        const std::int64_t s = participantStartNs(*trace, p);
        for (std::int64_t t = s; t < s + m.waitNs(i); ++t) waitUntil[p.rankIndex][t] += 1;
    }
    for (const auto& row : bd.rows) {
        const int w0 = row.layer == 0 ? 0 : row.layer == 1 ? 700 : 1500;
        const int w1 = row.layer == 0 ? 700 : row.layer == 1 ? 1500 : 2100;
        TimeBreakdown expect;
        expect.wallNs = w1 - w0;
        for (int t = w0; t < w1; ++t) {
            int compute = 0;
            int comm = 0;
            for (const auto& k : kernels) {
                if (k.rank != static_cast<int>(row.rankIndex) || t < k.start || t >= k.end) continue;
                (k.comm ? comm : compute) += 1;
            }
            // Wait-only where every running collective is still in its waiting part.
            const bool waiting = comm > 0 && waitUntil[row.rankIndex][t] >= comm;
            if (compute) ++expect.computeNs;
            if (comm) ++expect.commNs;
            if (comm && !compute) {
                ++expect.exposedCommNs;
                ++(waiting ? expect.exposedWaitNs : expect.exposedTransferNs);
            }
            if (!comm && !compute) ++expect.idleNs;
        }
        expect.overlappedCommNs = expect.commNs - expect.exposedCommNs;
        EXPECT_EQ(row.time, expect) << "layer " << row.layer << " rank " << row.rankIndex;
        expectPartition(row.time);
    }
}

}  // namespace
}  // namespace tpscope::core::analysis
