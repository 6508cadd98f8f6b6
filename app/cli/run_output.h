// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// Where the CLI writes runs (simulate --out, capture --out): a .tpscope workspace holding every run
// (what the GUI opens, runs and their settings restored), or Chrome trace JSON (.json / .json.gz:
// Perfetto, chrome://tracing) through core/io's writer. The RunInfo keys match the GUI's
// (core/io/workspace/run_info.h) so a workspace written here opens there with its settings.

#include <string>
#include <vector>

#include "core/io/workspace/workspace.h"
#include "core/sim/sweep.h"
#include "core/util/result.h"

namespace tpscope::cli {

bool isWorkspacePath(const std::string& path);
bool isChromeJsonPath(const std::string& path);

core::RunInfo runInfoOf(const core::sim::SweepRun& run);
core::RunInfo runInfoOf(const core::PlanConfig& plan, int tokens, const std::string& backend, const std::string& gpu,
                        const std::string& fabric);

// Each run's analysis (core::storeAnalysis), so that opening the workspace skips it; a run whose
// analysis cannot be stored gets a note on stderr and is analysed when it opens.
void storeAnalyses(core::Workspace& ws);

// .tpscope: all runs into one workspace, each with its stored analysis. .json / .json.gz: one Chrome trace; several
// runs are combined into it (combineRuns), so Perfetto shows a sweep side by side.
core::Status writeRuns(const std::vector<core::Run>& runs, const std::string& path);

// One trace holding every run: run i's rank r becomes rank i x 10000 + r, its host prefixed with the
// run's name ("TP 2 · batch 1 · node0"); each run's metadata keys are prefixed "run<i>.".
core::Trace combineRuns(const std::vector<core::Run>& runs);

}  // namespace tpscope::cli
