// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include <gtest/gtest.h>

#include "core/calc/cost.h"

namespace tpscope::test {
namespace {

using core::CostCandidate;

TEST(CheapestMeeting, LowestCostAmongThoseMeetingLatencyAndThroughput) {
    const std::vector<CostCandidate> c{{8, 1, 100, 10, 5.0},   // meets latency, cost 5
                                       {4, 8, 400, 30, 2.0},   // cheapest but too slow
                                       {2, 4, 150, 15, 3.0},   // meets both, cost 3
                                       {4, 2, 120, 12, 4.0}};  // meets both, cost 4
    EXPECT_EQ(core::cheapestMeeting(c, 20), 2u);
    EXPECT_EQ(core::cheapestMeeting(c, 40), 1u);
    // Throughput demand of 130 tokens/s rules out the 100 and 120 tokens/s rows.
    EXPECT_EQ(core::cheapestMeeting(c, 20, 130), 2u);
    EXPECT_EQ(core::cheapestMeeting(c, 20, 200), std::nullopt);
    EXPECT_EQ(core::cheapestMeeting(c, 5), std::nullopt);
    EXPECT_EQ(core::cheapestMeeting({}, 100), std::nullopt);
}

TEST(CheapestMeeting, TiesGoToFewerGpus) {
    const std::vector<CostCandidate> c{{8, 1, 100, 10, 3.0}, {4, 1, 100, 10, 3.0}, {6, 1, 100, 10, 3.0}};
    EXPECT_EQ(core::cheapestMeeting(c, 20), 1u);
}

}  // namespace
}  // namespace tpscope::test
