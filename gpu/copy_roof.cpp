// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "gpu/copy_roof.h"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <string>
#include <utility>

#include "gpu/copy_roof_kernel.h"

namespace tpscope::gpu {

namespace {

core::Error cudaFailure(cudaError_t err, const char* what) {
    return core::makeError(core::ErrorCode::DeviceError, std::string(what) + ": " + cudaGetErrorString(err),
                           "copy roof");
}

// Device buffers and events freed on every exit path.
struct CopyResources {
    void* in = nullptr;
    void* out = nullptr;
    cudaEvent_t start = nullptr, stop = nullptr;
    ~CopyResources() {
        if (start != nullptr) cudaEventDestroy(start);
        if (stop != nullptr) cudaEventDestroy(stop);
        if (in != nullptr) cudaFree(in);
        if (out != nullptr) cudaFree(out);
    }
};

}  // namespace

core::Result<CopyRoof> copyRoofFromTimes(int device, std::uint64_t bufferBytes, std::vector<float> copyMs) {
    if (copyMs.empty() || bufferBytes == 0) {
        return core::makeError(core::ErrorCode::InvalidArgument, "no timed copies to take a roof from", "copy roof");
    }
    if (*std::min_element(copyMs.begin(), copyMs.end()) <= 0.0F) {
        return core::makeError(core::ErrorCode::DeviceError, "a timed copy took no time: the GPU timer is broken",
                               "copy roof");
    }
    std::sort(copyMs.begin(), copyMs.end());
    const double moved = 2.0 * static_cast<double>(bufferBytes);  // read + write
    const auto rate = [moved](double ms) { return moved / (ms * 1e-3); };
    const std::size_t n = copyMs.size();
    const double medianMs = n % 2 == 1 ? copyMs[n / 2] : 0.5 * (copyMs[n / 2 - 1] + copyMs[n / 2]);
    return CopyRoof{device, bufferBytes, static_cast<int>(n), rate(copyMs.front()), rate(medianMs)};
}

core::Result<CopyRoof> measureCopyRoof(int device, std::uint64_t bufferBytes, int repeats) {
    if (repeats < 1) return core::makeError(core::ErrorCode::InvalidArgument, "repeats must be >= 1", "copy roof");
    if (cudaError_t e = cudaSetDevice(device); e != cudaSuccess) return cudaFailure(e, "cudaSetDevice");
    cudaDeviceProp prop{};
    if (cudaError_t e = cudaGetDeviceProperties(&prop, device); e != cudaSuccess)
        return cudaFailure(e, "cudaGetDeviceProperties");
    if (bufferBytes == 0) {
        std::size_t freeBytes = 0, totalBytes = 0;
        if (cudaError_t e = cudaMemGetInfo(&freeBytes, &totalBytes); e != cudaSuccess)
            return cudaFailure(e, "cudaMemGetInfo");
        bufferBytes = std::min<std::uint64_t>(std::uint64_t{1} << 30, freeBytes / 4);
    }
    bufferBytes -= bufferBytes % 16;
    if (bufferBytes < (std::uint64_t{1} << 20)) {
        return core::makeError(core::ErrorCode::DeviceError, "too little free GPU memory for a copy roof (< 2 MiB)",
                               "copy roof");
    }
    CopyResources r;
    if (cudaError_t e = cudaMalloc(&r.in, bufferBytes); e != cudaSuccess) return cudaFailure(e, "cudaMalloc");
    if (cudaError_t e = cudaMalloc(&r.out, bufferBytes); e != cudaSuccess) return cudaFailure(e, "cudaMalloc");
    if (cudaError_t e = cudaMemset(r.in, 1, bufferBytes); e != cudaSuccess) return cudaFailure(e, "cudaMemset");
    if (cudaError_t e = cudaEventCreate(&r.start); e != cudaSuccess) return cudaFailure(e, "cudaEventCreate");
    if (cudaError_t e = cudaEventCreate(&r.stop); e != cudaSuccess) return cudaFailure(e, "cudaEventCreate");
    std::vector<float> times;
    for (int i = -2; i < repeats; ++i) {  // two warm-ups: clocks up, TLBs filled
        cudaEventRecord(r.start, nullptr);
        if (cudaError_t e = kernels::copyForRoof(r.in, r.out, bufferBytes, prop.multiProcessorCount, nullptr);
            e != cudaSuccess)
            return cudaFailure(e, "copy kernel launch");
        cudaEventRecord(r.stop, nullptr);
        if (cudaError_t e = cudaEventSynchronize(r.stop); e != cudaSuccess) return cudaFailure(e, "copy kernel");
        float ms = 0;
        if (cudaError_t e = cudaEventElapsedTime(&ms, r.start, r.stop); e != cudaSuccess)
            return cudaFailure(e, "cudaEventElapsedTime");
        if (i >= 0) times.push_back(ms);
    }
    return copyRoofFromTimes(device, bufferBytes, std::move(times));
}

}  // namespace tpscope::gpu
