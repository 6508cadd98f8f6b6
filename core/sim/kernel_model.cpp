// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/sim/kernel_model.h"

#include <algorithm>
#include <cctype>

#include "core/sim/op_time_fit.h"

namespace tpscope::core::sim {

namespace {

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return s;
}

// Element type spellings: cuBLAS kernel names, PyTorch/vLLM template arguments, NCCL suffixes.
std::string_view cublasType(Dtype d) {
    switch (d) {
        case Dtype::Bf16:
            return "bf16";
        case Dtype::Fp8:
            return "e4m3";
        case Dtype::Fp32:
            return "f32";
        default:
            return "f16";
    }
}

std::string_view torchType(Dtype d) {
    switch (d) {
        case Dtype::Bf16:
            return "c10::BFloat16";
        case Dtype::Fp32:
            return "float";
        case Dtype::Fp8:
            return "c10::Float8_e4m3fn";
        default:
            return "c10::Half";
    }
}

std::string_view cutlassType(Dtype d) {
    return d == Dtype::Bf16 ? "cutlass::bfloat16_t" : "cutlass::half_t";
}

std::string_view ncclType(Dtype d) {
    switch (d) {
        case Dtype::Bf16:
            return "bf16";
        case Dtype::Fp32:
            return "f32";
        case Dtype::Fp8:
            return "f8e4m3";
        default:
            return "f16";
    }
}

std::string gemmName(const PlanOp& op, GpuArch arch, Dtype dtype) {
    const bool thin = op.gemm.m <= 16;
    const std::string t(cublasType(dtype));
    switch (arch) {
        case GpuArch::Hopper:
            // cuBLAS 12 picks nvjet kernels for thin fp16 GEMMs on Hopper, xmma warpgroup kernels otherwise.
            if (thin && dtype == Dtype::Fp16) return "nvjet_hsh_64x8_64x16_4x1_v_bz_splitK_TNT";
            return "sm90_xmma_gemm_" + t + t + "_" + t + "f32_f32_tn_n_tilesize" + (thin ? "64x64x64" : "128x128x64") +
                   "_warpgroupsize1x1x1_execute_segment_k_off_kernel__5x_cublas";
        case GpuArch::Blackwell:
            return "sm100_xmma_gemm_" + t + t + "_" + t + "f32_f32_tn_n_tilesize" + (thin ? "64x64x64" : "256x128x64") +
                   "_cluster1x1x1_execute_segment_k_off_kernel__5x_cublas";
        case GpuArch::Ada:
            return "sm89_xmma_gemm_" + t + t + "_" + t + "f32_f32_tn_n_tilesize" + (thin ? "64x64x32" : "128x128x32") +
                   "_stage4_warpsize2x2x1_tensor16x8x16_kernel";
        case GpuArch::Ampere:
            if (dtype == Dtype::Fp32) return thin ? "ampere_sgemm_32x32_sliced1x4_tn" : "ampere_sgemm_128x64_tn";
            if (dtype == Dtype::Bf16) {
                return thin ? "ampere_bf16_s16816gemm_bf16_64x64_sliced1x2_ldg8_f2f_stages_64x5_tn"
                            : "ampere_bf16_s16816gemm_bf16_128x64_ldg8_f2f_tn";
            }
            return thin ? "ampere_fp16_s16816gemm_fp16_64x64_sliced1x2_ldg8_f2f_stages_64x5_tn"
                        : "ampere_fp16_s16816gemm_fp16_128x64_ldg8_f2f_tn";
    }
    return "gemm";
}

// The op-time model of the GPU the last call asked for, per thread: a simulation costs every op of a
// plan on one GPU, and deriving the model each time would cost more than the op's arithmetic.
const OpTimeModel* cachedOpTimeModel(const GpuSpec& gpu) {
    thread_local std::string id;
    thread_local double bandwidth = -1;
    thread_local double fp16 = -1;
    thread_local int sms = -1;
    thread_local std::optional<OpTimeModel> model;
    if (gpu.id != id || gpu.hbmBytesPerSec != bandwidth || gpu.fp16Flops != fp16 || gpu.sms != sms) {
        model = opTimeModel(gpu);
        id = gpu.id;
        bandwidth = gpu.hbmBytesPerSec;
        fp16 = gpu.fp16Flops;
        sms = gpu.sms;
    }
    return model ? &*model : nullptr;
}

}  // namespace

KernelCost kernelCost(const PlanOp& op, const GpuSpec& gpu, Dtype dtype, const SimParams& params) {
    const auto& eff = params.efficiency(op.eventKind);
    // Non-tensor-core work (norms, softmax) runs on CUDA cores: fp32 peak where the preset has it.
    const bool tensorCore = op.eventKind == EventKind::Gemm || op.eventKind == EventKind::Attention;
    // A GEMM runs at its own dtype's peak (fp8 weights: fp8 tensor cores).
    const Dtype opDtype = op.eventKind == EventKind::Gemm && op.gemm.dtype != Dtype::Unknown ? op.gemm.dtype : dtype;
    double peak = tensorCore ? gpu.peakFlops(opDtype) : gpu.fp32Flops;
    if (peak <= 0) peak = gpu.fp16Flops;
    KernelCost c;
    c.computeNs = peak > 0 && eff.compute > 0 ? op.flops / (peak * eff.compute) * 1e9 : 0;
    const auto bytes = static_cast<double>(op.bytesRead + op.bytesWritten);
    c.memoryNs = gpu.hbmBytesPerSec > 0 && eff.memory > 0 ? bytes / (gpu.hbmBytesPerSec * eff.memory) * 1e9 : 0;
    c.overheadNs = params.kernelOverheadNs;
    if (!params.fittedOpTimes || opFitClass(op.kind) == OpFitClass::None) return c;
    const OpTimeModel* model = cachedOpTimeModel(gpu);
    if (model == nullptr) return c;
    if (const auto t = fittedOpTimeNs(op, *model, gpu, dtype)) {
        // The fits cover the decode batches (1-128 tokens). Beyond them a GEMM turns compute-bound (its
        // compute roofline is the floor; its bandwidth term is the fit's own, measured) and a row kernel
        // streams its rows (the roofline is the floor).
        const double floorNs = opFitClass(op.kind) == OpFitClass::Gemm ? c.computeNs + c.overheadNs : c.rooflineNs();
        c.fittedNs = std::max(*t, floorNs);
    }
    return c;
}

