// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/analysis/synced_analysis.h"

#include <future>
#include <utility>

namespace tpscope::core::analysis {

Result<SyncedAnalysis> analyzeOnOneClock(std::shared_ptr<const Trace> trace, const ClockSyncOptions& clock,
                                         const AnalysisOptions& options) {
    // The segmentation on its own thread (and its workers), the clock estimate on this one; the
    // future is waited for on every path, so the trace outlives the task.
    auto early = std::async(std::launch::async, [&trace, &options] {
        return segmentLayers(*trace, options.segmentation, options.threads);
    });
    auto plan = planClockSync(*trace, clock);
    Segmentation segmentation = early.get();
    if (!plan) return plan.error();
    SyncedAnalysis out;
    out.trace = std::move(trace);
    if (plan->shiftsAnyRank()) {
        auto copy = std::make_shared<Trace>(*out.trace);
        applyClockSync(*copy, *plan);
        out.trace = std::move(copy);
        segmentation = segmentLayers(*out.trace, options.segmentation, options.threads);
    }
    out.sync = std::move(*plan);
    out.analysis = analyzeSegmentedTrace(*out.trace, std::move(segmentation), options);
    return out;
}

}  // namespace tpscope::core::analysis
