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
    // The caller's own grouping (the GUI's sweep number): runs of different groups never share a
    // scaling group. "" for none (the CLI).
    std::string group;
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

// Issue 45 §2: which runs form one scaling group, for the CLI and the GUI alike. Runs of one caller's
// group, one GPU type and one model (the rules of buildScalingInput: metadata "gpu", else the device
// name; metadata "model", where a run naming none joins the group of the same GPU) share a group.
// Each group's points follow runPointOf; a run whose batch is unknown (no override, no metadata or
// step annotation) or that has no decode step is left out of its group's points with a note when
// `leaveOutGuesses` (the GUI: its tokens/s would be a guess), else kept at batch 1 with a note (the
// CLI's `--batch` tells it). Notes name the run ("label: ...").
struct ScalingGroupOptions {
    bool leaveOutGuesses = false;
    bool withRunNotes = false;  // each run's RunAnalysis::notes, "label: note"
};

struct ScalingGroup {
    std::string name;                       // "<model> on <gpu>", and the caller's group when given
    std::vector<std::size_t> members;       // indices into the runs given, in their order
    std::vector<std::size_t> pointMembers;  // the member of each point of input.runs
    ScalingInput input;                     // the points and their notes
};

struct ScalingGroups {
    std::vector<ScalingGroup> groups;  // in the order of their first run
    std::vector<std::string> notes;    // how the runs were split, when into more than one group
};

ScalingGroups groupScalingRuns(const std::vector<MeasuredRun>& runs, const ScalingGroupOptions& options = {});
// The group holding run `index`, or nullptr.
const ScalingGroup* groupOfRun(const ScalingGroups& groups, std::size_t index);

}  // namespace tpscope::core::analysis
