// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// The runs a headless report or chart export is made of, analysed once: the embedded default sweep
// (core::sim::defaultSweepSpec, simulated) or files opened through the GUI's own io seam
// (Services::open: workspaces, Kineto JSON, rank folders, nsys SQLite). Runs that failed or were
// skipped are listed with their reason. Blocking; for the headless modes and tests.

#include <QStringList>

#include <optional>
#include <vector>

#include "core/sim/defaults.h"
#include "core/util/result.h"
#include "ui/charts/charts_controller.h"
#include "ui/document/scaling_input.h"
#include "ui/jobs/services.h"
#include "ui/report/sweep_report.h"

namespace tpscope::core::sim {
struct SweepSpec;
}

namespace tpscope::ui {

struct ReportRuns {
    std::vector<ChartRun> runs;     // of one group: the first finished run's, as the window shows it
    std::vector<ChartRun> allRuns;  // every finished run of every file, for the comparison pages
    // The group's request for the advice's memory fit (ScalingInput::fitRequest).
    std::optional<RunRequest> fitRequest;
    ReportContext context;
    double pricePerGpuHour = core::sim::kDefaults.pricePerGpuHour;  // the one table of defaults
    // The chart input of these runs (scalingInputOf, with the fit request): what the window would show.
    ScalingInput input() const;
};

// A simulated sweep, each finished run analysed (the default sweep: loadDefaultReportRuns).
core::Result<ReportRuns> simulatedReportRuns(const core::sim::SweepSpec& spec, const QString& title);
core::Result<ReportRuns> loadDefaultReportRuns();
// Every run of every file; an error names the first file that cannot be opened.
core::Result<ReportRuns> loadReportRuns(const QStringList& files, const Services& services);

}  // namespace tpscope::ui
