// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// TP advice from measured (or simulated) runs (DESIGN.md §5), each item with its measured reason.
//
// Input: a ScalingReport and, when known, the smallest TP that fits the model in GPU memory.
// Mapping:
// - minimum TP: "needs TP >= k to fit"; a run below it is flagged;
// - per batch, for each pair of consecutive GPU counts (a < b): the higher TP pays when its step
//   efficiency speedup / (b / a) reaches the threshold; the reason gives the speedup, the change in
//   $ per million tokens (when priced) and the largest loss of the higher-TP step;
// - per batch, the recommendation: start at the smallest TP that fits (or ran) and go up while
//   the next step pays.
// Complexity: O(runs).

#include <string>
#include <vector>

#include "core/analysis/scaling.h"

namespace tpscope::core::analysis {

struct AdviceOptions {
    double efficiencyThreshold = 0.8;
    int minimumTpThatFits = 0;  // 0: unknown
    std::string modelName;      // for the text, optional
    std::string gpuName;
    // The runs were simulated with eager launches (--runtime pytorch-eager): where idle is the
    // recommended run's largest loss, the recommendation says the host launching kernels one by
    // one limits it, and that CUDA graphs (the default runtime) would lift it.
    bool eagerLaunches = false;
};

enum class AdviceKind : std::uint8_t { MinimumTp, HigherTpPays, HigherTpDoesNotPay, Recommendation };
std::string_view toString(AdviceKind kind);

struct AdviceItem {
    AdviceKind kind = AdviceKind::Recommendation;
    int batch = 0;  // 0 for MinimumTp
    int fromGpus = 0;
    int toGpus = 0;  // the recommended TP for Recommendation
    double speedup = 0;
    double efficiency = 0;
    double costChange = 0;    // $/Mtok(to) / $/Mtok(from) - 1; 0 without a price
    std::string largestLoss;  // "sync wait", "transfer", "imbalance", "idle"
    double largestLossShare = 0;
    std::string text;
};

std::vector<AdviceItem> adviseTp(const ScalingReport& report, const AdviceOptions& options = {});

}  // namespace tpscope::core::analysis
