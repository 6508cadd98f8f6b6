// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// The device check's bandwidth roof: a plain device-to-device copy with 16-byte loads and stores,
// grid-stride, enough CTAs to cover every SM several times. What it reaches is what a
// memory-bound decode kernel can hope for on this GPU, clocks and ECC included.

#include "gpu/copy_roof_kernel.h"

namespace tpscope::gpu::kernels {

namespace {

__global__ void copy_roof_kernel(const uint4* __restrict__ in, uint4* __restrict__ out, std::size_t count) {
    const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
    for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += stride)
        out[i] = in[i];
}

}  // namespace

cudaError_t copyForRoof(const void* in, void* out, std::size_t bytes, int smCount, cudaStream_t stream) {
    const std::size_t count = bytes / sizeof(uint4);
    if (count == 0) return cudaSuccess;
    constexpr int kThreads = 512;
    const int blocks = (smCount > 0 ? smCount : 1) * 8;
    copy_roof_kernel<<<blocks, kThreads, 0, stream>>>(static_cast<const uint4*>(in), static_cast<uint4*>(out), count);
    return cudaGetLastError();
}

}  // namespace tpscope::gpu::kernels
