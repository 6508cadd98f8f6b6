// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// Does a decode plan's per-GPU memory fit a GPU? Only a fraction of device memory is usable for
// weights, KV cache and activations: the CUDA context, NCCL buffers, cuBLAS workspaces and
// allocator fragmentation take the rest. 0.9 matches vLLM's default gpu_memory_utilization.

#include <cstdint>
#include <string>

#include "core/hw/gpu_spec.h"
#include "core/workload/decode_plan.h"

namespace tpscope::core {

inline constexpr double kDefaultUsableMemoryFraction = 0.9;

struct FitReport {
    bool fits = false;
    std::uint64_t requiredBytes = 0;
    std::uint64_t usableBytes = 0;
    std::uint64_t shortfallBytes = 0;  // 0 when it fits
    // "does not fit: needs 131.7 GiB per GPU of 71.7 GiB usable on NVIDIA H100 SXM5 80GB (short by
    // 60.0 GiB)", or "fits: needs ...".
    std::string describe(const std::string& gpuName) const;
};

FitReport checkFit(const MemoryEstimate& memory, const GpuSpec& gpu,
                   double usableFraction = kDefaultUsableMemoryFraction);

// The smallest tp among candidates for which the model plans (divisibility) and fits; 0 if none.
int minimumTpThatFits(const PlanConfig& base, const GpuSpec& gpu, const std::vector<int>& candidates,
                      double usableFraction = kDefaultUsableMemoryFraction);

}  // namespace tpscope::core
