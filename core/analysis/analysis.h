// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// The whole analysis of one trace (DESIGN.md §5), in the order each step needs the previous:
// segmentation -> cross-rank matching -> per layer/step breakdown -> run summary. The GUI and the
// CLI both render this one result, so a number in a chart is the number `--json` prints.
// Complexity: O(n log n) in the events of the trace (sorts of collective kernels and result rows);
// each stream is read once or twice. Ranks are independent until collective matching: their stages
// run one task per rank on up to AnalysisOptions::threads threads, and the result is the same for
// any thread count.

#include <string>
#include <vector>

#include "core/analysis/collective_matching.h"
#include "core/analysis/layer_breakdown.h"
#include "core/analysis/layer_segmentation.h"
#include "core/analysis/run_summary.h"
#include "core/analysis/scaling.h"
#include "core/analysis/trace_findings.h"
#include "core/analysis/understanding.h"
#include "core/trace/trace.h"

namespace tpscope::core::analysis {

struct AnalysisOptions {
    SegmentationOptions segmentation;
    MatchingOptions matching;
    int batch = 0;  // 0: trace metadata "batch", else 1
    FindingOptions findings;
    // Threads for the per-rank stages (segmentation, gathering collectives, coverage and windows);
    // 0: one per hardware thread, never more than the ranks. The result does not depend on it.
    unsigned threads = 0;
};

struct RunAnalysis {
    Segmentation segmentation;  // its blocks released once the breakdown has read them (blockCount kept)
    CollectiveMatching matching;
    LayerBreakdown breakdown;
    RunSummary summary;
    std::vector<std::string> notes;      // segmentation, matching and summary notes, for the user
    std::vector<TraceFinding> findings;  // what the trace shows: launch-bound steps, single-rank collectives
    Understanding understanding;         // what the analysis could not place, said first (understanding.h)

    std::size_t residentBytes() const;  // heap held by the result (benchmark bookkeeping)
};

RunAnalysis analyzeTrace(const Trace& trace, const AnalysisOptions& options = {});

// Makes `a`, analyzeTrace(trace, computedWith), into analyzeTrace(trace, wanted) where the two option
// sets differ only in what the analysis' last stages make of the same result: where a batch of the
// same value came from (the option or the trace's metadata; summary.batchSource) and the finding
// options (the findings are computed again, O(steps x ranks + calls)). False, `a` unchanged, where
// they differ in anything else (segmentation, matching, another batch): the caller analyses. For a
// result computed before, e.g. a workspace's stored analysis (core/io/workspace/stored_analysis_take.h).
bool reuseAnalysis(RunAnalysis& a, const Trace& trace, const AnalysisOptions& computedWith,
                   const AnalysisOptions& wanted);
// Whether reuseAnalysis would: it reads no result (a caller tests before it reads a stored one).
bool analysisReusable(const Trace& trace, const AnalysisOptions& computedWith, const AnalysisOptions& wanted);

// A positive integer from the trace's metadata ("tp", "batch", "world_size"), else 0.
int metadataInt(const Trace& trace, std::string_view key);

// The scaling input of one analysed run: GPUs from `gpus` (> 0), else metadata "tp", else the
// rank count; batch from `batch` (> 0), else the summary's.
RunPoint runPointOf(const Trace& trace, const RunAnalysis& analysis, std::string label, int gpus = 0, int batch = 0);

}  // namespace tpscope::core::analysis
