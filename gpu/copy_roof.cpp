// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "gpu/copy_roof.h"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <string>
#include <utility>

#include "gpu/copy_roof_kernel.h"
#include "gpu/gpu_check.h"

namespace tpscope::gpu {

namespace {

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
    TPSCOPE_GPU_CHECK(cudaSetDevice(device));
    cudaDeviceProp prop{};
    TPSCOPE_GPU_CHECK(cudaGetDeviceProperties(&prop, device));
    if (bufferBytes == 0) {
        std::size_t freeBytes = 0, totalBytes = 0;
        TPSCOPE_GPU_CHECK(cudaMemGetInfo(&freeBytes, &totalBytes));
        bufferBytes = std::min<std::uint64_t>(std::uint64_t{1} << 30, freeBytes / 4);
    }
    bufferBytes -= bufferBytes % 16;
    if (bufferBytes < (std::uint64_t{1} << 20)) {
        return core::makeError(core::ErrorCode::DeviceError, "too little free GPU memory for a copy roof (< 2 MiB)",
                               "copy roof");
    }
    CopyResources r;
    TPSCOPE_GPU_CHECK(cudaMalloc(&r.in, bufferBytes));
    TPSCOPE_GPU_CHECK(cudaMalloc(&r.out, bufferBytes));
    TPSCOPE_GPU_CHECK(cudaMemset(r.in, 1, bufferBytes));
    TPSCOPE_GPU_CHECK(cudaEventCreate(&r.start));
    TPSCOPE_GPU_CHECK(cudaEventCreate(&r.stop));
    std::vector<float> times;
    for (int i = -2; i < repeats; ++i) {  // two warm-ups: clocks up, TLBs filled
        TPSCOPE_GPU_CHECK(cudaEventRecord(r.start, nullptr));
        TPSCOPE_GPU_CHECK(kernels::copyForRoof(r.in, r.out, bufferBytes, prop.multiProcessorCount, nullptr));
        TPSCOPE_GPU_CHECK(cudaEventRecord(r.stop, nullptr));
        TPSCOPE_GPU_CHECK(cudaEventSynchronize(r.stop));
        float ms = 0;
        TPSCOPE_GPU_CHECK(cudaEventElapsedTime(&ms, r.start, r.stop));
        if (i >= 0) times.push_back(ms);
    }
    return copyRoofFromTimes(device, bufferBytes, std::move(times));
}

}  // namespace tpscope::gpu
