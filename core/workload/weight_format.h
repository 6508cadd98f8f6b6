// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// The storage format of a model part's weights, with the block-scale overhead of the micro-scaled
// 4-bit formats counted in its bytes. A format is exact integer bytes per block, so weight bytes add up
// without rounding drift: bf16/fp16 2 B per weight, fp8 1 B, MXFP4 17 B per 32 weights (32 E2M1
// values + one E8M0 scale: OCP Microscaling Formats (MX) Specification v1.0, block size 32),
// NVFP4 9 B per 16 weights (16 E2M1 values + one E4M3 scale: NVIDIA, "Introducing NVFP4 for
// Efficient and Accurate Low-Precision Inference", 16-value micro-blocks; its one fp32 per-tensor
// scale is left out). fp8 with DeepSeek-V3's 128x128 block scales adds 4 B per 16,384 weights
// (0.02 %), also left out.

#include <cstdint>
#include <optional>
#include <string_view>

#include "core/trace/event_kind.h"

namespace tpscope::core {

enum class WeightFormat : std::uint8_t { Default, Fp32, Fp16, Bf16, Fp8, Mxfp4, Nvfp4 };

std::string_view toString(WeightFormat format);  // "default", "fp32", "fp16", "bf16", "fp8", "mxfp4", "nvfp4"
std::optional<WeightFormat> parseWeightFormat(std::string_view text);

// A format resolved against the plan: Default takes the dtype given.
WeightFormat resolveFormat(WeightFormat format, Dtype fallback);
// Bytes of `weights` weights stored in the format, rounded up to whole blocks.
std::uint64_t weightBytes(std::uint64_t weights, WeightFormat format, Dtype fallback);
// Bits per weight, scales included (MXFP4 4.25, NVFP4 4.5).
double bitsPerWeight(WeightFormat format, Dtype fallback);
// The dtype the GEMM's tensor cores run in: fp8 weights run W8A8 fp8 GEMMs; 4-bit weights are
// dequantised in the kernel and multiplied at the activation dtype (the W4A16 path vLLM's Triton
// matmul_ogs takes for MXFP4 on Hopper), so their peak is the activation dtype's.
Dtype gemmDtype(WeightFormat format, Dtype activation);

}  // namespace tpscope::core
