// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/calc/roofline.h"

#include <algorithm>

namespace tpscope::core {

Result<RooflineReport> roofline(const DecodePlan& plan, const GpuSpec& gpu) {
    const double peak = gpu.peakFlops(plan.config.dtype);
    if (peak <= 0) {
        return makeError(ErrorCode::Unsupported,
                         std::string(gpu.name) + " has no " + std::string(toString(plan.config.dtype)) +
                             " tensor-core peak in the catalog",
                         gpu.id);
    }
    RooflineReport r;
    const double bytes = static_cast<double>(plan.bytesReadPerStep + plan.bytesWrittenPerStep);
    r.arithmeticIntensity = plan.arithmeticIntensity();
    r.crossover = gpu.rooflineCrossover(plan.config.dtype);
    r.memoryBound = r.arithmeticIntensity < r.crossover;
    r.computeTimeNs = plan.flopsPerStep / peak * 1e9;
    r.memoryTimeNs = bytes / gpu.hbmBytesPerSec * 1e9;
    r.stepLowerBoundNs = std::max(r.computeTimeNs, r.memoryTimeNs);
    r.attainableFlops = std::min(peak, r.arithmeticIntensity * gpu.hbmBytesPerSec);
    return r;
}

}  // namespace tpscope::core
