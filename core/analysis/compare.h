#pragma once
// Runs side by side, aligned by layer index (DESIGN.md §8 Compare, USERS.md 4).
//
// Input: two or more analysed runs. Mapping: for every layer index present in any run, each run's
// mean per-layer times over steps and ranks (or one rank), and the deltas of every run against
// the first; a run without that layer has present = false. Whole-run numbers (step latency,
// tokens/s, exposed comm and wait shares) are listed per run with their deltas too.
// Complexity: O(rows of all runs).

#include <string>
#include <vector>

#include "core/analysis/analysis.h"

namespace tpscope::core::analysis {

struct LayerCell {
    bool present = false;
    double wallNs = 0;
    double computeNs = 0;
    double exposedWaitNs = 0;
    double exposedTransferNs = 0;
    double overlappedCommNs = 0;
    double idleNs = 0;
    double imbalanceNs = 0;
};

struct LayerComparisonRow {
    int layer = 0;
    std::vector<LayerCell> runs;            // one per run
    std::vector<double> wallDeltaNs;        // run i - run 0 (0 for run 0; NaN when either is absent)
    std::vector<double> wallDeltaFraction;  // (run i - run 0) / run 0
};

struct RunColumn {
    std::string label;
    std::size_t ranks = 0;
    double stepLatencyNs = 0;
    double tokensPerSec = 0;
    double exposedCommShare = 0;
    double exposedWaitShare = 0;
    LossBreakdown loss;
    double latencyDeltaFraction = 0;  // vs run 0
};

struct RunComparison {
    std::vector<RunColumn> runs;
    std::vector<LayerComparisonRow> layers;  // sorted by layer index
};

struct CompareInput {
    std::string label;
    const RunAnalysis* analysis = nullptr;
    std::int64_t rankIndex = -1;  // per-layer means of this rank of the run; -1: every rank
};

RunComparison compareRuns(const std::vector<CompareInput>& inputs);

}  // namespace tpscope::core::analysis
