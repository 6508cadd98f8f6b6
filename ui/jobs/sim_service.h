// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// The GUI's bridge to core::sim: a sweep of the simulated cluster runs through core::sim::runSweep,
// the function `tpscope-cli simulate` calls, with the SweepSpec built field by field from the run
// panel's request, so the GUI and the CLI print the same numbers for the same input. Called on the
// SweepRunner's worker thread; no widgets.

#include "core/sim/sweep.h"
#include "core/sim/whatif_report.h"
#include "ui/jobs/services.h"

namespace tpscope::ui {

// The embedded default sweep (core::sim::defaultSweepSpec) as a GUI request, priced at pricePerGpuHour.
core::Result<SweepRequest> defaultSweepRequest(const core::Catalog& catalog, double pricePerGpuHour);

// The core sweep of a GUI sweep request (one seed for every run, as the CLI).
core::sim::SweepSpec sweepSpecOf(const SweepRequest& sweep);

// Runs the sweep through core::sim::runSweep; each run is reported as it finishes (with its
// timeline data and analysis derived on this thread), a configuration that does not fit memory
// as failed with its shortfall.
core::Status runSimulatedSweep(const SweepRequest& sweep, const SweepCallbacks& callbacks, const CancelFlag& cancel);

// The what-if replay `tpscope-cli whatif` runs (core::sim::runWhatIf, the analysis options every GUI
// run uses) as a new run: base with the replayed trace, the predicted analysis and timeline data.
core::Result<RunRecord> replayWhatIf(const std::shared_ptr<const core::Trace>& measured,
                                     const core::sim::WhatIfOptions& options, RunRecord base,
                                     const TaskControl& control);

}  // namespace tpscope::ui
