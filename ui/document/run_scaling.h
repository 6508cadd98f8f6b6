// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// The scaling of a group of runs as core computes it (core::analysis::analyzeScaling over the one
// scaling input, ui/document/scaling_input.h), for the runs table's efficiency column. The ui formats these
// numbers and never derives its own: `tpscope-cli scaling --json` on the saved sweep prints the same.

#include <vector>

#include "core/analysis/scaling.h"
#include "ui/document/run_request.h"
#include "ui/document/scaling_input.h"

namespace tpscope::ui {

// analyzeScaling over scalingInputOf(runs, member) (the scaling group holding `member`), without a
// price (efficiency does not depend on one).
core::Result<core::analysis::ScalingReport> scalingOfGroup(const std::vector<RunRecord>& runs, RunId member);

// The report's batch of a run (the batch its point has in the input), or nullptr.
const core::analysis::BatchScaling* scalingBatchOf(const core::analysis::ScalingReport& report,
                                                   const ScalingInput& input, RunId id);
// The report's row of a run (its point's GPUs and batch), or nullptr.
const core::analysis::ScalingRow* scalingRowOf(const core::analysis::ScalingReport& report, const ScalingInput& input,
                                               RunId id);

}  // namespace tpscope::ui
