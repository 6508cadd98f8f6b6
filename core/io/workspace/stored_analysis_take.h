// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// A run's stored analysis (stored_analysis.h) taken in place of analysing the run with a reader's own
// options, when, and only when, it is what those options compute (`tpscope-cli analyze FILE.tpscope`).
//
// Input: the workspace, the run's index (run_id order) and batch (RunInfo::batch, the batch its stored
// analysis was computed for), the run's trace as loaded, and the reader's options. Mapping: the stored
// analysis is analyzeTrace(trace) with every option at its default but the batch, which is the run's,
// and the trace's clock estimate (storeAnalysis, the GUI's Save). It stands for analyzeTrace(trace,
// options) where reuseAnalysis (core/analysis/analysis.h) can make it that: the same segmentation and
// matching options, the same known batch (the run's, or the trace's metadata one with no batch given),
// any finding options. For analyzeOnOneClock the clock-sync plan is made from the stored estimate, and
// the stored analysis taken only when the plan moves no rank (else the synced trace is another trace).
// Anything else reads as nullopt, as another build's, batch's or trace's stored analysis does: the
// caller analyses. A damaged one is an error (the caller says so and analyses).
// Cost: that of loadStoredAnalysis (at 100 M events 2.9-3.6 s against 7.6-8.5 s to analyse), plus the
// findings again when the finding options differ; nothing is read when the options rule it out.

#include <cstddef>
#include <memory>
#include <optional>
#include <string>

#include "core/analysis/analysis.h"
#include "core/analysis/clock_sync.h"
#include "core/analysis/synced_analysis.h"
#include "core/io/workspace/stored_analysis.h"
#include "core/trace/trace.h"
#include "core/util/result.h"

namespace tpscope::core {

// The stored analysis of run `runIndex` as analyzeTrace(trace, options) computes it, with its clock
// estimate; nullopt when it is not that, or none of this build is stored.
Result<std::optional<StoredAnalysis>> takeStoredAnalysis(const std::string& path, std::size_t runIndex,
                                                         const Trace& trace, int runBatch,
                                                         const analysis::AnalysisOptions& options);

// The same as analyzeOnOneClock(trace, clock, options) computes it (core/analysis/synced_analysis.h).
Result<std::optional<analysis::SyncedAnalysis>> takeStoredAnalysisOnOneClock(
    const std::string& path, std::size_t runIndex, std::shared_ptr<const Trace> trace, int runBatch,
    const analysis::ClockSyncOptions& clock, const analysis::AnalysisOptions& options);

}  // namespace tpscope::core
