#pragma once
// STAND-IN for core::analysis's exposed-communication intervals (DESIGN.md §5) until that module is
// merged: time a rank spends in collective kernels while no compute kernel runs on it. Replace the
// call in timeline/timeline_data.cpp with the analysis result and delete this file.
//
// Input: one rank's streams (each sorted by start). Unions the compute kernels and the collective
// kernels across streams (memcpy/memset count as neither), then subtracts. O(n log n) for n events
// on several streams, O(n) when each kind sits on one stream.

#include <cstdint>
#include <utility>
#include <vector>

#include "core/trace/trace.h"

namespace tpscope::ui {

using Interval = std::pair<std::int64_t, std::int64_t>;  // [start, end) in ns

std::vector<Interval> exposedCommIntervals(const core::Rank& rank);

// Sorted, non-overlapping union of the given intervals (sorted in place first when needed).
std::vector<Interval> unionOf(std::vector<Interval> intervals);
// a minus b; both sorted and non-overlapping.
std::vector<Interval> subtract(const std::vector<Interval>& a, const std::vector<Interval>& b);

}  // namespace tpscope::ui
