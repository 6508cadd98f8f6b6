// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// Kernel names of the MoE and MLA ops in a simulated trace, as the serving engines' kernels are named
// in real captures, so the analysis classifies a simulated MoE trace by the same rules
// (resources/kernel_rules.json) as a captured one:
// - routed experts: vLLM's Triton `fused_moe_kernel` (bf16/fp8 experts); MXFP4 experts run the
//   Triton `triton_kernels` matmul_ogs kernels (`_matmul_ogs_..._bf16xbf16xmxfp4_..._swiglu` for
//   gate/up with the activation fused, plain for down), as vLLM runs gpt-oss;
// - router top-k: vLLM's `vllm::moe::topkGatingSoftmax`; the router GEMM and the MLA projections:
//   the GEMM names of the dense ops (cuBLAS/CUTLASS per architecture);
// - MLA decode attention: FlashMLA's `flash_fwd_splitkv_mla_kernel`; a sliding-window layer's
//   attention (ModelSpec::attentionPattern): flash-attn's local instantiation of the dense kernel;
// - expert-parallel all-to-all: DeepEP's low-latency `deep_ep::internode_ll::dispatch` / `combine`.
// Template arguments are illustrative: the rules match the stable part of each name.

#include <string>

#include "core/sim/kernel_model.h"
#include "core/workload/decode_plan.h"

namespace tpscope::core::sim {

// The name of a MoE / MLA (or sliding-window attention) op's kernel; empty for the ops computeKernelName names.
std::string moeKernelName(const PlanOp& op, const PlanConfig& plan, GpuArch arch);

}  // namespace tpscope::core::sim
