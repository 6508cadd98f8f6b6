// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// The one scaling input over measured (or simulated) traces, for `tpscope-cli scaling` and the GUI's
// Scaling, Cost and Advice (issue 27 §4): one RunPoint per trace, with where its TP and batch came
// from, and a refusal, naming the runs, when they are not one model on one GPU type.
//
// Input: analysed traces with optional TP / batch overrides (> 0). Mapping per run:
// - TP: the override, else metadata "tp", else the communicator size of its all-reduces (the most
//   common `groupSize`), else distributedInfo's world_size, else the number of ranks (rank files);
// - batch: the override, else the analysis' (metadata "batch", the engine's step annotations), which
//   says when it assumed 1;
// - model (metadata "model") and GPU (metadata "gpu", else the first rank's device name): runs that
//   differ in one of them are an error that lists each run's value; a model no trace names is noted
//   as assumed equal. Different batches are separate curves (analyzeScaling), noted as such.
// Complexity: O(collective events) per trace for the communicator size.

#include <memory>
#include <string>
#include <vector>

#include "core/analysis/analysis.h"
#include "core/analysis/scaling.h"
#include "core/util/result.h"

namespace tpscope::core::analysis {

struct MeasuredRun {
    const Trace* trace = nullptr;
    const RunAnalysis* analysis = nullptr;
    std::string label;
    int tp = 0;     // > 0: override
    int batch = 0;  // > 0: override
};

struct ScalingInput {
    std::vector<RunPoint> runs;
    std::vector<std::string> notes;  // where TP and batch came from, what was assumed
};

// TP of one trace and where it came from ("metadata tp", "communicator size", "world_size", "ranks").
struct TraceTp {
    int tp = 0;
    std::string source;
};
TraceTp traceTp(const Trace& trace);

Result<ScalingInput> buildScalingInput(const std::vector<MeasuredRun>& runs);

}  // namespace tpscope::core::analysis
