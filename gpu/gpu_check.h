// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// One checking macro for every CUDA runtime, cuBLAS, NCCL and CUPTI call: a failure becomes a
// core::Error (DeviceError) naming the library's message, the call, the file and the line.
// "No driver" and "no device" come out as "no CUDA device: ...", the message DESIGN.md §7 asks for.

#include <cublas_v2.h>
#include <cuda_runtime_api.h>
#include <cupti_result.h>
#include <nccl.h>

#include <optional>
#include <string>

#include "core/util/result.h"

namespace tpscope::gpu {

// The failure text of a status, or nothing for success (ncclInProgress counts as success).
std::optional<std::string> failureText(cudaError_t status);
std::optional<std::string> failureText(cublasStatus_t status);
std::optional<std::string> failureText(ncclResult_t status);
std::optional<std::string> failureText(CUptiResult status);

core::Error gpuError(const std::string& text, const char* call, const char* file, int line);

}  // namespace tpscope::gpu

// Use inside functions returning core::Status or core::Result<T>.
#define TPSCOPE_GPU_CHECK(call)                                                             \
    do {                                                                                    \
        if (auto tpscopeGpuFailure = ::tpscope::gpu::failureText(call)) {                   \
            return ::tpscope::gpu::gpuError(*tpscopeGpuFailure, #call, __FILE__, __LINE__); \
        }                                                                                   \
    } while (0)
