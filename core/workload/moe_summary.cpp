// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/workload/moe_summary.h"

#include <algorithm>
#include <map>
#include <set>

#include "core/util/units.h"

namespace tpscope::core {

std::vector<std::string> moeTrafficNotes(const std::vector<PlanConfig>& configs) {
    if (configs.empty() || !configs.front().model.isMoe()) return {};
    const auto& m = configs.front().model;
    std::map<int, std::map<int, DecodePlan>> byTp;  // tp -> batch -> plan
    std::set<int> batches;
    for (const auto& c : configs) {
        auto plan = buildDecodePlan(c);
        if (!plan) return {};
        batches.insert(c.batch);
        byTp[c.tp].emplace(c.batch, std::move(*plan));
    }
    const auto& anyTp = byTp.begin()->second;
    std::string touched = m.name + " is MoE (" + std::to_string(m.moe.experts) + " experts, top-" +
                          std::to_string(m.moe.topK) +
                          " per token): a decode step reads only the experts its batch routes to, E (1 - (1 - k/E)^B) "
                          "per layer under uniform routing:";
    for (const int b : batches) {
        const double t = anyTp.at(b).moe.touchedExpertsPerLayer;
        touched += " " + formatFixed(t, 1) + " at batch " + std::to_string(b) + " (" +
                   formatFixed(100.0 * t / static_cast<double>(m.moe.experts), 0) + " %),";
    }
    touched.back() = '.';
    std::vector<std::string> notes{touched};
    const int lo = *batches.begin();
    const int hi = *batches.rbegin();
    if (lo == hi) return notes;
    std::string weights = "Weights one GPU reads per step (dense parts + touched experts):";
    double lowGrowth = 0, highGrowth = 0;
    for (const auto& [tp, plans] : byTp) {
        if (!plans.count(lo) || !plans.count(hi)) continue;
        const auto a = static_cast<double>(plans.at(lo).weightBytesReadPerStep);
        const auto b = static_cast<double>(plans.at(hi).weightBytesReadPerStep);
        const double growth = a > 0 ? b / a : 0;
        lowGrowth = lowGrowth == 0 ? growth : std::min(lowGrowth, growth);
        highGrowth = std::max(highGrowth, growth);
        weights += " TP " + std::to_string(tp) + " " + formatBytes(a) + " at batch " + std::to_string(lo) + " -> " +
                   formatBytes(b) + " at batch " + std::to_string(hi) + ";";
    }
    weights.back() = '.';
    notes.push_back(weights);
    const std::string range = formatFixed(lowGrowth, 1) == formatFixed(highGrowth, 1)
                                  ? formatFixed(highGrowth, 1)
                                  : formatFixed(lowGrowth, 1) + "-" + formatFixed(highGrowth, 1);
    notes.push_back("A dense model reads the same weights at every batch; this one reads " + range +
                    "x more at batch " + std::to_string(hi) + " than at batch " + std::to_string(lo) +
                    ", so the weight-streaming time that TP divides grows with batch: batch 1 measures a small "
                    "slice of the experts, a large batch nearly all of them.");
    return notes;
}

}  // namespace tpscope::core
