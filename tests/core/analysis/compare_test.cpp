// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// layerDeltas (run - base per layer index and part, from the comparison's cells: the Compare view's
// part deltas and the measured - model residual) and the summary deltas of compareRuns.

#include <gtest/gtest.h>

#include "core/analysis/compare.h"
#include "trace_builder_fixtures.h"

namespace tpscope::core::analysis {
namespace {

TEST(LayerDeltas, AreMeasuredMinusModelOfEachPartForLayersInBothRuns) {
    // "Measured": slower all-reduces, one rank late, one layer more than the model.
    const auto measured = test::makeDecodeTrace(
        {.ranks = 2, .steps = 2, .layers = 3, .computeNs = 1000, .arNs = 300, .lateRank = 1, .lateByNs = 40});
    const auto model = test::makeDecodeTrace({.ranks = 2, .steps = 2, .layers = 2, .computeNs = 900, .arNs = 100});
    const auto m = analyzeTrace(*measured);
    const auto s = analyzeTrace(*model);
    const auto c = compareRuns({{"measured", &m}, {"model", &s}});
    const auto r = layerDeltas(c, 0, 1);
    ASSERT_EQ(r.size(), 2u);  // layer 2 exists only in the measured run
    for (std::size_t i = 0; i < r.size(); ++i) {
        const auto& cells = c.layers[i].runs;
        EXPECT_EQ(r[i].layer, c.layers[i].layer);
        EXPECT_DOUBLE_EQ(r[i].wallNs, cells[0].wallNs - cells[1].wallNs);
        EXPECT_DOUBLE_EQ(r[i].computeNs, cells[0].computeNs - cells[1].computeNs);
        EXPECT_DOUBLE_EQ(r[i].exposedTransferNs, cells[0].exposedTransferNs - cells[1].exposedTransferNs);
        EXPECT_DOUBLE_EQ(r[i].exposedWaitNs, cells[0].exposedWaitNs - cells[1].exposedWaitNs);
        EXPECT_DOUBLE_EQ(r[i].idleNs, cells[0].idleNs - cells[1].idleNs);
        // Two blocks per layer, each compute + all-reduce: the wall residual from the fixtures' formula
        // is 2 * ((1000 + 300) - (900 + 100)) plus the late rank's wait spread over the ranks.
        EXPECT_GE(r[i].wallNs, 2.0 * ((1000 + 300) - (900 + 100)));
        // The residual is the negative of compareRuns' delta of run 1 against run 0.
        EXPECT_DOUBLE_EQ(r[i].wallNs, -c.layers[i].wallDeltaNs[1]);
    }
    // Swapped roles: the signs flip.
    const auto flipped = layerDeltas(c, 1, 0);
    ASSERT_EQ(flipped.size(), r.size());
    EXPECT_DOUBLE_EQ(flipped[0].wallNs, -r[0].wallNs);
}

TEST(Compare, SummaryDeltasAreRatiosAndSharePointsAgainstTheFirstRun) {
    const auto fast = test::makeDecodeTrace({.ranks = 2, .steps = 2, .layers = 2, .computeNs = 1000, .arNs = 100});
    const auto slow = test::makeDecodeTrace({.ranks = 2, .steps = 2, .layers = 2, .computeNs = 1000, .arNs = 500});
    const auto a = analyzeTrace(*fast);
    const auto b = analyzeTrace(*slow);
    const auto c = compareRuns({{"fast", &a}, {"slow", &b}});
    ASSERT_EQ(c.runs.size(), 2u);
    EXPECT_EQ(c.runs[0].tokensPerSecDeltaFraction, 0.0);
    EXPECT_EQ(c.runs[0].exposedCommShareDelta, 0.0);
    EXPECT_DOUBLE_EQ(c.runs[1].tokensPerSecDeltaFraction, b.summary.tokensPerSec / a.summary.tokensPerSec - 1);
    EXPECT_LT(c.runs[1].tokensPerSecDeltaFraction, 0.0);  // slower all-reduces: fewer tokens/s
    EXPECT_DOUBLE_EQ(c.runs[1].exposedCommShareDelta, b.summary.exposedCommShare - a.summary.exposedCommShare);
    EXPECT_GT(c.runs[1].exposedCommShareDelta, 0.0);
}

TEST(LayerDeltas, AnIndexOutOfRangeGivesNoRows) {
    const auto t = test::makeDecodeTrace({.ranks = 2, .steps = 1, .layers = 2});
    const auto a = analyzeTrace(*t);
    const auto c = compareRuns({{"a", &a}, {"b", &a}});
    EXPECT_TRUE(layerDeltas(c, 0, 2).empty());
    EXPECT_TRUE(layerDeltas(c, 5, 0).empty());
    // The same run against itself: every residual is zero.
    for (const auto& row : layerDeltas(c, 0, 1)) EXPECT_EQ(row.wallNs, 0.0);
}

}  // namespace
}  // namespace tpscope::core::analysis
