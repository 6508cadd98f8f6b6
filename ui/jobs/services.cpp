// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "ui/jobs/services.h"

#include <optional>
#include <utility>

#include "core/analysis/synced_analysis.h"
#include "core/util/freed_memory.h"
#include "ui/logging.h"
#include "ui/timeline/timeline_data.h"

namespace tpscope::ui {

namespace {

RunMetrics metricsOf(const core::analysis::RunAnalysis& analysis) {
    RunMetrics m;
    m.stepLatencyNs = analysis.summary.latencyMeanNs;
    m.tokensPerSec = analysis.summary.batchKnown ? analysis.summary.tokensPerSec : 0;
    m.steps = static_cast<int>(analysis.summary.steps.size());
    return m;
}

}  // namespace

void deriveRunData(RunOutcome& outcome, int batch, std::optional<core::analysis::ClockEstimate> clock) {
    if (!outcome.trace) return;
    const bool needTimeline = !outcome.timeline || !outcome.timeline->hasAnalysis();
    // The timeline's clock estimate needs the trace alone: with the analysis it runs on a thread of
    // its own beside the segmentation, from the collective kernels both gather once
    // (analyzeWithClockEstimate).
    std::optional<core::analysis::ClockEstimate> estimate = std::move(clock);
    if (!outcome.analysis) {
        core::analysis::AnalysisOptions options;
        options.batch = batch;
        if (needTimeline) {
            auto both = core::analysis::analyzeWithClockEstimate(*outcome.trace, options);
            outcome.analysis = std::make_shared<const core::analysis::RunAnalysis>(std::move(both.analysis));
            estimate = std::move(both.estimate);
        } else {
            outcome.analysis = std::make_shared<const core::analysis::RunAnalysis>(
                core::analysis::analyzeTrace(*outcome.trace, options));
        }
    }
    if (needTimeline) {
        outcome.timeline =
            TimelineData::build(*outcome.trace, outcome.analysis, outcome.timeline.get(), std::move(estimate));
    }
    outcome.metrics = metricsOf(*outcome.analysis);
    // The analysis' per-rank scratch is freed by now but kept in its workers' arenas (~0.3 GB at 100 M
    // events, beside a 0.9 GB result): handed back, so that what stays resident is the result.
    core::returnFreedMemory();
}

void deriveRunData(RunRecord& record, std::optional<core::analysis::ClockEstimate> clock) {
    RunOutcome outcome{record.trace, record.timeline, record.analysis, record.metrics, std::nullopt};
    deriveRunData(outcome, record.request.batch, std::move(clock));
    record.timeline = std::move(outcome.timeline);
    record.analysis = std::move(outcome.analysis);
    record.metrics = outcome.metrics;
}

SweepFn sweepOfRuns(RunFn runOne) {
    return [runOne = std::move(runOne)](const SweepRequest& sweep, const SweepCallbacks& callbacks,
                                        const CancelFlag& cancel) -> core::Status {
        const auto requests = sweep.expand();
        for (std::size_t i = 0; i < requests.size(); ++i) {
            const int index = static_cast<int>(i);
            if (cancel.load()) return core::makeError(core::ErrorCode::Cancelled, "sweep cancelled");
            TaskControl control{{}, &cancel};
            if (callbacks.progress) control.progress = [&](double f) { callbacks.progress(index, f); };
            auto outcome = runOne(requests[i], control);
            if (!outcome) {
                if (outcome.error().code == core::ErrorCode::Cancelled) return outcome.error();
                if (callbacks.failed) callbacks.failed(index, outcome.error());
                continue;
            }
            deriveRunData(*outcome, requests[i].batch);
            if (callbacks.finished) callbacks.finished(index, std::move(*outcome));
        }
        return core::Ok{};
    };
}

void previewRun(RunRecord& run, const OpenPreviewFn& preview, std::optional<core::StoredExposedComm> exposedComm) {
    if ((!preview && !exposedComm) || !run.trace || run.timeline) return;
    const bool stored = exposedComm.has_value();
    run.timeline = TimelineData::buildRows(*run.trace, std::move(exposedComm));
    qCInfo(lcDocument).noquote() << "timeline rows of" << run.trace->eventCount() << "events"
                                 << (stored ? "(exposed communication as stored);" : ";") << memoryUseText();
    if (preview) preview(run);
}

OpenedDocument importedTraceDocument(const QString& path, std::shared_ptr<const core::Trace> trace,
                                     const OpenPreviewFn& preview) {
    OpenedDocument doc;
    doc.path = path;
    RunRecord run;
    run.request.backend = BackendKind::Imported;
    run.request.tp = static_cast<int>(trace->ranks.size());
    run.request.batch = 0;  // unknown for a foreign trace: no tokens/s
    run.status = RunStatus::Done;
    run.progress = 1;
    run.source = path;
    run.trace = std::move(trace);
    previewRun(run, preview);
    deriveRunData(run);
    doc.runs.push_back(std::move(run));
    return doc;
}

}  // namespace tpscope::ui
