// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
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
    bool batchKnown = false;  // false: tokens/s is at an assumed batch of 1 (a view shows "—")
    double exposedCommShare = 0;
    double exposedWaitShare = 0;
    LossBreakdown loss;
    double latencyDeltaFraction = 0;       // vs run 0: latency / run 0's - 1
    double tokensPerSecDeltaFraction = 0;  // vs run 0: tokens/s / run 0's - 1 (NaN when run 0 has none)
    double exposedCommShareDelta = 0;      // vs run 0, in share points: share - run 0's share
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

// One run against another, part by part: per layer index present in both, run - base of each part
// of the partition (means over steps and ranks, the comparison's cells). The Compare view's part
// deltas (base = run 0), and the residual of a measured run against a model of the same
// configuration (run = measured, base = model: positive where the measured run spends more time
// than the model predicts). Layers missing from either run are left out. O(layers).
struct LayerDelta {
    int layer = 0;
    double wallNs = 0;
    double computeNs = 0;
    double exposedTransferNs = 0;
    double exposedWaitNs = 0;
    double idleNs = 0;
};

// `run` and `base` index comparison.runs; an empty result when either is out of range.
std::vector<LayerDelta> layerDeltas(const RunComparison& comparison, std::size_t run, std::size_t base);

}  // namespace tpscope::core::analysis
