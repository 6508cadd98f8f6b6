// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// The TP advice of one sweep, as `tpscope-cli scaling` gives it (core::analysis::analyzeScaling, then
// core::analysis::adviseTp with the smallest TP that fits from core::minimumTpThatFits on the sweep's
// model and GPU at its largest batch). Imported runs take no part (their TP and batch are not the
// sweep's). Cost: O(runs) plus one plan per candidate TP.

#include <vector>

#include "core/analysis/advice.h"
#include "core/analysis/scaling.h"
#include "core/util/result.h"
#include "ui/run_request.h"

namespace tpscope::ui {

struct SweepAdvice {
    core::analysis::AdviceOptions options;
    core::analysis::ScalingReport scaling;
    std::vector<core::analysis::AdviceItem> items;
};

// The TP candidates of the memory fit, as the CLI's scaling command tries them.
inline const std::vector<int> kFitCandidates{1, 2, 4, 8, 16, 32, 64};

core::Result<SweepAdvice> adviceForSweep(const std::vector<RunRecord>& runs, int sweep, double efficiencyThreshold);

}  // namespace tpscope::ui
