// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// Scaling over the runs of a sweep (DESIGN.md §5).
//
// Input: one RunPoint per run (GPUs, batch, measured tokens/s and losses). Mapping, per batch:
// - baseline = the smallest GPU count that ran at that batch (1 when there is a 1-GPU run; for a
//   model that does not fit one GPU, e.g. TP 2), and the report says which;
// - speedup(N) = tokens/s(N) / tokens/s(baseline); efficiency = speedup / (N / baseline);
// - Amdahl: serial fraction S in [0, 1] fitted by least squares of the measured speedups against
//   A(N) / A(baseline) with A(N) = 1 / (S + (1 - S) / N) (golden-section search after a grid, so
//   the fit is global on [0, 1]); residual = RMS of measured - model; max speedup = 1 / S vs
//   1 GPU and A(inf) / A(baseline) vs the baseline;
// - cost per million tokens and premium vs the baseline at a price per GPU-hour (core/calc/cost);
// - smallest efficient batch per GPU count: the smallest batch whose efficiency reaches the
//   threshold.
// Complexity: O(runs log runs) plus a fixed ~300 model evaluations per batch for the fit.

#include <string>
#include <vector>

#include "core/analysis/run_summary.h"
#include "core/calc/cost.h"
#include "core/util/result.h"

namespace tpscope::core::analysis {

struct RunPoint {
    std::string label;  // file name or run name
    int gpus = 0;       // TP degree (GPUs in the tensor-parallel group)
    int batch = 0;
    double tokensPerSec = 0;
    double stepLatencyNs = 0;  // mean
    LossBreakdown loss;        // fractions of step time
    double exposedCommShare = 0;
};

struct ScalingOptions {
    double pricePerGpuHour = 0;        // <= 0: no cost columns
    double efficiencyThreshold = 0.8;  // for the smallest efficient batch
};

struct AmdahlFit {
    bool valid = false;  // needs two or more GPU counts
    double serialFraction = 0;
    double maxSpeedup = 0;  // vs 1 GPU; +infinity when S = 0
    double maxSpeedupVsBaseline = 0;
    double rmsResidual = 0;  // in speedup units
    std::size_t points = 0;
};

struct ScalingRow {
    std::string label;
    int gpus = 0;
    double tokensPerSec = 0;
    double stepLatencyNs = 0;
    double speedup = 1;               // vs the batch's baseline
    double efficiency = 1;            // speedup / (gpus / baseline)
    double amdahlSpeedup = 0;         // the fitted model at this GPU count (vs baseline); 0 without a fit
    double costPerMillionTokens = 0;  // 0 without a price
    double premiumVsBaseline = 0;
    LossBreakdown loss;
    double exposedCommShare = 0;
};

struct BatchScaling {
    int batch = 0;
    int baselineGpus = 1;
    std::vector<ScalingRow> rows;  // sorted by gpus
    AmdahlFit fit;
};

struct EfficientBatch {
    int gpus = 0;
    int smallestBatch = 0;  // 0: no batch reached the threshold
    double efficiency = 0;  // at smallestBatch, or the best seen when none reached the threshold
    int atBatch = 0;        // the batch `efficiency` was measured at
};

struct ScalingReport {
    double pricePerGpuHour = 0;
    double efficiencyThreshold = 0;
    std::vector<BatchScaling> batches;             // sorted by batch
    std::vector<EfficientBatch> efficientBatches;  // sorted by gpus; baselines left out
    std::vector<std::string> notes;
};

// Errors: no runs, a run without GPUs/batch/throughput, two runs with the same GPUs and batch.
Result<ScalingReport> analyzeScaling(std::vector<RunPoint> runs, const ScalingOptions& options = {});

// The batch's fitted Amdahl speed-up (vs its baseline) at any GPU count, for drawing the curve
// between measured points; equals ScalingRow::amdahlSpeedup at the rows' counts. 0 without a fit.
double fittedSpeedup(const BatchScaling& batch, double gpus);

// Every (GPUs, batch) row of the report as a cost candidate (step latency in ms, $/Mtok at the
// report's price; 0 without one), in report order: batch, then GPUs.
std::vector<CostCandidate> costCandidates(const ScalingReport& report);

// Least-squares Amdahl fit of speedups (vs `baselineGpus`) at GPU counts; see the header comment.
AmdahlFit fitAmdahl(const std::vector<std::pair<int, double>>& gpusAndSpeedup, int baselineGpus);

}  // namespace tpscope::core::analysis
