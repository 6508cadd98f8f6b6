// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "gpu/device_query.h"

#include <cuda_runtime_api.h>

namespace tpscope::gpu {

core::Result<std::vector<DeviceInfo>> listDevices() {
    int count = 0;
    const cudaError_t err = cudaGetDeviceCount(&count);
    if (err != cudaSuccess) {
        return core::makeError(core::ErrorCode::DeviceError, std::string("no CUDA device: ") + cudaGetErrorString(err),
                               "cudaGetDeviceCount");
    }
    if (count == 0) return core::makeError(core::ErrorCode::DeviceError, "no CUDA device: the driver reports 0 GPUs");
    std::vector<DeviceInfo> devices;
    for (int i = 0; i < count; ++i) {
        cudaDeviceProp prop{};
        if (cudaGetDeviceProperties(&prop, i) != cudaSuccess) continue;
        devices.push_back({i, prop.name, prop.totalGlobalMem, prop.multiProcessorCount, prop.major, prop.minor});
    }
    return devices;
}

}  // namespace tpscope::gpu
