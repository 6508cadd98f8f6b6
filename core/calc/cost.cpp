// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/calc/cost.h"
#include "core/calc/cost_target.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace tpscope::core {

double costPerMillionTokens(int gpus, double pricePerGpuHour, double tokensPerSec) {
    const double millionTokensPerHour = tokensPerSec * 3600.0 / 1e6;
    return static_cast<double>(gpus) * pricePerGpuHour / millionTokensPerHour;
}

bool meetsTarget(const CostCandidate& c, double maxStepLatencyMs, double minTokensPerSec) {
    if (!std::isfinite(c.stepLatencyMs) || !std::isfinite(c.tokensPerSec) ||
        !std::isfinite(c.dollarsPerMillionTokens)) {
        return false;
    }
    // NaN limits compare false, so a NaN target admits nothing.
    return c.stepLatencyMs <= maxStepLatencyMs && c.tokensPerSec >= minTokensPerSec;
}

std::optional<std::size_t> cheapestMeeting(const std::vector<CostCandidate>& candidates, double maxStepLatencyMs,
                                           double minTokensPerSec) {
    std::optional<std::size_t> best;
    for (std::size_t i = 0; i < candidates.size(); ++i) {
        const auto& c = candidates[i];
        if (!meetsTarget(c, maxStepLatencyMs, minTokensPerSec)) continue;
        if (!best) {
            best = i;
            continue;
        }
        const auto& b = candidates[*best];
        if (c.dollarsPerMillionTokens < b.dollarsPerMillionTokens ||
            (c.dollarsPerMillionTokens == b.dollarsPerMillionTokens && c.gpus < b.gpus)) {
            best = i;
        }
    }
    return best;
}

Result<CostTable> costTable(double pricePerGpuHour, std::vector<std::pair<int, double>> throughputs) {
    if (!std::isfinite(pricePerGpuHour) || pricePerGpuHour <= 0) {
        return makeError(ErrorCode::InvalidArgument, "the price per GPU-hour must be a positive number",
                         "price-per-gpu-hour");
    }
    if (throughputs.empty()) return makeError(ErrorCode::InvalidArgument, "no throughput given", "throughput");
    std::sort(throughputs.begin(), throughputs.end());
    for (std::size_t i = 0; i < throughputs.size(); ++i) {
        const auto [gpus, tps] = throughputs[i];
        if (gpus <= 0 || !std::isfinite(tps) || tps <= 0) {
            return makeError(ErrorCode::InvalidArgument, "each entry needs a positive GPU count and tokens/s",
                             "throughput " + std::to_string(gpus));
        }
        if (i > 0 && throughputs[i - 1].first == gpus) {
            return makeError(ErrorCode::InvalidArgument, "GPU count given twice", "throughput " + std::to_string(gpus));
        }
    }
    CostTable t;
    t.pricePerGpuHour = pricePerGpuHour;
    t.baselineGpus = throughputs.front().first;
    const double baseCost = costPerMillionTokens(t.baselineGpus, pricePerGpuHour, throughputs.front().second);
    for (const auto& [gpus, tps] : throughputs) {
        CostRow row;
        row.gpus = gpus;
        row.tokensPerSec = tps;
        row.costPerMillionTokens = costPerMillionTokens(gpus, pricePerGpuHour, tps);
        row.premiumVsBaseline = row.costPerMillionTokens / baseCost - 1.0;
        row.speedupVsBaseline = tps / throughputs.front().second;
        t.rows.push_back(row);
    }
    return t;
}

}  // namespace tpscope::core
