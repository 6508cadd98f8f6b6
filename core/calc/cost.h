// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// Serving cost: $ per million tokens = N x price per GPU-hour / (tokens/s x 3600 / 1e6), and the
// premium of N GPUs over the baseline (1 GPU when given, else the smallest count given).
// cheapestMeeting picks, among measured or simulated configurations, the cheapest one that meets a
// latency target and a throughput floor (the Cost tab's highlight, `plan-capacity`). O(candidates).

#include <cstddef>
#include <optional>
#include <utility>
#include <vector>

#include "core/util/result.h"

namespace tpscope::core {

struct CostRow {
    int gpus = 1;
    double tokensPerSec = 0;
    double costPerMillionTokens = 0;
    double premiumVsBaseline = 0;  // cost / baseline cost - 1
    double speedupVsBaseline = 0;  // throughput / baseline throughput
};

struct CostTable {
    double pricePerGpuHour = 0;
    int baselineGpus = 1;
    std::vector<CostRow> rows;  // sorted by gpus
};

double costPerMillionTokens(int gpus, double pricePerGpuHour, double tokensPerSec);

// One serving configuration to choose among (the capacity planner's and the Cost tab's rows).
struct CostCandidate {
    int gpus = 0;
    int batch = 0;
    double tokensPerSec = 0;
    double stepLatencyMs = 0;
    double dollarsPerMillionTokens = 0;
};

// The index of the lowest $/Mtok candidate whose step latency is at most maxStepLatencyMs and whose
// throughput is at least minTokensPerSec; ties go to fewer GPUs, then to the earlier candidate. nullopt
// when none meets both; candidates with non-finite numbers and NaN limits admit nothing. O(n).
std::optional<std::size_t> cheapestMeeting(const std::vector<CostCandidate>& candidates, double maxStepLatencyMs,
                                           double minTokensPerSec = 0);
// throughputs: (gpus, tokens/s) pairs; each gpus value at most once.
Result<CostTable> costTable(double pricePerGpuHour, std::vector<std::pair<int, double>> throughputs);

}  // namespace tpscope::core
