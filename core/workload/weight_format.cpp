// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/workload/weight_format.h"

namespace tpscope::core {

namespace {

struct BlockBytes {
    std::uint64_t bytes;
    std::uint64_t weights;
};

BlockBytes blockBytes(WeightFormat f) {
    switch (f) {
        case WeightFormat::Fp32:
            return {4, 1};
        case WeightFormat::Fp8:
            return {1, 1};
        case WeightFormat::Mxfp4:
            return {17, 32};
        case WeightFormat::Nvfp4:
            return {9, 16};
        case WeightFormat::Fp16:
        case WeightFormat::Bf16:
        case WeightFormat::Default:
            break;
    }
    return {2, 1};
}

}  // namespace

std::string_view toString(WeightFormat format) {
    switch (format) {
        case WeightFormat::Default:
            return "default";
        case WeightFormat::Fp32:
            return "fp32";
        case WeightFormat::Fp16:
            return "fp16";
        case WeightFormat::Bf16:
            return "bf16";
        case WeightFormat::Fp8:
            return "fp8";
        case WeightFormat::Mxfp4:
            return "mxfp4";
        case WeightFormat::Nvfp4:
            return "nvfp4";
    }
    return "default";
}

std::optional<WeightFormat> parseWeightFormat(std::string_view text) {
    for (const auto f : {WeightFormat::Default, WeightFormat::Fp32, WeightFormat::Fp16, WeightFormat::Bf16,
                         WeightFormat::Fp8, WeightFormat::Mxfp4, WeightFormat::Nvfp4}) {
        if (text == toString(f)) return f;
    }
    return std::nullopt;
}

WeightFormat resolveFormat(WeightFormat format, Dtype fallback) {
    if (format != WeightFormat::Default) return format;
    switch (fallback) {
        case Dtype::Fp8:
            return WeightFormat::Fp8;
        case Dtype::Fp32:
            return WeightFormat::Fp32;
        case Dtype::Bf16:
            return WeightFormat::Bf16;
        default:
            return WeightFormat::Fp16;
    }
}

std::uint64_t weightBytes(std::uint64_t weights, WeightFormat format, Dtype fallback) {
    const BlockBytes b = blockBytes(resolveFormat(format, fallback));
    return (weights + b.weights - 1) / b.weights * b.bytes;
}

double bitsPerWeight(WeightFormat format, Dtype fallback) {
    const BlockBytes b = blockBytes(resolveFormat(format, fallback));
    return 8.0 * static_cast<double>(b.bytes) / static_cast<double>(b.weights);
}

Dtype gemmDtype(WeightFormat format, Dtype activation) {
    switch (format) {
        case WeightFormat::Fp8:
            return Dtype::Fp8;
        case WeightFormat::Fp32:
            return Dtype::Fp32;
        case WeightFormat::Fp16:
            return Dtype::Fp16;
        case WeightFormat::Bf16:
            return Dtype::Bf16;
        default:
            return activation;
    }
}

}  // namespace tpscope::core
