// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// The MoE story of a TP x batch sweep in words: how many experts a step touches at each batch and
// the weight bytes one GPU reads per step at each TP, so a report can say that a MoE model's weight
// traffic grows with batch (a dense model's does not).
//
// Input: the plan configurations of a sweep (one model). Output: sentences; none for a dense model
// or when a configuration's plan fails. Cost: one decode plan per (TP, batch) pair.

#include <string>
#include <vector>

#include "core/workload/decode_plan.h"

namespace tpscope::core {

std::vector<std::string> moeTrafficNotes(const std::vector<PlanConfig>& configs);

}  // namespace tpscope::core
