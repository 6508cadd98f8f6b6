// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/analysis/synced_analysis.h"

#include <exception>
#include <future>
#include <optional>
#include <utility>

namespace tpscope::core::analysis {

Result<SyncedAnalysis> analyzeOnOneClock(std::shared_ptr<const Trace> trace, const ClockSyncOptions& clock,
                                         const AnalysisOptions& options) {
    // The segmentation on its own thread (and its workers), the kernels and the clock estimate on this
    // one; the future is waited for on every path, so the trace outlives the task.
    auto early = std::async(std::launch::async, [&trace, &options] {
        return segmentLayers(*trace, options.segmentation, options.threads);
    });
    std::optional<CollectiveKernels> kernels = gatherCollectiveKernels(*trace, options.threads);
    auto plan = planClockSync(*trace, clock, *kernels);
    Segmentation segmentation = early.get();
    if (!plan) return plan.error();
    SyncedAnalysis out;
    out.trace = std::move(trace);
    if (plan->shiftsAnyRank()) {
        kernels.reset();
        auto copy = std::make_shared<Trace>(*out.trace);
        applyClockSync(*copy, *plan);
        out.trace = std::move(copy);
        segmentation = segmentLayers(*out.trace, options.segmentation, options.threads);
        kernels = gatherCollectiveKernels(*out.trace, options.threads);
    }
    out.sync = std::move(*plan);
    CollectiveMatching matching =
        matchCollectives(*out.trace, *kernels, segmentation, options.matching, options.threads);
    kernels.reset();
    out.analysis = analyzeMatchedTrace(*out.trace, std::move(segmentation), std::move(matching), options);
    return out;
}

AnalysisWithClockEstimate analyzeWithClockEstimate(const Trace& trace, const AnalysisOptions& options) {
    // The kernels are gathered first on the estimate's thread and handed over; the analysis waits for
    // them after its segmentation and drops its reference after its matching; whichever of the two is
    // done last frees them. A future from std::async joins in its destructor (declared after the
    // promise, it is destroyed first), so an exception from the analysis waits for the estimate.
    std::promise<std::shared_ptr<const CollectiveKernels>> gathered;
    auto handed = gathered.get_future();
    auto estimate = std::async(std::launch::async, [&trace, &options, &gathered] {
        std::shared_ptr<const CollectiveKernels> kernels;
        try {
            kernels = std::make_shared<const CollectiveKernels>(gatherCollectiveKernels(trace, options.threads));
        } catch (...) {
            gathered.set_exception(std::current_exception());
            throw;
        }
        gathered.set_value(kernels);
        return estimateClockOffsets(trace, *kernels);
    });
    Segmentation segmentation = segmentLayers(trace, options.segmentation, options.threads);
    CollectiveMatching matching = [&] {
        const std::shared_ptr<const CollectiveKernels> kernels = handed.get();
        return matchCollectives(trace, *kernels, segmentation, options.matching, options.threads);
    }();
    AnalysisWithClockEstimate out;
    out.analysis = analyzeMatchedTrace(trace, std::move(segmentation), std::move(matching), options);
    out.estimate = estimate.get();
    return out;
}

}  // namespace tpscope::core::analysis
