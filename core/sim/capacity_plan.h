// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// The capacity planner (`tpscope-cli plan-capacity`, the GUI Cost tab's latency-target highlight):
// which serving configuration meets an inter-token latency target, and which of those is cheapest
// while also meeting a throughput demand.
//
// Input: a model, one node type (GPU, fabric, GPUs per node), the GPU budget, the latency target
// (ms per decode step = inter-token latency), an optional throughput demand (tokens/s over all
// replicas) and the price per GPU-hour. Mapping: one simulated sweep (core/sim/sweep.h) over
// TP x batch; every run that fits becomes a configuration of `replicas` independent copies of that
// TP group (replicas = as many as the demand needs, at least 1; without a demand, as many as the
// budget holds, so TP 8 is weighed against two TP 4 replicas on the same 8 GPUs). Replicas do not
// interact, so throughput and GPUs scale with them and $/Mtok does not. The choice is
// core::cheapestMeeting over those rows. Cost: the sweep's (one simulation per TP x batch).

#include <optional>
#include <vector>

#include "core/calc/cost.h"
#include "core/sim/defaults.h"
#include "core/sim/sweep.h"

namespace tpscope::core::sim {

struct CapacityPlanSpec {
    SweepSpec sweep;             // model, cluster node, TP and batch axes, context, dtype, params
    int gpuBudget = 0;           // 0: the cluster's GPUs
    double targetItlMs = 0;      // > 0
    double minTokensPerSec = 0;  // 0: no throughput demand
    double pricePerGpuHour = kDefaults.pricePerGpuHour;  // > 0
};

struct CapacityConfig {
    int tp = 0;
    int batch = 0;
    int replicas = 0;
    CostCandidate cost;         // gpus = tp x replicas, tokens/s over all replicas, step latency, $/Mtok
    bool meetsLatency = false;  // step latency <= target
    bool meetsThroughput = false;
    bool withinBudget = false;
    // What one rank holds and reads (the decode plan of the configuration): MoE models read only the
    // touched experts, so the weights read per step grow with batch.
    double touchedExpertsPerRank = 0;  // 0 for a dense model
    std::uint64_t weightBytesReadPerStep = 0;
    FitReport fit;
};

struct CapacityPlan {
    std::vector<CapacityConfig> configs;  // one per simulated (TP, batch), sweep order
    // Indices meeting the latency target within the budget, cheapest first (those meeting the
    // throughput before those short of it, then by $ per million tokens; ties in sweep order).
    std::vector<std::size_t> meetingTarget;
    std::optional<std::size_t> cheapest;  // cheapest meeting latency and throughput within the budget
    std::vector<SkippedRun> skipped;      // configurations that do not fit memory
    bool cancelled = false;
};

Result<CapacityPlan> planCapacity(const CapacityPlanSpec& spec, const SweepControl& control = {});

}  // namespace tpscope::core::sim
