// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// How a rank header states its clock (issue 17 §2): the offset core estimated from the collectives
// (the correction added to the rank's timestamps, core::analysis::estimateClockOffsets) with the RMS
// residual of the fit and the calls it rests on, as `tpscope-cli info` prints it; the reference rank
// says so; a rank without an estimate says why, never a guessed 0.

#include <QString>

#include <cstddef>

#include "core/analysis/clock_sync.h"

namespace tpscope::ui {

// hasCollectives: the rank ran any collective kernel (else: "not estimated (no collectives)").
QString rankClockText(const core::analysis::ClockEstimate& estimate, std::size_t rankIndex, bool hasCollectives);

}  // namespace tpscope::ui
