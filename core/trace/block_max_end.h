// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// The first event that can still be running at a time t0, in a list sorted by start whose events
// may overlap (concurrent kernels, imported traces, NVTX ranges): a prefix maximum of end times kept
// once per block of events. EventColumns and the timeline's NVTX depth rows (nvtx_depth_rows.h) both
// find their visible range this way; the level of detail relies on it for long events that began
// before the window.
//
// Input: n events by index, endAt(i) their ends. Mapping: blockMaxEnd[b] = max end over events
// [0, (b + 1) * block), non-decreasing. Cost: 8 bytes per block; building O(n); a lookup
// O(log(n / block) + block).

#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

#include "core/trace/event_columns.h"

namespace tpscope::core {

// Appends the prefix maxima of endAt(0..n) per block of `block` events to out (the last block may
// be short).
template <class EndAt>
void appendBlockMaxEnds(std::size_t n, std::size_t block, EndAt endAt, std::vector<std::int64_t>& out) {
    std::int64_t runningMax = INT64_MIN;
    for (std::size_t i = 0; i < n; ++i) {
        runningMax = std::max(runningMax, endAt(i));
        if ((i + 1) % block == 0 || i + 1 == n) out.push_back(runningMax);
    }
}

// Indices [first, last) of the events that overlap [t0, ...) among the n events before `last` (the
// first event starting at or after the window's end, found by the caller's search): the first
// block whose prefix maximum passes t0, then event by event inside it. Events before `first` have
// all ended by t0; events inside the range may have ended before t0 too when events overlap.
template <class EndAt>
IndexRange rangeAfterBlockMaxEnd(std::span<const std::int64_t> blockMaxEnd, std::size_t block, std::size_t n,
                                 std::size_t last, std::int64_t t0, EndAt endAt) {
    const auto b =
        static_cast<std::size_t>(std::upper_bound(blockMaxEnd.begin(), blockMaxEnd.end(), t0) - blockMaxEnd.begin());
    if (b == blockMaxEnd.size()) return {last, last};
    std::size_t first = b * block;
    std::int64_t runningMax = b == 0 ? INT64_MIN : blockMaxEnd[b - 1];
    const std::size_t blockEnd = std::min(n, first + block);
    while (first < blockEnd) {
        runningMax = std::max(runningMax, endAt(first));
        if (runningMax > t0) break;
        ++first;
    }
    if (first >= last) return {last, last};
    return {first, last};
}

}  // namespace tpscope::core
