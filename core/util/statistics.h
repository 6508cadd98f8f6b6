// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// Order statistics of a sample, one definition for every report (run summary latencies, captured
// step times, measured all-reduce times): linear interpolation between the closest ranks, the
// definition of numpy's default percentile, so a median of an even count is the mean of the two
// middle values. Cost: O(n) (selects the two closest ranks; percentile works on a copy).

#include <utility>
#include <vector>

namespace tpscope::core {

// p in [0, 1] (clamped) of unsorted values; 0 for none.
double percentile(std::vector<double> values, double p);
// The same value without the copy, for samples too large to copy (tens of millions); reorders `values`.
double percentileInPlace(std::vector<double>& values, double p);
inline double median(std::vector<double> values) {
    return percentile(std::move(values), 0.5);
}

}  // namespace tpscope::core
