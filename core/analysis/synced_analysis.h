// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// A loaded trace put on one clock and analysed, as `tpscope-cli analyze` does it, and a trace
// analysed with its clock estimate beside, as the GUI's timeline needs it; in both the clock
// estimate and the per-rank segmentation run at once, and the collective kernels are gathered once
// for the clock estimate's matching by call order and the analysis' matching.
//
// Input: a shared, immutable trace; the clock-sync options (--clock-sync, --clock-offset) and the
// analysis options. Mapping: gatherCollectiveKernels and planClockSync (one thread: the matching by
// call order and the fit) run beside segmentLayers of the trace as it is (one task per rank on the
// other threads). A rank's segmentation and its kernels' order depend on that rank alone, so when
// the plan moves no rank they are those of the synced trace and the analysis goes on from them;
// when a rank moves, the trace is copied and shifted (syncing never touches the shared trace),
// segmented and gathered again. Either way the result is analyzeTrace(synced trace), byte for byte,
// and the estimate estimateClockOffsets(trace).
// Cost: that of planClockSync plus analyzeTrace, less one gathering of the collective kernels; on
// two cores the wall time loses about the shorter of the clock estimate and the segmentation.
// Memory: the gathered kernels (16 bytes each) from the start of the estimate until both it and the
// analysis' matching are done, instead of a second copy in each.

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
// The stages after the matching, given matchCollectives(trace, segmentation, options.matching).
RunAnalysis analyzeMatchedTrace(const Trace& trace, Segmentation segmentation, CollectiveMatching matching,
                                const AnalysisOptions& options);

// An InvalidArgument error (from planClockSync) when an override names a rank the trace lacks.
Result<SyncedAnalysis> analyzeOnOneClock(std::shared_ptr<const Trace> trace, const ClockSyncOptions& clock,
                                         const AnalysisOptions& options);

struct AnalysisWithClockEstimate {
    RunAnalysis analysis;    // analyzeTrace(trace, options)
    ClockEstimate estimate;  // estimateClockOffsets(trace)
};

// Both of the trace as it is (the GUI shows the trace's own clocks and the estimate beside them).
AnalysisWithClockEstimate analyzeWithClockEstimate(const Trace& trace, const AnalysisOptions& options);

}  // namespace tpscope::core::analysis
