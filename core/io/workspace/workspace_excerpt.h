// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// A run's opening excerpt in the workspace (schema version 3, docs/formats.md): one row of
// run_excerpts per run that has one (the window, the whole trace's span and event count, and the
// per-rank totals as a blob), and the excerpt's events in the run tables under excerpt_id, a negative
// id that no run has, written and read exactly as a run's trace is.
//
// Totals blob: varint rank count, varint kind count (<= kEventKindCount), then per rank its event
// count of each kind (varints) and its exposed-communication time (zigzag varint). O(ranks) both ways.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/analysis/opening_excerpt.h"
#include "core/util/result.h"

namespace tpscope::core {

inline std::int64_t excerptIdOf(std::int64_t runId) {
    return -1 - runId;
}

std::string encodeExcerptTotals(const std::vector<analysis::ExcerptRankTotals>& ranks);
// A blob that is cut short, too long, names more kinds than this build knows or another rank count
// than `rankCount` is an error; out is left empty then.
Status decodeExcerptTotals(std::string_view raw, std::size_t rankCount, std::vector<analysis::ExcerptRankTotals>& out);

}  // namespace tpscope::core
