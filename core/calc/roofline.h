// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// Roofline of a decode step on a GPU: arithmetic intensity (FLOP per byte of HBM traffic), the
// GPU's crossover (peak FLOP/s / HBM bytes/s) and the lower-bound step time
// max(FLOPs / peak, bytes / HBM bandwidth), without collectives.

#include "core/hw/gpu_spec.h"
#include "core/util/result.h"
#include "core/workload/decode_plan.h"

namespace tpscope::core {

struct RooflineReport {
    double arithmeticIntensity = 0;  // FLOP / byte over the whole step
    double crossover = 0;            // FLOP / byte where the GPU turns compute-bound
    bool memoryBound = true;
    double computeTimeNs = 0;     // FLOPs / peak
    double memoryTimeNs = 0;      // bytes / HBM bandwidth
    double stepLowerBoundNs = 0;  // max of the two
    double attainableFlops = 0;   // min(peak, AI x bandwidth)
};

Result<RooflineReport> roofline(const DecodePlan& plan, const GpuSpec& gpu);

}  // namespace tpscope::core
