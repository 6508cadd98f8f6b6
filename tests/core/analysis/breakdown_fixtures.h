// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// Field-by-field comparison of two breakdowns, for the tests that compute one result two ways (thread
// counts, coverage chunks) and expect the same numbers bit for bit.

#include "core/analysis/layer_breakdown.h"

namespace tpscope::test {

// Rows, steps, block sums, layer instances and rank totals, each with gtest expectations.
void expectSameBreakdown(const core::analysis::LayerBreakdown& a, const core::analysis::LayerBreakdown& b);

}  // namespace tpscope::test
