// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/analysis/compare.h"

#include <cmath>
#include <limits>
#include <map>

namespace tpscope::core::analysis {

RunComparison compareRuns(const std::vector<CompareInput>& inputs) {
    RunComparison out;
    const std::size_t n = inputs.size();
    std::map<int, LayerComparisonRow> rows;
    for (std::size_t i = 0; i < n; ++i) {
        const RunAnalysis& a = *inputs[i].analysis;
        RunColumn col;
        col.label = inputs[i].label;
        col.ranks = a.summary.ranks;
        col.stepLatencyNs = a.summary.latencyMeanNs;
        col.tokensPerSec = a.summary.tokensPerSec;
        col.batchKnown = a.summary.batchKnown;
        col.exposedCommShare = a.summary.exposedCommShare;
        col.exposedWaitShare = a.summary.exposedWaitShare;
        col.loss = a.summary.loss;
        out.runs.push_back(col);
        for (const auto& l : layerTable(a.breakdown, inputs[i].rankIndex)) {
            auto& row = rows[l.layer];
            row.layer = l.layer;
            row.runs.resize(n);
            LayerCell& c = row.runs[i];
            c.present = true;
            c.wallNs = l.mean(&TimeBreakdown::wallNs);
            c.computeNs = l.mean(&TimeBreakdown::computeNs);
            c.exposedWaitNs = l.mean(&TimeBreakdown::exposedWaitNs);
            c.exposedTransferNs = l.mean(&TimeBreakdown::exposedTransferNs);
            c.overlappedCommNs = l.mean(&TimeBreakdown::overlappedCommNs);
            c.idleNs = l.mean(&TimeBreakdown::idleNs);
            c.imbalanceNs = l.meanImbalanceNs();
        }
    }
    const double nan = std::numeric_limits<double>::quiet_NaN();
    for (auto& col : out.runs) {
        const RunColumn& first = out.runs.front();
        col.latencyDeltaFraction = first.stepLatencyNs > 0 ? col.stepLatencyNs / first.stepLatencyNs - 1 : nan;
        col.tokensPerSecDeltaFraction = first.tokensPerSec > 0 ? col.tokensPerSec / first.tokensPerSec - 1 : nan;
        col.exposedCommShareDelta = col.exposedCommShare - first.exposedCommShare;
    }
    for (auto& [layer, row] : rows) {
        row.runs.resize(n);
        for (std::size_t i = 0; i < n; ++i) {
            const bool both = row.runs[0].present && row.runs[i].present;
            const double delta = both ? row.runs[i].wallNs - row.runs[0].wallNs : nan;
            row.wallDeltaNs.push_back(delta);
            row.wallDeltaFraction.push_back(both && row.runs[0].wallNs > 0 ? delta / row.runs[0].wallNs : nan);
        }
        out.layers.push_back(std::move(row));
    }
    return out;
}

std::vector<LayerDelta> layerDeltas(const RunComparison& comparison, std::size_t run, std::size_t base) {
    std::vector<LayerDelta> out;
    const std::size_t n = comparison.runs.size();
    if (run >= n || base >= n) return out;
    for (const auto& row : comparison.layers) {
        const LayerCell& m = row.runs[run];
        const LayerCell& s = row.runs[base];
        if (!m.present || !s.present) continue;
        out.push_back({row.layer, m.wallNs - s.wallNs, m.computeNs - s.computeNs,
                       m.exposedTransferNs - s.exposedTransferNs, m.exposedWaitNs - s.exposedWaitNs,
                       m.idleNs - s.idleNs});
    }
    return out;
}

}  // namespace tpscope::core::analysis
