// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/calc/amdahl.h"

#include <cmath>
#include <limits>

namespace tpscope::core {

double amdahlSpeedup(double serialFraction, double gpus) {
    return 1.0 / (serialFraction + (1.0 - serialFraction) / gpus);
}

Result<AmdahlTable> amdahlTable(double serialFraction, const std::vector<int>& gpus) {
    if (!std::isfinite(serialFraction) || serialFraction < 0.0 || serialFraction > 1.0) {
        return makeError(ErrorCode::InvalidArgument, "the serial fraction must be between 0 and 1", "serial");
    }
    AmdahlTable t;
    t.serialFraction = serialFraction;
    t.maxSpeedup = serialFraction > 0 ? 1.0 / serialFraction : std::numeric_limits<double>::infinity();
    for (const int n : gpus) {
        if (n <= 0) return makeError(ErrorCode::InvalidArgument, "GPU counts must be positive", "gpus");
        const double s = amdahlSpeedup(serialFraction, n);
        t.points.push_back({n, s, s / n});
    }
    return t;
}

}  // namespace tpscope::core
