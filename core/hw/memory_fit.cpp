// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/hw/memory_fit.h"

#include "core/util/units.h"

namespace tpscope::core {

std::string FitReport::describe(const std::string& gpuName) const {
    // The verdict and the two sizes first: the GUI's runs table shows the start of this text in a
    // narrow Status cell ("does not fit: needs 131.7 GiB per GPU of 71.7 GiB usable ...").
    const std::string sizes = "needs " + formatBytes(static_cast<double>(requiredBytes)) + " per GPU of " +
                              formatBytes(static_cast<double>(usableBytes)) + " usable on " + gpuName;
    if (fits) return "fits: " + sizes;
    return "does not fit: " + sizes + " (short by " + formatBytes(static_cast<double>(shortfallBytes)) + ")";
}

FitReport checkFit(const MemoryEstimate& memory, const GpuSpec& gpu, double usableFraction) {
    FitReport r;
    r.requiredBytes = memory.totalBytesPerGpu();
    r.usableBytes = static_cast<std::uint64_t>(static_cast<double>(gpu.memoryBytes) * usableFraction);
    r.fits = r.requiredBytes <= r.usableBytes;
    r.shortfallBytes = r.fits ? 0 : r.requiredBytes - r.usableBytes;
    return r;
}

int minimumTpThatFits(const PlanConfig& base, const GpuSpec& gpu, const std::vector<int>& candidates,
                      double usableFraction) {
    int best = 0;
    for (const int tp : candidates) {
        PlanConfig c = base;
        c.tp = tp;
        const auto shard = shardModel(c.model, tp, c.moeParallel, c.vocabParallel);
        if (!shard) continue;
        if (!checkFit(estimateMemory(c, *shard), gpu, usableFraction).fits) continue;
        if (best == 0 || tp < best) best = tp;
    }
    return best;
}

}  // namespace tpscope::core
