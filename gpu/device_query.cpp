// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "gpu/device_query.h"

#include <cuda_runtime_api.h>

namespace tpscope::gpu {

std::optional<std::string> driverProblem(int driverCudaVersion, int runtimeMajor) {
    if (driverCudaVersion <= 0) return std::string("no NVIDIA driver is loaded (libcuda.so.1 not found)");
    const int major = driverCudaVersion / 1000, minor = driverCudaVersion % 1000 / 10;
    if (major >= runtimeMajor) return std::nullopt;
    std::string text = "driver too old for CUDA " + std::to_string(runtimeMajor) + " (it supports CUDA " +
                       std::to_string(major) + "." + std::to_string(minor) + ")";
    // CUDA 13.0 needs the R580 driver branch (CUDA 13.0 release notes, "CUDA Toolkit and Corresponding
    // Driver Versions": 580.65.06 for 13.0 GA).
    if (runtimeMajor == 13) text += ", need >= 580";
    return text + "; update the NVIDIA driver";
}

std::optional<std::string> localDriverProblem() {
    int driver = 0;
    if (cudaDriverGetVersion(&driver) != cudaSuccess) driver = 0;
    return driverProblem(driver, CUDART_VERSION / 1000);
}

core::Result<std::vector<DeviceInfo>> listDevices() {
    int count = 0;
    const cudaError_t err = cudaGetDeviceCount(&count);
    if (err != cudaSuccess) {
        const auto driver = err == cudaErrorInsufficientDriver ? localDriverProblem() : std::nullopt;
        return core::makeError(core::ErrorCode::DeviceError,
                               std::string("no CUDA device: ") + driver.value_or(cudaGetErrorString(err)),
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
