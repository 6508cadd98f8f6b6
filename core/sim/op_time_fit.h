// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// Decode kernel times fitted to measured per-op times (issue 44), used by kernelCost
// (core/sim/kernel_model.h) in place of the roofline for the ops it covers.
//
// Data: Vidur's per-op GPU times of 6-8 models on A100 and H100 at TP 1-8 and 1-512 tokens
// (traces/public/vidur-compute-profiling), fitted by scripts/fit-op-times.py into
// resources/calibration/op_time_fit.json (embedded; the script writes the provenance and the
// leave-one-model-out errors into it; docs/simulator.md has the table).
// Forms (the script's header says why they have this shape):
//   dense GEMM   t = fixed + W x a + min(W, ramp) x r + k x d + 2mnk x b + m(k+n) x element bytes x c
//                (W = weight bytes, k = reduction depth); one coefficient set for one token (cuBLAS's
//                GEMV-class kernels), one for 2+ tokens (tensor-core GEMMs)
//   row kernels  t = fixed + width x a + rows x width x element bytes x b
//   (norms, SiLU*mul)
// both fitted on 1-128 tokens; kernelCost keeps them above the roofline (GEMMs: its compute term),
// which takes over for larger batches.
// Op classes: the plan's dense GEMMs (QKV, O, gate/up, down, LM head, MLA up-projections, the MoE
// router) use the GEMM fit; the fused add + RMSNorm ops the norm fit; SiLU*mul the activation fit.
// Attention, the MoE grouped GEMMs, top-k and the embedding keep the roofline (not measured).
// GPUs without data: the nearest measured GPU (Hopper, Blackwell: H100; Ampere, Ada, others:
// A100) with its bandwidth terms scaled by the HBM bandwidth ratio, the FLOP term by the tensor
// peak ratio, the per-width term by the per-SM bandwidth ratio (one block per row runs on one SM);
// the per-k term (one block's walk along k) by the per-SM bandwidth ratio, the fixed cost kept. Such a
// model says "derived, not measured" in its description.
// fp8 GEMMs on a measured GPU: the measured (fp16) fit with the FLOP term scaled by the fp16/fp8 peak.

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/hw/gpu_spec.h"
#include "core/util/result.h"
#include "core/workload/decode_plan.h"

namespace tpscope::core::sim {

enum class OpFitClass : std::uint8_t { None, Gemm, Norm, Activation, Rope, ResidualAdd };
std::string_view toString(OpFitClass cls);
// The fit class a plan op is timed by; None: the roofline.
OpFitClass opFitClass(OpKind kind);

struct GemmTimeFit {
    double fixedNs = 0;
    double nsPerWeightByte = 0;
    double rampBytes = 0;              // the first rampBytes of the weights stream slower...
    double nsPerRampByte = 0;          // ...by this much per byte
    double nsPerReductionElement = 0;  // per element of k, the reduction depth
    double nsPerFlop = 0;
    double nsPerActivationByte = 0;
    double timeNs(double weightBytes, double k, double flops, double activationBytes) const {
        return fixedNs + weightBytes * nsPerWeightByte + std::min(weightBytes, rampBytes) * nsPerRampByte +
               k * nsPerReductionElement + flops * nsPerFlop + activationBytes * nsPerActivationByte;
    }
};

struct RowTimeFit {
    double fixedNs = 0;
    double nsPerWidth = 0;
    double nsPerByte = 0;
    double timeNs(double width, double bytes) const { return fixedNs + width * nsPerWidth + bytes * nsPerByte; }
};

// One measured GPU's fits (a resources/calibration/op_time_fit.json "gpus" entry).
struct GpuOpTimeFit {
    std::string gpuId;  // the preset the data was measured on
    GemmTimeFit gemv;   // one token
    GemmTimeFit gemm;   // 2+ tokens
    const GemmTimeFit& gemmFor(std::int64_t tokens) const { return tokens <= 1 ? gemv : gemm; }
    RowTimeFit norm;
    RowTimeFit activation;
    RowTimeFit rope;
    RowTimeFit residualAdd;
    const RowTimeFit* row(OpFitClass cls) const;
};

struct OpTimeFits {
    std::string source;  // where the data comes from
    std::vector<GpuOpTimeFit> gpus;
    const GpuOpTimeFit* find(std::string_view gpuId) const;
};

Result<OpTimeFits> parseOpTimeFits(std::string_view json, const std::string& where);
// The embedded fits; the program stops with a message if the embedded file is broken (a build error).
const OpTimeFits& builtinOpTimeFits();

// The fits that time one GPU's ops: its own, or derived from the nearest measured GPU.
struct OpTimeModel {
    GpuOpTimeFit fit;        // coefficients for this GPU (scaled when derived)
    std::string measuredOn;  // the measured GPU the coefficients come from
    bool derived = false;
    // "a100-sxm fit (Vidur, measured)" or "derived from h100-sxm (bandwidth, SMs), not measured".
    std::string description() const;
};
// Empty when the GPU preset lacks the numbers to derive from (no HBM bandwidth).
std::optional<OpTimeModel> opTimeModel(const GpuSpec& gpu, const OpTimeFits& fits = builtinOpTimeFits());

// The fitted time of one plan op in ns; empty when the op's class has no fit (the roofline times it).
// `dtype` is the plan's activation dtype (element bytes of the activations and rows).
std::optional<double> fittedOpTimeNs(const PlanOp& op, const OpTimeModel& model, const GpuSpec& gpu, Dtype dtype);

// What a dense GEMM y[m x n] = x[m x k] W^T in `dtype` (weights and activations) should take on `gpu`
// by the fit, never below its compute roofline at full peak: the expectation a trace analysis sets a
// measured GEMM of that shape against. Empty when the GPU preset lacks the numbers.
std::optional<double> expectedGemmNs(std::int64_t m, std::int64_t n, std::int64_t k, Dtype dtype, const GpuSpec& gpu);

}  // namespace tpscope::core::sim
