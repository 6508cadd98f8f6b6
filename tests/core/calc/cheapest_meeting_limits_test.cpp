// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// cheapestMeeting at its limits (cheapest_meeting_test.cpp has the basic choice and ties): inclusive
// latency limit, throughput floor, nothing meeting, non-finite input.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "core/calc/cost.h"

namespace tpscope::core {
namespace {

// A candidate priced by the cost formula itself, so the test states configurations, not dollars.
CostCandidate candidate(int gpus, int batch, double stepLatencyMs, double price = 2.0) {
    CostCandidate c;
    c.gpus = gpus;
    c.batch = batch;
    c.stepLatencyMs = stepLatencyMs;
    c.tokensPerSec = batch / (stepLatencyMs / 1e3);
    c.dollarsPerMillionTokens = costPerMillionTokens(gpus, price, c.tokensPerSec);
    return c;
}

TEST(CheapestMeetingLimits, PicksTheLowestCostAmongThoseUnderTheLatencyTarget) {
    const std::vector<CostCandidate> c = {candidate(1, 8, 60), candidate(2, 8, 32), candidate(4, 8, 18),
                                          candidate(8, 8, 12)};
    // 1 GPU is the cheapest overall but misses 40 ms; of the rest 2 GPUs costs least.
    const auto unlimited = cheapestMeeting(c, 1e9);
    ASSERT_TRUE(unlimited.has_value());
    EXPECT_EQ(*unlimited, 0u);
    const auto at40 = cheapestMeeting(c, 40);
    ASSERT_TRUE(at40.has_value());
    EXPECT_EQ(*at40, 1u);
    EXPECT_LT(c[1].dollarsPerMillionTokens, c[2].dollarsPerMillionTokens);
    const auto at15 = cheapestMeeting(c, 15);
    ASSERT_TRUE(at15.has_value());
    EXPECT_EQ(*at15, 3u);
}

TEST(CheapestMeetingLimits, TheLatencyLimitIsInclusive) {
    const std::vector<CostCandidate> c = {candidate(2, 1, 20), candidate(4, 1, 10)};
    EXPECT_EQ(cheapestMeeting(c, 20).value_or(99), 0u);
    EXPECT_EQ(cheapestMeeting(c, 19.999).value_or(99), 1u);
}

TEST(CheapestMeetingLimits, AThroughputFloorExcludesSlowConfigurations) {
    const std::vector<CostCandidate> c = {candidate(1, 32, 10), candidate(2, 64, 12)};
    // 1 GPU: 3200 tokens/s, the cheaper; 2 GPUs: 5333 tokens/s at a higher $/Mtok.
    ASSERT_LT(c[0].dollarsPerMillionTokens, c[1].dollarsPerMillionTokens);
    EXPECT_EQ(cheapestMeeting(c, 50, 0).value_or(99), 0u);
    EXPECT_EQ(cheapestMeeting(c, 50, 4000).value_or(99), 1u);
    EXPECT_FALSE(cheapestMeeting(c, 50, 6000).has_value());
}

TEST(CheapestMeetingLimits, NoneWhenNothingMeetsOrInputIsEmptyOrNotFinite) {
    EXPECT_FALSE(cheapestMeeting({}, 100).has_value());
    const std::vector<CostCandidate> c = {candidate(1, 1, 30)};
    EXPECT_FALSE(cheapestMeeting(c, 29).has_value());
    EXPECT_FALSE(cheapestMeeting(c, std::nan("")).has_value());
    CostCandidate bad = candidate(1, 1, 5);
    bad.dollarsPerMillionTokens = std::nan("");
    EXPECT_FALSE(cheapestMeeting({bad}, 100).has_value());
}

}  // namespace
}  // namespace tpscope::core
