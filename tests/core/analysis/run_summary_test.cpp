// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>

#include "core/analysis/analysis.h"
#include "trace_builder_fixtures.h"

namespace tpscope::core::analysis {
namespace {

using test::TraceBuilder;

TEST(RunSummary, StepLatencyPercentilesAndThroughputComeFromStepWallTimes) {
    TraceBuilder b;
    b.meta("batch", "4");
    const std::int64_t lengths[] = {100'000, 200'000, 300'000, 400'000, 1'000'000};
    std::int64_t t = 0;
    for (int s = 0; s < 5; ++s) {
        b.step(0, s, t, t + lengths[s]).gemm(0, t, t + lengths[s] / 2);
        t += lengths[s];
    }
    const auto a = analyzeTrace(*b.build());
    const auto& s = a.summary;
    ASSERT_EQ(s.steps.size(), 5u);
    EXPECT_DOUBLE_EQ(s.latencyP50Ns, 300'000);
    EXPECT_DOUBLE_EQ(s.latencyP90Ns, 400'000 + 0.6 * 600'000);
    EXPECT_DOUBLE_EQ(s.latencyMaxNs, 1'000'000);
    EXPECT_DOUBLE_EQ(s.latencyMeanNs, 2'000'000 / 5.0);
    EXPECT_EQ(s.batch, 4);
    EXPECT_TRUE(s.batchKnown);
    EXPECT_DOUBLE_EQ(s.tokensPerSec, 4 / (400'000e-9));
    EXPECT_DOUBLE_EQ(s.loss.idle, 0.5);
}

TEST(RunSummary, StepLatencySpansTheEarliestAndLatestRank) {
    TraceBuilder b;
    b.step(0, 0, 1000, 5000).gemm(0, 1000, 5000);
    b.step(1, 0, 1500, 6000).gemm(1, 1500, 6000);
    const auto a = analyzeTrace(*b.build());
    ASSERT_EQ(a.summary.steps.size(), 1u);
    EXPECT_EQ(a.summary.steps[0].latencyNs, 5000);
    EXPECT_EQ(a.summary.steps[0].ranks, 2u);
}

TEST(RunSummary, LateRankIsTheSlowestAndItsLeadShowsAsImbalance) {
    const test::DecodeFixture f{.ranks = 4,
                                .steps = 2,
                                .layers = 3,
                                .computeNs = 1000,
                                .arNs = 200,
                                .gapNs = 50,
                                .lateRank = 3,
                                .lateByNs = 300};
    const auto a = analyzeTrace(*test::makeDecodeTrace(f));
    const auto& s = a.summary;
    const std::size_t calls = static_cast<std::size_t>(f.steps * f.layers * 2);
    EXPECT_EQ(s.slowestRankIndex, 3);
    EXPECT_EQ(s.slowestRankReason,
              "arrived last at " + std::to_string(calls) + " of " + std::to_string(calls) + " collective calls");
    // Per layer and rank, wall W = 2 (gap + compute + late + ar); see the fixture.
    const double w = 2.0 * (f.gapNs + f.computeNs + f.lateByNs + f.arNs);
    const double walls = 4 * w;
    EXPECT_NEAR(s.loss.compute, (3 * 2.0 * f.computeNs + 2.0 * (f.computeNs + f.lateByNs)) / walls, 1e-12);
    EXPECT_NEAR(s.loss.transfer, 4 * 2.0 * f.arNs / walls, 1e-12);
    EXPECT_NEAR(s.loss.imbalance, 3 * 2.0 * f.lateByNs / walls, 1e-12);
    EXPECT_NEAR(s.loss.syncWait, 0.0, 1e-12);  // all the waiting is explained by the late rank's compute
    EXPECT_NEAR(s.loss.idle, 4 * 2.0 * f.gapNs / walls, 1e-12);
    EXPECT_NEAR(s.loss.compute + s.loss.transfer + s.loss.syncWait + s.loss.imbalance + s.loss.idle, 1.0, 1e-12);
    EXPECT_NEAR(s.exposedCommShare, (4 * 2.0 * f.arNs + 3 * 2.0 * f.lateByNs) / walls, 1e-12);
    EXPECT_DOUBLE_EQ(s.latencyMeanNs, f.layers * w);
    EXPECT_DOUBLE_EQ(s.tokensPerSec, f.batch / (f.layers * w * 1e-9));
    EXPECT_EQ(s.rankSummaries[3].lastArrivals, calls);
    EXPECT_EQ(s.rankSummaries[0].collectiveWaitNs, static_cast<std::int64_t>(calls) * f.lateByNs);
}

TEST(RunSummary, WaitWithoutComputeSpreadIsSyncWait) {
    // Rank 1 starts its all-reduce late after an idle gap, not after more compute: sync wait, not imbalance.
    TraceBuilder b;
    for (int r = 0; r < 2; ++r) b.step(r, 0, 0, 1000).layer(r, 0, 0, 1000).gemm(r, 0, 500);
    b.allReduce(0, 500, 1000).allReduce(1, 800, 1000);
    const auto a = analyzeTrace(*b.build());
    EXPECT_NEAR(a.summary.loss.syncWait, 300.0 / 2000.0, 1e-12);
    EXPECT_NEAR(a.summary.loss.imbalance, 0.0, 1e-12);
    EXPECT_NEAR(a.summary.loss.idle, 300.0 / 2000.0, 1e-12);
}

TEST(RunSummary, KindSharesAreShareOfKernelTime) {
    TraceBuilder b;
    b.gemm(0, 0, 300).kernel(0, EventKind::Elementwise, 300, 400).allReduce(0, 400, 500);
    const auto a = analyzeTrace(*b.build());
    const auto& k = a.summary.kinds;
    EXPECT_EQ(k[static_cast<int>(EventKind::Gemm)].busyNs, 300);
    EXPECT_DOUBLE_EQ(k[static_cast<int>(EventKind::Gemm)].share, 0.6);
    EXPECT_DOUBLE_EQ(k[static_cast<int>(EventKind::Collective)].share, 0.2);
    EXPECT_EQ(k[static_cast<int>(EventKind::Elementwise)].kernels, 1u);
}

TEST(RunSummary, SlowestLayerHasTheHighestMeanWall) {
    TraceBuilder b;
    b.step(0, 0, 0, 600).layer(0, 0, 0, 100).layer(0, 1, 100, 400).layer(0, 2, 400, 600).gemm(0, 0, 600);
    const auto a = analyzeTrace(*b.build());
    EXPECT_EQ(a.summary.slowestLayer, 1);
    EXPECT_DOUBLE_EQ(a.summary.slowestLayerMeanWallNs, 300);
}

TEST(RunSummary, UnknownBatchAssumesOneAndSaysSo) {
    TraceBuilder b;
    b.step(0, 0, 0, 1000).gemm(0, 0, 1000);
    const auto a = analyzeTrace(*b.build());
    EXPECT_FALSE(a.summary.batchKnown);
    EXPECT_EQ(a.summary.batch, 1);
    bool said = false;
    for (const auto& n : a.notes) said = said || n.find("batch size unknown") != std::string::npos;
    EXPECT_TRUE(said);
    EXPECT_EQ(analyzeTrace(*b.build(), AnalysisOptions{.batch = 16}).summary.batch, 16);
}

TEST(RunSummary, EmptyTraceGivesAnEmptySummaryNotACrash) {
    TraceBuilder b;
    const auto a = analyzeTrace(*b.build());
    EXPECT_TRUE(a.summary.steps.empty());
    EXPECT_EQ(a.summary.tokensPerSec, 0);
    EXPECT_EQ(a.summary.slowestRankIndex, -1);
    EXPECT_FALSE(a.notes.empty());
}

TEST(LayerTable, MeansPartitionTheMeanWallAndCanPickOneRank) {
    const test::DecodeFixture f{.ranks = 2,
                                .steps = 3,
                                .layers = 2,
                                .computeNs = 1000,
                                .arNs = 100,
                                .gapNs = 10,
                                .lateRank = 0,
                                .lateByNs = 40};
    const auto a = analyzeTrace(*test::makeDecodeTrace(f));
    const auto all = layerTable(a.breakdown);
    ASSERT_EQ(all.size(), 2u);
    EXPECT_EQ(all[0].samples, 6u);
    for (const auto& l : all) {
        const double parts =
            l.mean(&TimeBreakdown::computeNs) + l.mean(&TimeBreakdown::exposedCommNs) + l.mean(&TimeBreakdown::idleNs);
        EXPECT_NEAR(parts, l.mean(&TimeBreakdown::wallNs), 1e-9);
        EXPECT_DOUBLE_EQ(l.meanImbalanceNs(), 2.0 * f.lateByNs);
    }
    const auto rank1 = layerTable(a.breakdown, 1);
    EXPECT_EQ(rank1[0].samples, 3u);
    EXPECT_DOUBLE_EQ(rank1[0].mean(&TimeBreakdown::exposedWaitNs), 2.0 * f.lateByNs);
    EXPECT_DOUBLE_EQ(layerTable(a.breakdown, 0)[0].mean(&TimeBreakdown::exposedWaitNs), 0.0);
}

TEST(RunSummary, SlowestRankLayerTableAveragesTheLongestRankOfEachInstance) {
    const auto trace =
        test::makeDecodeTrace({.ranks = 3, .steps = 2, .layers = 2, .gapNs = 5, .lateRank = 2, .lateByNs = 70});
    const auto a = analyzeTrace(*trace);
    const auto slowest = layerTableSlowestRank(a.breakdown);
    ASSERT_EQ(slowest.size(), 2u);
    for (const auto& l : slowest) {
        // Expected: by hand, over the instances of this layer index, the row with the largest wall.
        double wallSum = 0;
        double idleSum = 0;
        std::size_t instances = 0;
        for (const auto& inst : a.breakdown.layers) {
            if (inst.layer != l.layer) continue;
            ++instances;
            std::int64_t bestWall = -1;
            std::int64_t bestIdle = 0;
            for (std::uint32_t i = 0; i < inst.ranks; ++i) {
                const auto& row = a.breakdown.rows[inst.firstRow + i];
                if (row.time.wallNs > bestWall) {
                    bestWall = row.time.wallNs;
                    bestIdle = row.time.idleNs;
                }
            }
            wallSum += static_cast<double>(bestWall);
            idleSum += static_cast<double>(bestIdle);
        }
        ASSERT_EQ(l.samples, instances);
        EXPECT_DOUBLE_EQ(l.mean(&TimeBreakdown::wallNs), wallSum / static_cast<double>(instances));
        EXPECT_DOUBLE_EQ(l.mean(&TimeBreakdown::idleNs), idleSum / static_cast<double>(instances));
        const double parts =
            l.mean(&TimeBreakdown::computeNs) + l.mean(&TimeBreakdown::exposedCommNs) + l.mean(&TimeBreakdown::idleNs);
        EXPECT_NEAR(parts, l.mean(&TimeBreakdown::wallNs), 1e-9);
    }
    // The max view is never below the mean view.
    const auto mean = layerTable(a.breakdown);
    for (std::size_t i = 0; i < mean.size(); ++i) {
        EXPECT_GE(slowest[i].mean(&TimeBreakdown::wallNs), mean[i].mean(&TimeBreakdown::wallNs));
    }
}

TEST(RunSummary, FirstLayerSpanCoversEveryRankOfTheFirstInstance) {
    const auto trace = test::makeDecodeTrace({.ranks = 2, .steps = 2, .layers = 3, .lateRank = 1, .lateByNs = 50});
    const auto a = analyzeTrace(*trace);
    const auto span = firstLayerSpan(a.breakdown, 1);
    ASSERT_TRUE(span.has_value());
    std::int64_t start = INT64_MAX;
    std::int64_t end = INT64_MIN;
    std::int64_t firstStep = INT64_MAX;
    for (const auto& row : a.breakdown.rows) {
        if (row.layer == 1) firstStep = std::min(firstStep, row.step);
    }
    for (const auto& row : a.breakdown.rows) {
        if (row.layer != 1 || row.step != firstStep) continue;
        start = std::min(start, row.startNs);
        end = std::max(end, row.startNs + row.time.wallNs);
    }
    EXPECT_EQ(span->startNs, start);
    EXPECT_EQ(span->endNs, end);
    EXPECT_LT(span->startNs, span->endNs);
    EXPECT_FALSE(firstLayerSpan(a.breakdown, 99).has_value());
}

TEST(RunPoint, GpusAndBatchComeFromMetadataUnlessGiven) {
    const auto trace = test::makeDecodeTrace({.ranks = 2, .batch = 8, .tp = 2});
    const auto a = analyzeTrace(*trace);
    const auto p = runPointOf(*trace, a, "run");
    EXPECT_EQ(p.gpus, 2);
    EXPECT_EQ(p.batch, 8);
    EXPECT_DOUBLE_EQ(p.tokensPerSec, 8 / (a.summary.latencyMeanNs * 1e-9));
    const auto q = runPointOf(*trace, a, "run", 4, 16);
    EXPECT_EQ(q.gpus, 4);
    EXPECT_EQ(q.batch, 16);
    EXPECT_DOUBLE_EQ(q.tokensPerSec, 16 / (a.summary.latencyMeanNs * 1e-9));
}

}  // namespace
}  // namespace tpscope::core::analysis
