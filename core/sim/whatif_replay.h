// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// What-if replay of a measured run on another fabric (and optionally another TP degree): "what
// would this exact run do on PCIe, on NVLS, at TP 4". The answer is a model prediction, and the
// trace it produces says so (TraceOrigin::Predicted).
//
// Input: a finalized Trace (captured, imported or simulated) and its collective matching
// (core/analysis); the target fabric(s). Mapping, per rank, events in measured start order:
//   * every non-collective kernel keeps its measured duration (scaled for a TP change, below);
//   * dependency order: a kernel keeps its stream's order and the measured gap after the kernel of
//     its rank that ended last before it started (its likely dependency: the previous kernel of
//     its stream, or the collective/compute on another stream it waited for); the first kernel of
//     a rank keeps its start;
//   * a collective kernel starts when its rank is ready (as above) and ends, on every rank of its
//     matched call, at the last arrival + the collective model's time for its op and message size
//     on the new fabric (sim::CollectiveModel): each rank waits for the last arrival exactly as the
//     analysis defines wait. All-reduce: the engine's choice (engineAllReduce: NCCL's tuner, or
//     vLLM / TRT-LLM / symmetric-memory dispatch); all-gather and reduce-scatter (bytes =
//     nccl-tests size, the total): allGather(bytes / n). Other ops and calls without a size keep
//     their measured transfer (median end - last arrival), counted in `collectivesKept`;
//   * NVTX ranges move with the first kernel inside them (start) and the last one (end).
// TP change (tp != measured ranks): replay rank i follows measured rank i mod n; collectives run
// over the new group size; GEMM and attention kernels are scaled by the ratio of their roofline
// times in the decode plan at the two TP degrees (tpKernelScaling), a model estimate whose
// assumptions are listed in the result.
// Complexity: O(n log n) in the events of the trace (one sort per rank), O(calls x ranks) for the
// collectives, O(ranges log n) for the ranges.

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/analysis/collective_matching.h"
#include "core/hw/gpu_spec.h"
#include "core/sim/allreduce_engine.h"
#include "core/sim/sim_params.h"
#include "core/trace/trace.h"
#include "core/util/result.h"
#include "core/workload/decode_plan.h"

namespace tpscope::core::sim {

// Per-kind duration factors for a TP change, from the decode plan's per-rank work.
struct TpKernelScaling {
    double gemm = 1.0;
    double attention = 1.0;
    std::vector<std::string> assumptions;
};

// measured.tp -> newTp on `gpu`: sum over the plan's GEMM (attention) ops of the roofline kernel
// time at newTp / the same at measured.tp.
Result<TpKernelScaling> tpKernelScaling(const PlanConfig& measured, int newTp, const GpuSpec& gpu,
                                        const SimParams& params = {});

struct WhatIfOptions {
    FabricSpec fabric;
    std::optional<FabricSpec> interFabric;
    int gpusPerNode = 0;                             // 0: the fabric's max GPUs when set, else 8
    int tp = 0;                                      // 0: keep the measured rank count
    AllReduceEngine engine = AllReduceEngine::Nccl;  // whose all-reduce runs on the new fabric
    TpKernelScaling scaling;
};

struct WhatIfReplay {
    std::shared_ptr<Trace> trace;  // origin Predicted
    std::size_t collectivesRetimed = 0;
    std::size_t collectivesKept = 0;          // op not modelled or size unknown: measured transfer kept
    std::size_t callsResolvedOutOfOrder = 0;  // dependency cycles broken by the measured arrival order
    std::vector<std::string> assumptions;
};

Result<WhatIfReplay> replayOnFabric(const Trace& measured, const analysis::CollectiveMatching& matching,
                                    const WhatIfOptions& options);

}  // namespace tpscope::core::sim
