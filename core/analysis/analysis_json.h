// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// JSON renderings of analysis results for `tpscope-cli analyze | scaling | compare --json` and
// for exports; field names and units are documented in docs/cli.md. Times are ns, shares and
// losses fractions of step time (0..1), bandwidths bytes per second; unknown values are null.

#include <cstdint>
#include <vector>

#include "core/analysis/advice.h"
#include "core/analysis/analysis.h"
#include "core/analysis/compare.h"
#include "core/util/json_writer.h"

namespace tpscope::core::analysis {

struct AnalysisJsonOptions {
    std::int64_t rankIndex = -1;  // per-layer table of one rank; -1: every rank
    bool includeCalls = false;    // one entry per matched collective call (large)
};

void writeAnalysisJson(JsonWriter& w, const Trace& trace, const RunAnalysis& analysis,
                       const AnalysisJsonOptions& options = {});
void writeScalingJson(JsonWriter& w, const ScalingReport& report, const std::vector<AdviceItem>& advice);
void writeComparisonJson(JsonWriter& w, const RunComparison& comparison);

}  // namespace tpscope::core::analysis
