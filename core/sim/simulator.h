// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// Discrete-event simulator of TP decode on virtual GPUs (DESIGN.md §4): the decode plan runs for
// `tokens` steps on every rank of one TP group, and the result is a core::Trace shaped like a
// capture (DESIGN.md §2): one Rank per GPU (host "node<k>", device index = local index), a compute
// stream (StreamId 7, "compute") and in overlap mode an "nccl" stream (StreamId 13); kernel names,
// kinds and payloads as the GPU's architecture and NCCL name them; NVTX ranges "step N" >
// "layer i" > "attention" / "mlp" (prologue and epilogue ops inside the step, outside layers).
//
// Events: every rank issues the same sequence of kernels, so the event queue reduces to walking the
// step's instructions in issue order: a compute kernel starts when its stream is free (plus the
// device gap), any collective it depends on has ended and its launch has reached the GPU (the
// host timeline of the runtime profile, core/sim/runtime_profile.h); a collective's kernel starts on each rank
// when that rank arrives, and all ranks' kernels end together at max(arrival) + transfer time, so
// early ranks wait inside the kernel as they do in real traces. Jitter and load imbalance are
// seeded per rank (reproducible). Each rank also has a host row ("launch thread") with its launch
// calls, correlated to the kernels, and the host work between steps.
// Cost: O(tokens x ops x ranks) time, no allocation per event.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/hw/gpu_spec.h"
#include "core/hw/memory_fit.h"
#include "core/sim/collective_model.h"
#include "core/sim/defaults.h"
#include "core/sim/sim_params.h"
#include "core/trace/trace.h"
#include "core/util/result.h"
#include "core/util/task_control.h"
#include "core/workload/decode_plan.h"

namespace tpscope::core::sim {

inline constexpr StreamId kComputeStream{7};
inline constexpr StreamId kNcclStream{13};
inline constexpr std::uint64_t kLaunchThread = 1;  // the host thread id of each rank's launch row

struct ClusterSpec {
    GpuSpec gpu;
    FabricSpec intraFabric;
    std::optional<FabricSpec> interFabric;
    int nodes = 1;
    int gpusPerNode = 8;
    int totalGpus() const { return nodes * gpusPerNode; }
};

struct SimConfig {
    PlanConfig plan;  // model, tp, batch, context, dtype
    ClusterSpec cluster;
    int tokens = kDefaults.tokens;  // decode steps
    SimParams params;
    bool ignoreMemory = false;  // simulate a configuration that does not fit, as a what-if
};

// Per-run numbers, averaged over steps (and over ranks where it says so).
struct SimStats {
    int steps = 0;
    int ranks = 0;
    double meanStepNs = 0;    // decode-step period, host gap included
    double tokensPerSec = 0;  // batch / mean step
    int collectivesPerStep = 0;
    int allreducesPerStep = 0;
    double allreduceKernelNsPerStep = 0;    // summed all-reduce kernel time per step, mean over ranks
    double allreduceTransferNsPerStep = 0;  // of which moving bytes (last arrival to end)
    double allreduceWaitNsPerStep = 0;      // of which waiting for late ranks, mean over ranks
    double collectiveKernelNsPerStep = 0;   // every collective, mean over ranks
    double exposedCommNsPerStep = 0;        // collective time with no compute kernel running, mean over ranks
    double exposedCommShare = 0;            // exposed comm / step
    // The host (runtime profile): the share of kernels whose start was set by their launch rather
    // than by the GPU (launch-bound kernels), the device time per step and rank spent waiting for
    // launches beyond the device gap, and the host work between steps.
    double launchBoundShare = 0;
    double launchWaitNsPerStep = 0;
    double stepHostNs = 0;
    std::uint64_t events = 0;
    CollectiveEstimate layerAllReduce;  // the model's choice for the per-layer all-reduce
    std::vector<std::string> notes;     // what the run could not do as asked (engine fall-backs)
};

struct SimResult {
    std::shared_ptr<const Trace> trace;
    SimStats stats;
    FitReport fit;
};

// Checks everything a run needs (TP against GPUs available, memory, tokens, fabrics) without
// simulating; the error says what to change. A DoesNotFit error names the shortfall.
Status validateConfig(const SimConfig& config);

// Reports steps done / steps after each decode step; a Cancelled error when the control's flag is
// set (checked once per step).
Result<SimResult> simulate(const SimConfig& config, const TaskControl& control = {});

}  // namespace tpscope::core::sim
