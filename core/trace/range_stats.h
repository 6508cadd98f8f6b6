// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// Statistics of a time range of a trace, per rank: time and event count per kind, each event clipped
// to [t0, t1). Kernels that run concurrently on different streams each count their own time, so the
// per-kind times of a rank may add up to more than the range. This is what the timeline shows for a
// dragged range and what a CLI can print for the same range.
//
// O(k + ranks · streams · log n) for k events overlapping the range.

#include <array>
#include <cstdint>
#include <vector>

#include "core/trace/trace.h"

namespace tpscope::core {

struct RankRangeStats {
    RankId rank{};
    std::array<std::int64_t, kEventKindCount> kindNs{};
    std::array<std::size_t, kEventKindCount> kindCount{};
    std::int64_t totalNs() const;
    std::size_t totalCount() const;
};

struct RangeStats {
    std::int64_t t0 = 0;
    std::int64_t t1 = 0;
    std::vector<RankRangeStats> ranks;  // one per rank of the trace, in trace order
};

RangeStats rangeStats(const Trace& trace, std::int64_t t0, std::int64_t t1);
// One rank's part of rangeStats (for work split by rank).
RankRangeStats rankRangeStats(const Rank& rank, std::int64_t t0, std::int64_t t1);

}  // namespace tpscope::core
