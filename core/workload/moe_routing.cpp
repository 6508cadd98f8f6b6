// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/workload/moe_routing.h"

#include <algorithm>
#include <cmath>

namespace tpscope::core {

double expectedTouchedExperts(std::int64_t experts, std::int64_t topK, std::int64_t tokens, double skew) {
    if (experts <= 0 || topK <= 0 || tokens <= 0) return 0;
    const auto e = static_cast<double>(experts);
    const auto k = static_cast<double>(std::min(topK, experts));
    const auto b = static_cast<double>(tokens);
    if (skew <= 0) return e * (1.0 - std::pow(1.0 - k / e, b));
    double norm = 0;
    for (std::int64_t i = 1; i <= experts; ++i) norm += std::pow(static_cast<double>(i), -skew);
    double touched = 0;
    for (std::int64_t i = 1; i <= experts; ++i) {
        const double p = std::min(1.0, k * std::pow(static_cast<double>(i), -skew) / norm);
        touched += 1.0 - std::pow(1.0 - p, b);
    }
    return touched;
}

std::int64_t batchForExpertFraction(std::int64_t experts, std::int64_t topK, double fraction, double skew) {
    if (experts <= 0 || topK <= 0 || !(fraction > 0) || !(fraction < 1)) return -1;
    const double target = fraction * static_cast<double>(experts);
    constexpr std::int64_t kMaxBatch = std::int64_t{1} << 30;
    if (expectedTouchedExperts(experts, topK, kMaxBatch, skew) < target) return -1;
    // The expectation grows with the batch: binary search the first batch that reaches the target.
    std::int64_t lo = 1;
    std::int64_t hi = kMaxBatch;
    while (lo < hi) {
        const std::int64_t mid = lo + (hi - lo) / 2;
        if (expectedTouchedExperts(experts, topK, mid, skew) >= target) {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    return lo;
}

}  // namespace tpscope::core
