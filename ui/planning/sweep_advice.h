// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// The TP advice of one group of runs, as `tpscope-cli scaling` gives it (core::analysis::analyzeScaling
// over the group's one scaling input, ui/document/scaling_input.h, then core::analysis::adviseTp with the
// smallest TP that fits from core::minimumTpThatFits on the group's model and GPU at its largest
// batch). The Advice tab, the PDF report and the headless report all call adviceFor with the same
// input, price (ChartsController's) and threshold, so the report says what the tab says.
// Cost: O(runs) plus one plan per candidate TP.

#include <vector>

#include "core/analysis/advice.h"
#include "core/analysis/scaling.h"
#include "core/util/result.h"
#include "ui/document/scaling_input.h"

namespace tpscope::ui {

struct SweepAdvice {
    core::analysis::AdviceOptions options;
    core::analysis::ScalingReport scaling;
    std::vector<core::analysis::AdviceItem> items;
};

// The TP candidates of the memory fit, as the CLI's scaling command tries them.
inline const std::vector<int> kFitCandidates{1, 2, 4, 8, 16, 32, 64};
// `tpscope-cli scaling --efficiency-threshold` default: the Advice tab's and the headless report's.
inline constexpr double kDefaultEfficiencyThreshold = 0.8;

core::Result<SweepAdvice> adviceFor(const ScalingInput& input, double pricePerGpuHour, double efficiencyThreshold);

}  // namespace tpscope::ui
