// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "breakdown_fixtures.h"

#include <gtest/gtest.h>

#include <tuple>

namespace tpscope::test {

using core::analysis::LayerBreakdown;

void expectSameBreakdown(const LayerBreakdown& a, const LayerBreakdown& b) {
    ASSERT_EQ(a.rows.size(), b.rows.size());
    for (std::size_t i = 0; i < a.rows.size(); ++i) {
        const auto x = a.rows[i];
        const auto y = b.rows[i];
        EXPECT_EQ(std::tie(x.step, x.layer, x.rankIndex, x.startNs, x.time),
                  std::tie(y.step, y.layer, y.rankIndex, y.startNs, y.time))
            << "row " << i;
    }
    ASSERT_EQ(a.steps.size(), b.steps.size());
    for (std::size_t i = 0; i < a.steps.size(); ++i) {
        EXPECT_EQ(std::tie(a.steps[i].step, a.steps[i].rankIndex, a.steps[i].startNs, a.steps[i].time),
                  std::tie(b.steps[i].step, b.steps[i].rankIndex, b.steps[i].startNs, b.steps[i].time));
    }
    ASSERT_EQ(a.blockSums.size(), b.blockSums.size());
    for (std::size_t i = 0; i < a.blockSums.size(); ++i) {
        const auto& x = a.blockSums[i];
        const auto& y = b.blockSums[i];
        EXPECT_EQ(std::tie(x.rankIndex, x.layer, x.block, x.samples, x.time),
                  std::tie(y.rankIndex, y.layer, y.block, y.samples, y.time));
    }
    ASSERT_EQ(a.layers.size(), b.layers.size());
    for (std::size_t i = 0; i < a.layers.size(); ++i) {
        const auto& x = a.layers[i];
        const auto& y = b.layers[i];
        EXPECT_EQ(std::tie(x.step, x.layer, x.ranks, x.firstRow, x.maxWallNs, x.minComputeNs, x.maxComputeNs,
                           x.meanComputeNs, x.slowestRankIndex),
                  std::tie(y.step, y.layer, y.ranks, y.firstRow, y.maxWallNs, y.minComputeNs, y.maxComputeNs,
                           y.meanComputeNs, y.slowestRankIndex));
    }
    EXPECT_EQ(a.rankTotals, b.rankTotals);
}

}  // namespace tpscope::test
