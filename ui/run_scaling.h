// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// The scaling of a sweep as core computes it (core::analysis::analyzeScaling over runPointOf of each
// finished run), for the runs table's efficiency column and the chart tabs. The ui formats these
// numbers and never derives its own: `tpscope-cli scaling --json` on the saved sweep prints the same.

#include <optional>
#include <vector>

#include "core/analysis/scaling.h"
#include "ui/run_request.h"

namespace tpscope::ui {

// The scaling input of the finished (analysed, non-imported) runs of one sweep number, in order.
std::vector<core::analysis::RunPoint> scalingPointsOf(const std::vector<RunRecord>& runs, int sweep);

// analyzeScaling over scalingPointsOf; price from the runs' request (0: no cost columns).
core::Result<core::analysis::ScalingReport> scalingOfSweep(const std::vector<RunRecord>& runs, int sweep);

// The report's batch of a run (same batch size), or nullptr.
const core::analysis::BatchScaling* scalingBatchOf(const core::analysis::ScalingReport& report, const RunRecord& run);
// The report's row of a run (same GPUs and batch), or nullptr.
const core::analysis::ScalingRow* scalingRowOf(const core::analysis::ScalingReport& report, const RunRecord& run);

}  // namespace tpscope::ui
