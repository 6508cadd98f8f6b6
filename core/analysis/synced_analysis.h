// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// A loaded trace put on one clock and analysed, as `tpscope-cli analyze` does it, with the clock
// estimate and the per-rank segmentation running at once.
//
// Input: a shared, immutable trace; the clock-sync options (--clock-sync, --clock-offset) and the
// analysis options. Mapping: planClockSync (one thread: matching by call order and the fit) runs
// beside segmentLayers of the trace as it is (one task per rank on the other threads). A rank's
// segmentation depends on that rank alone, so when the plan moves no rank it is the segmentation of
// the synced trace and the analysis goes on from it; when a rank moves, the trace is copied and
// shifted (syncing never touches the shared trace) and segmented again. Either way the result is
// analyzeTrace(synced trace), byte for byte.
// Cost: that of planClockSync plus analyzeTrace; on two cores the wall time loses about the
// shorter of the clock estimate and the segmentation (the estimate was a serial step before).

#include <memory>

#include "core/analysis/analysis.h"
#include "core/analysis/clock_sync.h"
#include "core/util/result.h"

namespace tpscope::core::analysis {

struct SyncedAnalysis {
    std::shared_ptr<const Trace> trace;  // what was analysed: the input, or a copy with ranks shifted
    ClockSyncResult sync;
    RunAnalysis analysis;
};

// The stages of analyzeTrace after the segmentation, given segmentLayers(trace, options.segmentation)
// computed beside other work; analyzeTrace is this after segmentLayers (both in analysis.cpp).
RunAnalysis analyzeSegmentedTrace(const Trace& trace, Segmentation segmentation, const AnalysisOptions& options);

// An InvalidArgument error (from planClockSync) when an override names a rank the trace lacks.
Result<SyncedAnalysis> analyzeOnOneClock(std::shared_ptr<const Trace> trace, const ClockSyncOptions& clock,
                                         const AnalysisOptions& options);

}  // namespace tpscope::core::analysis
