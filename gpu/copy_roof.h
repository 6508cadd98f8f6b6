// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// A measured HBM bandwidth roof per GPU, for the device check to judge a capture against: the
// preset's peak is a datasheet number no kernel reaches.
//
// Input: a device index, a buffer size (0: 1 GiB, or a quarter of the free memory if less) and a
// number of timed copies. Mapping: one device-to-device copy kernel (copy_roof_kernel.cu) per
// repeat, timed with CUDA events after two untimed warm-ups; each copy moves 2 x buffer bytes
// (read and write). Cost: about repeats x 2 x buffer / bandwidth, 20 x 2 GiB / 4 TB/s ~ 10 ms.

#include <cstdint>
#include <vector>

#include "core/util/result.h"

namespace tpscope::gpu {

struct CopyRoof {
    int device = 0;
    std::uint64_t bufferBytes = 0;
    int repeats = 0;
    double bestBytesPerSec = 0;    // the roof: the fastest copy
    double medianBytesPerSec = 0;  // how steady it was
};

// The roof from timed copies of `bufferBytes` each (milliseconds, as cudaEventElapsedTime gives);
// refuses no timings or a non-positive one.
core::Result<CopyRoof> copyRoofFromTimes(int device, std::uint64_t bufferBytes, std::vector<float> copyMs);

core::Result<CopyRoof> measureCopyRoof(int device, std::uint64_t bufferBytes = 0, int repeats = 20);

}  // namespace tpscope::gpu
