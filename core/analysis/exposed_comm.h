// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// Exposed-communication intervals of one rank (DESIGN.md §5): time a rank spends in collective
// kernels while no compute kernel runs on it. The timeline draws them; the per-layer breakdown
// (layer_breakdown.h) sums the same quantity per window.
//
// Input: one rank's streams (each sorted by start). Unions the collective kernels and subtracts the
// union of the compute kernels (memcpy/memset count as neither); both unions are streamed across the
// streams in start order, never held. O(n x s) for n events on s streams (O(n) on one); holds only
// the result (summarizeComm: nothing).

#include <vector>

#include "core/analysis/interval_union.h"
#include "core/trace/event_columns.h"
#include "core/trace/trace.h"

namespace tpscope::core::analysis {

using TimeInterval = Interval;  // [startNs, endNs)

std::vector<TimeInterval> exposedCommIntervals(const core::Rank& rank);
// The same into `out` (cleared first), reusing its capacity: a caller going rank by rank keeps one
// list instead of fresh pages for every rank.
void exposedCommIntervals(const core::Rank& rank, std::vector<TimeInterval>& out);
// The same as finalized columns, as the timeline draws them and a workspace stores them with the
// analysis (stored_analysis.h): events of kind Collective, no name (NameId{}), no payload. `scratch`
// holds the intervals on the way (its capacity reused as above).
core::EventColumns exposedCommColumns(const core::Rank& rank, std::vector<TimeInterval>& scratch);
// The same for every rank of `trace`, in Trace::ranks order, on up to `threads` threads (0: one per
// hardware thread).
std::vector<core::EventColumns> exposedCommColumns(const core::Trace& trace, unsigned threads = 0);

// Totals as the run summary and the simulator report them.
struct CommSummary {
    double commNs = 0;     // union of collective kernel time, summed over ranks
    double exposedNs = 0;  // of which no compute kernel was running, summed over ranks
};
CommSummary summarizeComm(const core::Rank& rank);
CommSummary summarizeComm(const core::Trace& trace);

// Sorted, non-overlapping union of the given intervals, in any order (unionInPlace after a sort).
std::vector<TimeInterval> unionOf(std::vector<TimeInterval> intervals);
// a minus b; both sorted and non-overlapping.
std::vector<TimeInterval> subtract(const std::vector<TimeInterval>& a, const std::vector<TimeInterval>& b);

}  // namespace tpscope::core::analysis
