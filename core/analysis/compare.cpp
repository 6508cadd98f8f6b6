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
        const double base = out.runs.front().stepLatencyNs;
        col.latencyDeltaFraction = base > 0 ? col.stepLatencyNs / base - 1 : nan;
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

}  // namespace tpscope::core::analysis
