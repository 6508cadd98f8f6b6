// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// Local CUDA devices, through the CUDA runtime. Without a driver or a device every call returns
// one clear error ("no CUDA device: ...") instead of failing at load time.

#include <cstdint>
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

}  // namespace tpscope::gpu
