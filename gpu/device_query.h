// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// Local CUDA devices, through the CUDA runtime. Without a driver or a device every call returns
// one clear error ("no CUDA device: ...") instead of failing at load time.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/util/result.h"

namespace tpscope::gpu {

struct DeviceInfo {
    int index = 0;
    std::string name;
    std::uint64_t memoryBytes = 0;
    int smCount = 0;
    int computeMajor = 0;
    int computeMinor = 0;
};

core::Result<std::vector<DeviceInfo>> listDevices();

// What is wrong with the driver, from cudaDriverGetVersion (0: none loaded) against the CUDA major
// release this build needs (runtimeMajor, 13): a CUDA 12 driver gets "driver too old for CUDA 13,
// need >= 580" (CUDA 13.0 needs driver branch 580) instead of a bare "no CUDA device". Nothing
// when the driver is new enough.
std::optional<std::string> driverProblem(int driverCudaVersion, int runtimeMajor);
// The same for this process's driver and the runtime it was built with.
std::optional<std::string> localDriverProblem();

}  // namespace tpscope::gpu
