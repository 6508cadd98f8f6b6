// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// The capacity planner's answer, checked by hand from the sweep's own numbers: a second,
// independent pass over runSweep's runs applies the rule (latency target, throughput demand,
// replicas, $/Mtok, ties to fewer GPUs) and must land on the same configuration.

#include <gtest/gtest.h>

#include <cmath>

#include "core/sim/capacity_plan.h"
#include "sim_test_support.h"

namespace tpscope::test {
namespace {

core::sim::CapacityPlanSpec smallSpec() {
    core::sim::CapacityPlanSpec s;
    s.sweep.model = smallModel();
    s.sweep.cluster.gpu = *catalog().gpu("h100-sxm");
    s.sweep.cluster.intraFabric = *catalog().fabric("nvlink4");
    s.sweep.cluster.gpusPerNode = 8;
    s.sweep.tps = {1, 2, 4, 8};
    s.sweep.batches = {1, 8, 64};
    s.sweep.tokens = 2;
    s.sweep.params = core::sim::SimParams::deterministic();
    s.pricePerGpuHour = 3.0;
    return s;
}

TEST(CapacityPlan, CheapestIsWhatAHandPassOverTheSweepFinds) {
    auto spec = smallSpec();
    auto sweep = core::sim::runSweep(spec.sweep);
    ASSERT_TRUE(sweep) << sweep.error().describe();
    ASSERT_EQ(sweep->runs.size(), 12u);
    // A target between the fastest and slowest step, and a demand one replica of most rows misses.
    double fastest = 1e300, slowest = 0, maxTps = 0;
    for (const auto& r : sweep->runs) {
        fastest = std::min(fastest, r.stats.meanStepNs / 1e6);
        slowest = std::max(slowest, r.stats.meanStepNs / 1e6);
        maxTps = std::max(maxTps, r.stats.tokensPerSec);
    }
    spec.targetItlMs = (fastest + slowest) / 2;
    spec.minTokensPerSec = maxTps * 1.5;

    int bestTp = 0, bestBatch = 0, bestGpus = 0;
    double bestCost = 1e300;
    std::size_t meeting = 0;
    for (const auto& r : sweep->runs) {
        const int tp = r.config.plan.tp;
        const double perReplica = r.stats.tokensPerSec;
        const int replicas = std::max(1, static_cast<int>(std::ceil(spec.minTokensPerSec / perReplica)));
        const int gpus = tp * replicas;
        const double ms = r.stats.meanStepNs / 1e6;
        if (gpus > 8) continue;
        if (ms <= spec.targetItlMs) ++meeting;
        const double dollars = gpus * 3.0 / (perReplica * replicas * 3600 / 1e6);
        if (ms > spec.targetItlMs) continue;
        if (dollars < bestCost || (dollars == bestCost && gpus < bestGpus)) {
            bestCost = dollars;
            bestTp = tp;
            bestBatch = r.config.plan.batch;
            bestGpus = gpus;
        }
    }
    ASSERT_GT(bestTp, 0) << "the hand pass found no configuration; the test's target is wrong";

    auto plan = core::sim::planCapacity(spec);
    ASSERT_TRUE(plan) << plan.error().describe();
    ASSERT_TRUE(plan->cheapest);
    const auto& c = plan->configs[*plan->cheapest];
    EXPECT_EQ(c.tp, bestTp);
    EXPECT_EQ(c.batch, bestBatch);
    EXPECT_EQ(c.cost.gpus, bestGpus);
    EXPECT_NEAR(c.cost.dollarsPerMillionTokens, bestCost, 1e-9 * bestCost);
    EXPECT_EQ(plan->meetingTarget.size(), meeting);
    EXPECT_TRUE(c.meetsLatency && c.meetsThroughput && c.withinBudget);
}

TEST(CapacityPlan, TheListingIsCheapestFirstAsTheGuideSays) {
    auto spec = smallSpec();
    spec.targetItlMs = 1e6;  // every configuration meets it: the whole listing is ordered
    spec.minTokensPerSec = 1;
    auto plan = core::sim::planCapacity(spec);
    ASSERT_TRUE(plan) << plan.error().describe();
    ASSERT_GE(plan->meetingTarget.size(), 3u);
    // The first is the answer; each next one costs no less than the one before it.
    ASSERT_TRUE(plan->cheapest);
    EXPECT_EQ(plan->meetingTarget.front(), *plan->cheapest);
    for (std::size_t i = 1; i < plan->meetingTarget.size(); ++i) {
        const auto& before = plan->configs[plan->meetingTarget[i - 1]];
        const auto& after = plan->configs[plan->meetingTarget[i]];
        EXPECT_LE(before.cost.dollarsPerMillionTokens, after.cost.dollarsPerMillionTokens) << "position " << i;
    }
}

TEST(CapacityPlan, WithoutADemandReplicasFillTheBudget) {
    auto spec = smallSpec();
    spec.sweep.tps = {4, 8};
    spec.sweep.batches = {1};
    spec.targetItlMs = 1e6;
    auto plan = core::sim::planCapacity(spec);
    ASSERT_TRUE(plan);
    ASSERT_EQ(plan->configs.size(), 2u);
    EXPECT_EQ(plan->configs[0].replicas, 2);  // two TP 4 replicas against one TP 8 on 8 GPUs
    EXPECT_EQ(plan->configs[1].replicas, 1);
    EXPECT_EQ(plan->configs[0].cost.gpus, 8);
}

TEST(CapacityPlan, UnreachableTargetsAndBadInputAreClear) {
    auto spec = smallSpec();
    spec.sweep.batches = {1};
    spec.targetItlMs = 1e-6;
    auto plan = core::sim::planCapacity(spec);
    ASSERT_TRUE(plan);
    EXPECT_FALSE(plan->cheapest);
    EXPECT_TRUE(plan->meetingTarget.empty());
    spec.targetItlMs = 0;
    EXPECT_FALSE(core::sim::planCapacity(spec));
    spec.targetItlMs = 10;
    spec.pricePerGpuHour = -1;
    EXPECT_FALSE(core::sim::planCapacity(spec));
    spec.pricePerGpuHour = 2;
    spec.minTokensPerSec = std::nan("");
    EXPECT_FALSE(core::sim::planCapacity(spec));
}

}  // namespace
}  // namespace tpscope::test
