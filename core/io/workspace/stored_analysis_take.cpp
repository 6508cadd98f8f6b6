// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/io/workspace/stored_analysis_take.h"

#include <utility>

namespace tpscope::core {

Result<std::optional<StoredAnalysis>> takeStoredAnalysis(const std::string& path, std::size_t runIndex,
                                                         const Trace& trace, int runBatch,
                                                         const analysis::AnalysisOptions& options) {
    const analysis::AnalysisOptions computedWith = storedAnalysisOptions(runBatch);
    const StoredAnalysisKey key{storedAnalysisBuild(), runBatch};
    // Tested before reading: at 100 M events the read takes seconds.
    if (key.build.empty() || !analysis::analysisReusable(trace, computedWith, options)) {
        return std::optional<StoredAnalysis>();
    }
    auto stored = loadStoredAnalysis(path, runIndex, trace, key, options.threads);
    if (!stored || !stored->has_value()) return stored;
    analysis::reuseAnalysis((*stored)->analysis, trace, computedWith, options);  // reusable: tested above
    return stored;
}

Result<std::optional<analysis::SyncedAnalysis>> takeStoredAnalysisOnOneClock(
    const std::string& path, std::size_t runIndex, std::shared_ptr<const Trace> trace, int runBatch,
    const analysis::ClockSyncOptions& clock, const analysis::AnalysisOptions& options) {
    using Taken = std::optional<analysis::SyncedAnalysis>;
    if (!trace) return Taken();
    auto stored = takeStoredAnalysis(path, runIndex, *trace, runBatch, options);
    if (!stored) return stored.error();
    if (!stored->has_value()) return Taken();
    // An override naming a rank the trace lacks is analyzeOnOneClock's error to give, as it always did.
    auto plan = analysis::planClockSyncFromEstimate(*trace, clock, std::move((*stored)->clock));
    if (!plan || plan->shiftsAnyRank()) return Taken();
    analysis::SyncedAnalysis out;
    out.trace = std::move(trace);
    out.sync = std::move(*plan);
    out.analysis = std::move((*stored)->analysis);
    return Taken(std::move(out));
}

}  // namespace tpscope::core
