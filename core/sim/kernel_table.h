// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// What each kernel of a decode step should take (issue 44 §2; `tpscope-cli kernels` and the window's
// Calculator show this table): the compute ops of one decoder layer and the epilogue (final norm, LM
// head) with shape, bytes, the simulator's time (core/sim/kernel_model.h), the fraction of the GPU's
// peak HBM bandwidth that time means, and what timed it (a measured GPU's fit, a derived fit, or the
// roofline). Collectives are left out (core/sim/collective_model.h times them). O(ops of one layer).

#include <cstdint>
#include <string>
#include <vector>

#include "core/hw/gpu_spec.h"
#include "core/sim/sim_params.h"
#include "core/util/result.h"
#include "core/workload/decode_plan.h"

namespace tpscope::core::sim {

struct KernelRow {
    PlanOp op;                     // shape (GEMM m, n, k; rows x width), FLOPs and bytes
    double timeNs = 0;             // the simulator's time for it
    double bandwidthFraction = 0;  // (bytes read + written) / time / peak HBM bandwidth
    std::string source;            // "a100-sxm fit (Vidur, measured)", "derived from ... not measured", "roofline"
};

struct KernelTable {
    std::string gpuId;
    int layer = 0;  // the decoder layer shown
    std::vector<KernelRow> rows;
    std::string fitDescription;  // the op-time model the GPU uses (empty: roofline only)
    bool derived = false;        // the GPU has no measured per-op data
    double layerTimeNs = 0;      // the shown layer's compute kernels
};

// `layer` < 0: the first layer (a MoE model's first layers may be dense; pass the layer to show).
Result<KernelTable> kernelTable(const PlanConfig& config, const GpuSpec& gpu, const SimParams& params, int layer = 0);

}  // namespace tpscope::core::sim
