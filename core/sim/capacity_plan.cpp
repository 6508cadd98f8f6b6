// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/sim/capacity_plan.h"

#include <algorithm>
#include <cmath>

namespace tpscope::core::sim {

Result<CapacityPlan> planCapacity(const CapacityPlanSpec& spec, const SweepControl& control) {
    if (!std::isfinite(spec.targetItlMs) || spec.targetItlMs <= 0) {
        return makeError(ErrorCode::InvalidArgument, "the inter-token latency target must be a positive number of ms",
                         "target-itl-ms");
    }
    if (!std::isfinite(spec.minTokensPerSec) || spec.minTokensPerSec < 0) {
        return makeError(ErrorCode::InvalidArgument, "the throughput demand must be a non-negative number",
                         "throughput");
    }
    if (!std::isfinite(spec.pricePerGpuHour) || spec.pricePerGpuHour <= 0) {
        return makeError(ErrorCode::InvalidArgument, "the price per GPU-hour must be a positive number",
                         "price-per-gpu-hour");
    }
    const int budget = spec.gpuBudget > 0 ? spec.gpuBudget : spec.sweep.cluster.totalGpus();
    if (spec.gpuBudget < 0 || budget > 1'000'000) {
        return makeError(ErrorCode::InvalidArgument, "the GPU budget must be between 1 and 1000000", "gpus");
    }
    auto sweep = runSweep(spec.sweep, control);
    if (!sweep) return sweep.error();
    CapacityPlan plan;
    plan.skipped = sweep->skipped;
    plan.cancelled = sweep->cancelled;
    std::vector<CostCandidate> eligible;
    std::vector<std::size_t> eligibleIndex;
    for (const auto& run : sweep->runs) {
        CapacityConfig c;
        c.tp = run.config.plan.tp;
        c.batch = run.config.plan.batch;
        const double perReplica = run.stats.tokensPerSec;
        if (perReplica <= 0) continue;
        const double needed = std::ceil(spec.minTokensPerSec / perReplica);
        c.replicas = spec.minTokensPerSec > 0 ? std::max(1, static_cast<int>(std::min(needed, 1e9)))
                                              : std::max(1, budget / c.tp);
        c.cost.gpus = c.tp * c.replicas;
        c.cost.batch = c.batch;
        c.cost.tokensPerSec = perReplica * c.replicas;
        c.cost.stepLatencyMs = run.stats.meanStepNs / 1e6;
        c.cost.dollarsPerMillionTokens = costPerMillionTokens(c.cost.gpus, spec.pricePerGpuHour, c.cost.tokensPerSec);
        c.meetsLatency = c.cost.stepLatencyMs <= spec.targetItlMs;
        c.meetsThroughput = c.cost.tokensPerSec >= spec.minTokensPerSec;
        c.withinBudget = c.cost.gpus <= budget;
        c.fit = run.fit;
        if (auto decode = buildDecodePlan(run.config.plan)) {
            c.touchedExpertsPerRank = decode->moe.touchedExpertsPerRank;
            c.weightBytesReadPerStep = decode->weightBytesReadPerStep;
        }
        if (c.meetsLatency && c.withinBudget) plan.meetingTarget.push_back(plan.configs.size());
        if (c.withinBudget) {
            eligible.push_back(c.cost);
            eligibleIndex.push_back(plan.configs.size());
        }
        plan.configs.push_back(c);
    }
    // Cheapest first, as the listing promises: those that also meet the throughput, then by $/Mtok.
    std::stable_sort(plan.meetingTarget.begin(), plan.meetingTarget.end(), [&](std::size_t a, std::size_t b) {
        const auto& x = plan.configs[a];
        const auto& y = plan.configs[b];
        if (x.meetsThroughput != y.meetsThroughput) return x.meetsThroughput;
        return x.cost.dollarsPerMillionTokens < y.cost.dollarsPerMillionTokens;
    });
    if (auto best = cheapestMeeting(eligible, spec.targetItlMs, spec.minTokensPerSec)) {
        plan.cheapest = eligibleIndex[*best];
    }
    return plan;
}

}  // namespace tpscope::core::sim
