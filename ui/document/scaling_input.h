// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// The one scaling input of the window (DESIGN.md §8 "One input per question"): which finished runs
// form a scaling group, which of them take part in scaling, cost and advice, at which GPU count and
// batch, and why the others do not. The runs table's efficiency, the Scaling and Cost charts, the
// Advice tab, the PDF report and the headless modes all read it, so no two of them can disagree on
// a run's tokens/s. Grouping, the mapping of a run to a point and the rules for leaving a run out
// are core's (core::analysis::groupScalingRuns, as `tpscope-cli scaling` groups): one model on one
// GPU type within one sweep; a run whose batch is unknown or that has no decode step stays out with a
// note. This file only hands core the runs (a run made here at its request's TP and batch, an
// imported one at what core reads from its trace) and selects a group.
// Every run of the group, in or out, keeps its place in `runs` (the Layers page shows any of them).
// Cost: O(runs).

#include <QString>

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/analysis/analysis.h"
#include "ui/document/run_id.h"
#include "ui/document/run_request.h"

namespace tpscope::ui {

// One finished, analysed run as the charts see it.
struct ChartRun {
    RunId id = RunId::None;
    QString label;
    int gpus = 0;   // 0: core's reading of the trace (metadata "tp", else the ranks)
    int batch = 0;  // 0: the analysis's (trace metadata), when core knows it
    int sweep = 0;  // the sweep it was made in (0: opened traces): runs of two sweeps never share a group
    std::shared_ptr<const core::Trace> trace;
    std::shared_ptr<const core::analysis::RunAnalysis> analysis;
};

struct ScalingInput {
    std::string name;                              // core's name of the group ("llama3-70b on h100-sxm (sweep 2)")
    std::vector<ChartRun> runs;                    // every finished, analysed run of the group
    std::vector<core::analysis::RunPoint> points;  // those with a known throughput, as core maps them
    std::vector<RunId> pointIds;                   // the run of each point
    // The runs without a point, each with why (batch unknown, no decode step): every run has its row.
    std::vector<std::pair<RunId, std::string>> leftOut;
    // Why a run is left out, and core's own notes on the runs (RunAnalysis::notes), "label: note".
    std::vector<std::string> notes;
    // The group's request for the advice's memory fit (model, GPU, context, dtype; batch = the
    // group's largest); absent when no run of the group was made here.
    std::optional<RunRequest> fitRequest;
};

// The group a run belongs to: its sweep number (0: opened traces).
inline int groupOf(const RunRecord& run) {
    return run.sweep;
}

// A finished, analysed run as the charts see it; nullopt for any other.
std::optional<ChartRun> chartRunOf(const RunRecord& run);

// The input of runs that are already chart runs (headless reports, tests): every run in `runs`, the
// points of core's first group (its split noted when they form several).
ScalingInput scalingInputOf(std::vector<ChartRun> runs);
// Every scaling group of the document's finished runs, as core forms them, in the order of their
// first run.
std::vector<ScalingInput> scalingGroupsOf(const std::vector<RunRecord>& runs);
// The group of the document's runs that holds run `id`; the first group when no group holds it.
ScalingInput scalingInputOf(const std::vector<RunRecord>& runs, RunId id);

// The notes as one caption line each ("" when there are none).
QString notesText(const std::vector<std::string>& notes);

}  // namespace tpscope::ui
