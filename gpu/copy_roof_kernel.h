// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// The copy kernel behind the measured bandwidth roof (copy_roof.h). C++17: nvcc compiles it.

#include <cuda_runtime_api.h>

#include <cstddef>

namespace tpscope::gpu::kernels {

// Copies the first bytes / 16 * 16 bytes of in to out on the stream; returns the launch error.
// Both buffers 16-byte aligned (cudaMalloc's are).
cudaError_t copyForRoof(const void* in, void* out, std::size_t bytes, int smCount, cudaStream_t stream);

}  // namespace tpscope::gpu::kernels
