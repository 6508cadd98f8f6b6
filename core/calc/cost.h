#pragma once
// Serving cost: $ per million tokens = N x price per GPU-hour / (tokens/s x 3600 / 1e6), and the
// premium of N GPUs over the baseline (1 GPU when given, else the smallest count given).

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
// throughputs: (gpus, tokens/s) pairs; each gpus value at most once.
Result<CostTable> costTable(double pricePerGpuHour, std::vector<std::pair<int, double>> throughputs);

}  // namespace tpscope::core
