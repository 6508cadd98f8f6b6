// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// The seams between the GUI and the computing modules. Every long call runs on a worker thread
// (a job, ui/jobs/job.h: SweepRunner, DocumentLoader, save, what-if), reports progress and honours
// a cancel flag through core's one progress/cancel type (core/util/task_control.h), as core/io, the
// simulator and core::Backend do.
// defaultServices() (services_default.cpp) wires them to core: sweeps of the simulated cluster go
// through core::sim::runSweep exactly as `tpscope-cli simulate` does, local GPUs through
// core::Backend, files through core/io.

#include <QString>
#include <QStringList>

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/analysis/clock_sync.h"
#include "core/io/workspace/stored_analysis.h"
#include "core/sim/simulator.h"
#include "core/sim/whatif_replay.h"
#include "core/util/result.h"
#include "core/util/task_control.h"
#include "ui/document/run_request.h"

namespace tpscope::ui {

using core::CancelFlag;
using core::TaskControl;

// What a finished run hands to the GUI thread: the trace and everything derived from it on the
// worker (timeline data, the one RunAnalysis, the metrics copied from it).
struct RunOutcome {
    std::shared_ptr<const core::Trace> trace;
    std::shared_ptr<const TimelineData> timeline;
    std::shared_ptr<const core::analysis::RunAnalysis> analysis;
    RunMetrics metrics;
    std::optional<core::sim::SimStats> simStats;  // the simulator's own numbers (`simulate --json`)
};

// Progress of a sweep's runs, by index into SweepRequest::expand(); called on the worker thread.
struct SweepCallbacks {
    std::function<void(int index, double fraction)> progress;
    std::function<void(int index, RunOutcome outcome)> finished;
    std::function<void(int index, const core::Error& error)> failed;
};

// A workspace's own settings (core::Workspace::settings): key, value as text.
using WorkspaceSettings = std::vector<std::pair<std::string, std::string>>;

// What a save writes: the runs (those with a trace, and failed ones with their reasons) and the
// view's settings.
struct WorkspaceSnapshot {
    std::vector<RunRecord> runs;
    WorkspaceSettings settings;
};

struct OpenedDocument {
    QString path;
    bool isWorkspace = false;  // a .tpscope workspace (its runs replace the current ones)
    std::vector<RunRecord> runs;
    WorkspaceSettings settings;  // a workspace's (empty for a trace)
    QString note;                // import statistics worth showing ("12 records skipped")
};

struct LocalBackendInfo {
    bool available = false;
    QString reason;  // why not, when unavailable
    QStringList devices;
};

// A first look at a file being opened, sent from the worker at most once: its first run with the
// trace and the timeline's rows (TimelineData::buildRows), before the analysis. A 100 M-event
// workspace takes longer to analyse than to read, and the timeline can paint meanwhile.
using OpenPreviewFn = std::function<void(const RunRecord& firstRun)>;

using RunFn = std::function<core::Result<RunOutcome>(const RunRequest&, const TaskControl&)>;
// Runs every run of the sweep in expand() order; an error return stops the sweep (a Cancelled
// error when the flag stopped it). A run that fails alone is reported through failed().
using SweepFn = std::function<core::Status(const SweepRequest&, const SweepCallbacks&, const CancelFlag&)>;

// A what-if replay of a finished run's trace as a new run: `base` with the replay's trace, its
// predicted analysis and its timeline data. Called on a worker thread; a Cancelled error when the
// control's flag stopped it.
using WhatIfFn = std::function<core::Result<RunRecord>(std::shared_ptr<const core::Trace> measured,
                                                       const core::sim::WhatIfOptions& options, RunRecord base,
                                                       const TaskControl& control)>;

struct Services {
    SweepFn runSweep;
    // preview may be empty.
    std::function<core::Result<OpenedDocument>(const QString& path, const TaskControl&, const OpenPreviewFn& preview)>
        open;
    std::function<core::Status(const QString& path, const WorkspaceSnapshot& snapshot, const TaskControl&)>
        saveWorkspace;
    std::function<LocalBackendInfo()> localBackend;
    WhatIfFn whatIf;
};

Services defaultServices();

// A sweep that runs each request through `runOne` in turn (local GPUs, tests).
SweepFn sweepOfRuns(RunFn runOne);

// Derives what the views need from a finished trace, on the calling (worker) thread: timeline data
// and the run's analysis with its metrics. batch <= 0 reads the trace metadata. A timeline of rows
// alone (buildRows) is completed, its rows shared.
// clock: the trace's clock estimate when it is known already (stored with the analysis in a workspace).
void deriveRunData(RunOutcome& outcome, int batch, std::optional<core::analysis::ClockEstimate> clock = {});
void deriveRunData(RunRecord& record, std::optional<core::analysis::ClockEstimate> clock = {});

// A document of one imported trace (a Kineto file, a rank folder, an nsys export): one run, its
// TP = the number of ranks, step latency from the NVTX steps when there are any. For the io seam.
// preview (may be empty) gets the run before its analysis.
OpenedDocument importedTraceDocument(const QString& path, std::shared_ptr<const core::Trace> trace,
                                     const OpenPreviewFn& preview = {});
// Gives `run` the timeline's rows alone and hands it to preview (nothing when preview is empty and no
// stored intervals are given). exposedComm: the run's exposed communication as its workspace stored it
// (TimelineData::buildRows).
void previewRun(RunRecord& run, const OpenPreviewFn& preview,
                std::optional<core::StoredExposedComm> exposedComm = std::nullopt);

}  // namespace tpscope::ui

Q_DECLARE_METATYPE(tpscope::ui::RunOutcome)
Q_DECLARE_METATYPE(tpscope::ui::OpenedDocument)