GpuArch gpuArch(const GpuSpec& gpu) {
    const std::string text = lower(gpu.id + " " + gpu.name);
    auto has = [&](std::string_view s) { return text.find(s) != std::string::npos; };
    if (has("b200") || has("b100") || has("gb200") || has("b300") || has("blackwell")) return GpuArch::Blackwell;
    // "h20" also matches the H200.
    if (has("h100") || has("h20") || has("h800") || has("gh200") || has("hopper")) return GpuArch::Hopper;
    if (has("l40") || has("l4 ") || has("4090") || has("ada")) return GpuArch::Ada;
    return GpuArch::Ampere;
}

std::string computeKernelName(const PlanOp& op, GpuArch arch, Dtype dtype, std::int64_t headDim) {
    const std::string t(torchType(dtype));
    switch (op.kind) {
        case OpKind::QkvGemm:
        case OpKind::OProjGemm:
        case OpKind::GateUpGemm:
        case OpKind::DownGemm:
        case OpKind::LmHeadGemm:
            return gemmName(op, arch, dtype);
        case OpKind::Attention: {
            const std::string d = std::to_string(headDim);
            const std::string ct(cutlassType(dtype));
            return "void flash::flash_fwd_splitkv_kernel<Flash_fwd_kernel_traits<" + d +
                   ", 64, 128, 4, false, false, " + ct + ", Flash_kernel_traits<" + d + ", 64, 128, 4, " + ct +
                   "> >, false, true, false, false, true, true, false, false>(Flash_fwd_params)";
        }
        case OpKind::InputNorm:
            if (op.layer == 0) {
                return "void vllm::rms_norm_kernel<" + t + ">(" + t + "*, " + t + " const*, " + t +
                       " const*, float, int, int)";
            }
            [[fallthrough]];
        case OpKind::PostAttnNorm:
        case OpKind::FinalNorm:
            return "void vllm::fused_add_rms_norm_kernel<" + t + ", 8>(" + t + "*, " + t + "*, " + t +
                   " const*, float, int, int)";
        case OpKind::SiluMul:
            return "void vllm::act_and_mul_kernel<" + t + ", &(" + t + " vllm::silu_kernel<" + t + ">(" + t +
                   " const&)), true>(" + t + "*, " + t + " const*, int)";
        case OpKind::Embedding:
            return "void at::native::(anonymous namespace)::indexSelectLargeIndex<" + t +
                   ", long, unsigned int, 2, 2, -2, true>(at::cuda::detail::TensorInfo<" + t +
                   ", unsigned int>, at::cuda::detail::TensorInfo<" + t +
                   " const, unsigned int>, at::cuda::detail::TensorInfo<long const, unsigned int>, int, int, "
                   "unsigned int, unsigned int, long)";
        default:
            return std::string(toString(op.kind));
    }
}

std::string collectiveKernelName(CollectiveOp op, CollectiveAlgo algo, CollectiveProto proto, Dtype dtype) {
    if (algo == CollectiveAlgo::OneShot || algo == CollectiveAlgo::TwoShot) {
        const std::string t = dtype == Dtype::Bf16 ? "__nv_bfloat16" : (dtype == Dtype::Fp32 ? "float" : "__half");
        return std::string("void vllm::cross_device_reduce_") +
               (algo == CollectiveAlgo::OneShot ? "1stage" : "2stage") + "<" + t +
               ", 8>(vllm::RankData*, vllm::RankSignals, vllm::Signal*, " + t + "*, int, int)";
    }
    std::string algoText;
    switch (algo) {
        case CollectiveAlgo::Tree:
            algoText = "TREE";
            break;
        case CollectiveAlgo::Nvls:
            algoText = "NVLS";
            break;
        case CollectiveAlgo::NvlsTree:
            algoText = "NVLS_TREE";
            break;
        case CollectiveAlgo::CollNet:
            algoText = "COLLNET_DIRECT";
            break;
        default:
            algoText = "RING";
            break;
    }
    std::string protoText =
        proto == CollectiveProto::LL128 ? "LL128" : (proto == CollectiveProto::Simple ? "SIMPLE" : "LL");
    switch (op) {
        case CollectiveOp::AllGather:
            return "ncclDevKernel_AllGather_" + algoText + "_" + protoText;
        case CollectiveOp::ReduceScatter:
            return "ncclDevKernel_ReduceScatter_Sum_" + std::string(ncclType(dtype)) + "_" + algoText + "_" + protoText;
        default:
            return "ncclDevKernel_AllReduce_Sum_" + std::string(ncclType(dtype)) + "_" + algoText + "_" + protoText;
    }
}

}  // namespace tpscope::core::sim
