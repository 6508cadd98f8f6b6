// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// Cost of one plan op's kernel on a GPU (DESIGN.md §4), and the kernel name a real capture would
// show for it on that GPU's architecture.
//
// Roofline: time = max(FLOPs / (peak x compute efficiency), bytes / (HBM bandwidth x memory efficiency))
//                  + fixed per-kernel overhead
// Efficiencies per kernel class come from SimParams. With SimParams::fittedOpTimes (the default) the
// ops that core/sim/op_time_fit.h covers (dense GEMMs, norms, SiLU*mul) take their fitted time instead,
// never below the roofline (GEMMs: its compute term). Collective ops are costed by CollectiveModel, not here.
// O(1) per op.

#include <optional>
#include <string>

#include "core/hw/gpu_spec.h"
#include "core/sim/sim_params.h"
#include "core/workload/decode_plan.h"

namespace tpscope::core::sim {

struct KernelCost {
    // The roofline's terms (kept when a fit times the op: memoryBound() still says which resource it
    // streams, for the overlap model).
    double computeNs = 0;
    double memoryNs = 0;
    double overheadNs = 0;
    std::optional<double> fittedNs;  // set when the op-time fit timed the op
    double rooflineNs() const { return (computeNs > memoryNs ? computeNs : memoryNs) + overheadNs; }
    double timeNs() const { return fittedNs ? *fittedNs : rooflineNs(); }
    bool memoryBound() const { return memoryNs >= computeNs; }
};

KernelCost kernelCost(const PlanOp& op, const GpuSpec& gpu, Dtype dtype, const SimParams& params);

enum class GpuArch : std::uint8_t { Ampere, Ada, Hopper, Blackwell };
// From the preset id or name ("h100-sxm", "NVIDIA A100 SXM4 80GB"); Ampere when unknown.
GpuArch gpuArch(const GpuSpec& gpu);

// The kernel name of a compute op (GEMM shape picks the tile family; norms, activation,
// attention and embedding have their vLLM / PyTorch names).
std::string computeKernelName(const PlanOp& op, GpuArch arch, Dtype dtype, std::int64_t headDim);
// NCCL >= 2.19 naming ("ncclDevKernel_AllReduce_Sum_f16_RING_LL"), or vLLM's custom all-reduce
// kernels for one-shot / two-shot.
std::string collectiveKernelName(CollectiveOp op, CollectiveAlgo algo, CollectiveProto proto, Dtype dtype);

}  // namespace tpscope::core::sim
