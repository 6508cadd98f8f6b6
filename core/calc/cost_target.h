// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// Whether one serving configuration meets a latency target and a throughput floor: the rule
// cheapestMeeting (core/calc/cost.h) applies to each candidate, for views that mark every candidate
// (the Cost tab's "Meets target" column) without a second copy of it. O(1).

#include "core/calc/cost.h"

namespace tpscope::core {

// Finite numbers, step latency at most maxStepLatencyMs and throughput at least minTokensPerSec;
// NaN limits admit nothing.
bool meetsTarget(const CostCandidate& candidate, double maxStepLatencyMs, double minTokensPerSec = 0);

}  // namespace tpscope::core
