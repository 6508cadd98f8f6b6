// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// What a trace says about itself (DESIGN.md §5, advice), for traces users bring:
// - launch- or CPU-bound steps: a step whose GPUs idle most of its wall time (idle = no kernel at
//   all, summed over ranks / summed wall) is limited by the host launching kernels, not by
//   communication; the finding gives the idle share and points at CUDA graphs or larger batches.
//   When the trace has host rows (core/analysis/host_idle.h) it also names the share of the idle
//   gaps that waited for the kernel's launch call: the host as the measured cause.
// - a single-rank trace of a multi-rank job: the wait cannot be split from the transfer, so the
//   finding gives the all-reduces' share of kernel time and their bus bandwidth (whole kernel time,
//   wait included: a lower bound) against the fabric's bound when the fabric is known.
// Input: the trace and its RunAnalysis. O(steps x ranks + calls).

#include <optional>
#include <string>
#include <vector>

#include "core/analysis/layer_breakdown.h"
#include "core/analysis/run_summary.h"

namespace tpscope::core::analysis {

enum class FindingKind : std::uint8_t { LaunchBound, SingleRankCollectives };
std::string_view toString(FindingKind kind);

struct TraceFinding {
    FindingKind kind = FindingKind::LaunchBound;
    double value = 0;  // LaunchBound: idle share of the worst step; SingleRank: all-reduce share of kernel time
    std::vector<std::int64_t> steps;    // LaunchBound: the steps over the threshold
    double busbwBytesPerSec = 0;        // SingleRank: median over the all-reduce calls (NaN when unknown)
    double fabricBusbwBytesPerSec = 0;  // SingleRank: the bound it is held against (0: no fabric known)
    std::uint32_t communicatorSize = 0;
    std::string text;
};

struct FindingOptions {
    double launchBoundIdleShare = 0.5;  // "most of the time"
    double fabricBusbwBytesPerSec = 0;  // 0: unknown
    std::string fabricId;

    bool operator==(const FindingOptions&) const = default;
};

std::vector<TraceFinding> findTraceIssues(const Trace& trace, const CollectiveMatching& matching,
                                          const LayerBreakdown& breakdown, const RunSummary& summary,
                                          const FindingOptions& options = {});

}  // namespace tpscope::core::analysis
