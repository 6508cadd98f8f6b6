// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// Amdahl's law: speedup(N) = 1 / (S + (1 - S) / N) for a serial fraction S; the limit is 1 / S.

#include <vector>

#include "core/util/result.h"

namespace tpscope::core {

struct AmdahlPoint {
    int gpus = 1;
    double speedup = 1;
    double efficiency = 1;  // speedup / gpus
};

struct AmdahlTable {
    double serialFraction = 0;
    double maxSpeedup = 0;  // 1 / S; +infinity for S = 0
    std::vector<AmdahlPoint> points;
};

double amdahlSpeedup(double serialFraction, double gpus);
Result<AmdahlTable> amdahlTable(double serialFraction, const std::vector<int>& gpus);

}  // namespace tpscope::core
