// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/util/statistics.h"

#include <algorithm>
#include <cmath>

namespace tpscope::core {

double percentile(std::vector<double> values, double p) {
    return percentileInPlace(values, p);
}

double percentileInPlace(std::vector<double>& values, double p) {
    if (values.empty()) return 0;
    const auto [lo, hi, fraction] = percentilePosition(values.size(), p);
    // The values a full sort would put at lo and hi: nth_element leaves everything after lo no
    // smaller, so the (lo + 1)-th is the least of them.
    std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(lo), values.end());
    const double atLo = values[lo];
    const double atHi =
        hi == lo ? atLo : *std::min_element(values.begin() + static_cast<std::ptrdiff_t>(hi), values.end());
    return atLo + (atHi - atLo) * fraction;
}

}  // namespace tpscope::core
