// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/sim/moe_kernel_names.h"

namespace tpscope::core::sim {

namespace {

// The dense GEMM name for a MoE/MLA GEMM of the same shape (router, MLA up-projections).
std::string denseGemmName(const PlanOp& op, const PlanConfig& plan, GpuArch arch) {
    PlanOp dense = op;
    dense.kind = OpKind::QkvGemm;
    return computeKernelName(dense, arch, plan.dtype, plan.model.headDim);
}

std::string expertGemmName(const PlanOp& op, const PlanConfig& plan) {
    if (plan.partFormat(plan.model.formats.experts) == WeightFormat::Mxfp4) {
        const bool gateUp = op.kind == OpKind::MoeGateUp;
        return std::string("_matmul_ogs_NNT_bf16xbf16xmxfp4_16x256x128x1") + (gateUp ? "_swiglu" : "");
    }
    return "fused_moe_kernel";
}

// A sliding-window layer runs flash-attn's local instantiation: the full layer's kernel with its
// Is_local template flag (the second boolean) flipped, so the two layer kinds of an alternating model
// are two kernel names, as in a real capture. Empty for a full layer (computeKernelName names it).
std::string slidingAttentionName(const PlanOp& op, const PlanConfig& plan, GpuArch arch) {
    if (plan.model.layerAttention(op.layer) != LayerAttention::Sliding) return {};
    std::string name = computeKernelName(op, arch, plan.dtype, plan.model.headDim);
    const auto flags = name.find("> >, ");
    if (flags == std::string::npos) return name + " [local]";
    const auto second = name.find(", ", flags + 5);  // the boolean after the first
    if (second == std::string::npos) return name + " [local]";
    const std::size_t at = second + 2;
    if (name.compare(at, 4, "true") == 0) return name.replace(at, 4, "false");
    if (name.compare(at, 5, "false") == 0) return name.replace(at, 5, "true");
    return name + " [local]";
}

}  // namespace

std::string moeKernelName(const PlanOp& op, const PlanConfig& plan, GpuArch arch) {
    switch (op.kind) {
        case OpKind::MoeRouter:
        case OpKind::MlaQUpGemm:
        case OpKind::MlaKvUpGemm:
            return denseGemmName(op, plan, arch);
        case OpKind::MoeGateUp:
        case OpKind::MoeDown:
            return expertGemmName(op, plan);
        case OpKind::MoeTopK:
            return "void vllm::moe::topkGatingSoftmax<8, 128, 4, 16, 32, int, float>(float const*, bool const*, "
                   "float*, int, int*, int*, int, int, int, bool)";
        case OpKind::MoeSiluMul: {
            PlanOp act = op;
            act.kind = OpKind::SiluMul;
            return computeKernelName(act, arch, plan.dtype, plan.model.headDim);
        }
        case OpKind::MoeDispatch:
            return "void deep_ep::internode_ll::dispatch<false, 3, 7168>(void*, float*, int*, long*, void*, int*, "
                   "void*, int*, void*, void const*, long const*, int*, int*, int, int, int, int, int, int, int, "
                   "int, bool)";
        case OpKind::MoeCombine:
            return "void deep_ep::internode_ll::combine<3, 7168, 0>(void*, void*, int*, void*, void const*, long "
                   "const*, int const*, long const*, int*, void*, int, int, int, int, int, int, int, int, int, bool)";
        case OpKind::Attention:
            if (!plan.model.isMla()) return slidingAttentionName(op, plan, arch);
            return "void flash::flash_fwd_splitkv_mla_kernel<Flash_fwd_kernel_traits_mla<576, 64, 64, 8, "
                   "cutlass::bfloat16_t, 512>, true>(Flash_fwd_mla_params)";
        default:
            return {};
    }
}

}  // namespace tpscope::core::sim
