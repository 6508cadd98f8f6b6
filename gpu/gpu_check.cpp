// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "gpu/gpu_check.h"

#include <cupti.h>

#include <filesystem>

#include "gpu/device_query.h"

// Mixed headers (a wheel's cuda_runtime_api.h before the toolkit's) would compile against another
// runtime than the one linked; the include order prevents it and this proves it for every build.
static_assert(CUDART_VERSION == TPSCOPE_CUDA_TOOLKIT_MAJOR * 1000 + TPSCOPE_CUDA_TOOLKIT_MINOR * 10,
              "the CUDA runtime headers are not the toolkit's (check the include order)");

namespace tpscope::gpu {

std::optional<std::string> failureText(cudaError_t status) {
    if (status == cudaSuccess) return std::nullopt;
    const std::string text = std::string(cudaGetErrorName(status)) + " (" + cudaGetErrorString(status) + ")";
    if (status == cudaErrorInsufficientDriver) {
        if (auto driver = localDriverProblem()) return "no CUDA device: " + *driver + " [" + text + "]";
    }
    if (status == cudaErrorNoDevice || status == cudaErrorInsufficientDriver ||
        status == cudaErrorInitializationError) {
        return "no CUDA device: " + text;
    }
    return "CUDA error " + text;
}

std::optional<std::string> failureText(cublasStatus_t status) {
    if (status == CUBLAS_STATUS_SUCCESS) return std::nullopt;
    return std::string("cuBLAS error ") + cublasGetStatusName(status) + " (" + cublasGetStatusString(status) + ")";
}

std::optional<std::string> failureText(ncclResult_t status) {
    if (status == ncclSuccess || status == ncclInProgress) return std::nullopt;
    const char* last = ncclGetLastError(nullptr);
    std::string text = std::string("NCCL error: ") + ncclGetErrorString(status);
    if (last != nullptr && *last != '\0') text += " (" + std::string(last) + ")";
    return text;
}

std::optional<std::string> failureText(CUptiResult status) {
    if (status == CUPTI_SUCCESS) return std::nullopt;
    const char* text = nullptr;
    cuptiGetResultString(status, &text);
    return std::string("CUPTI error: ") + (text != nullptr ? text : "unknown");
}

core::Error gpuError(const std::string& text, const char* call, const char* file, int line) {
    return core::makeError(
        core::ErrorCode::DeviceError, text,
        std::string(call) + " at " + std::filesystem::path(file).filename().string() + ":" + std::to_string(line));
}

}  // namespace tpscope::gpu
