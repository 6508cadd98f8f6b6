// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/analysis/opening_excerpt.h"

#include <algorithm>
#include <limits>

#include "core/analysis/exposed_comm.h"
#include "core/trace/range_stats.h"
#include "core/util/parallel_for.h"

namespace tpscope::core::analysis {

namespace {

// Depths the timeline draws as NVTX rows (TimelineData: nvtxDepthIndex(rank, 2)).
constexpr std::uint8_t kMaxDrawnDepth = 2;

void copyEvents(const EventColumns& from, std::int64_t a, std::int64_t b, EventColumns& to) {
    const IndexRange range = from.visibleRange(a, b);
    to.reserve(range.size());
    for (std::size_t i = range.first; i < range.last; ++i) to.append(from.at(i));
    to.finalize();
}

// The ranges of depths 0-2 that overlap [a, b) as the timeline's depth rows see them (by start within a
// depth; a range is kept from the first whose running maximum end passes a, as visibleRange does), each
// depth starting at an even position of the whole rank's row when its first kept one is at an even one,
// and at an odd one otherwise: the range before is kept too when that makes the parity match.
NvtxRanges keptRanges(const NvtxRanges& ranges, std::int64_t a, std::int64_t b) {
    constexpr std::size_t kNone = std::numeric_limits<std::size_t>::max();
    struct Depth {
        std::size_t position = 0;  // of the next range of this depth in the whole rank's row
        std::int64_t maxEnd = std::numeric_limits<std::int64_t>::min();
        bool keeping = false;
        std::size_t previous = kNone;  // index in ranges
    };
    std::array<Depth, kMaxDrawnDepth + 1> depths{};
    NvtxRanges kept;
    for (std::size_t i = 0; i < ranges.size(); ++i) {
        const std::uint8_t depth = ranges.depth(i);
        if (depth > kMaxDrawnDepth) continue;
        Depth& d = depths[depth];
        const std::int64_t start = ranges.startNs(i);
        d.maxEnd = std::max(d.maxEnd, ranges.endNs(i));
        if (!d.keeping && d.maxEnd > a && start < b) {
            d.keeping = true;
            // Position 0 of the excerpt's row must have the parity of this range's position.
            if (d.position % 2 == 1 && d.previous != kNone) kept.push_back(ranges[d.previous]);
        }
        if (d.keeping && start < b) kept.push_back(ranges[i]);
        d.previous = i;
        ++d.position;
    }
    // Sorted as Rank::ranges is (by start, then depth); stable keeps each depth's order.
    kept.finalize();
    return kept;
}

ExcerptRankTotals totalsOf(const Rank& rank, std::int64_t t0, std::int64_t t1, std::vector<TimeInterval>& exposed) {
    ExcerptRankTotals totals;
    const auto stats = rankRangeStats(rank, t0, t1);
    for (std::size_t k = 0; k < totals.kindCount.size(); ++k) totals.kindCount[k] = stats.kindCount[k];
    exposedCommIntervals(rank, exposed);
    for (const auto& [start, end] : exposed) totals.exposedNs += end - start;
    return totals;
}

}  // namespace

std::optional<std::pair<std::int64_t, std::int64_t>> openingWindow(const Trace& trace) {
    if (trace.ranks.empty()) return std::nullopt;
    // Rank 0's steps in start order (Rank::ranges is sorted by start); the second is warm.
    const NvtxRanges& ranges = trace.ranks.front().ranges;
    std::array<std::size_t, 2> steps{};
    std::size_t n = 0;
    for (std::size_t i = 0; i < ranges.size(); ++i) {
        if (ranges.depth(i) != 0) continue;
        if (n < 2) steps[n] = i;
        if (++n == 2) break;
    }
    if (n == 0) return std::nullopt;
    const NvtxRange step = ranges[n > 1 ? steps[1] : steps[0]];
    if (step.endNs <= step.startNs) return std::nullopt;
    return std::pair{step.startNs, step.endNs};
}

std::optional<OpeningExcerpt> makeOpeningExcerpt(const Trace& trace, unsigned threads) {
    const auto window = openingWindow(trace);
    if (!window) return std::nullopt;
    OpeningExcerpt out;
    out.windowStartNs = window->first;
    out.windowEndNs = window->second;
    out.traceStartNs = trace.startNs();
    out.traceEndNs = trace.endNs();
    out.traceEventCount = trace.eventCount();
    const std::int64_t margin = out.windowEndNs - out.windowStartNs;
    const std::int64_t a = out.windowStartNs - margin, b = out.windowEndNs + margin;

    auto events = std::make_shared<Trace>();
    events->names = trace.names;
    events->payloads = trace.payloads;
    events->origin = trace.origin;
    // Its events are the stored trace's own (the same origin); the source says it is a part of it.
    events->source = "opening excerpt of " + trace.source;
    events->metadata = trace.metadata;
    events->ranks.resize(trace.ranks.size());
    for (std::size_t r = 0; r < trace.ranks.size(); ++r) {
        const Rank& from = trace.ranks[r];
        Rank& to = events->ranks[r];
        to.id = from.id;
        to.host = from.host;
        to.deviceIndex = from.deviceIndex;
        to.deviceName = from.deviceName;
        to.clockOffsetNs = from.clockOffsetNs;
        to.ranges = keptRanges(from.ranges, a, b);
        to.streams.resize(from.streams.size());
        for (std::size_t s = 0; s < from.streams.size(); ++s) {
            to.streams[s].id = from.streams[s].id;
            to.streams[s].label = from.streams[s].label;
            copyEvents(from.streams[s].events, a, b, to.streams[s].events);
        }
        to.hostThreads.resize(from.hostThreads.size());
        for (std::size_t h = 0; h < from.hostThreads.size(); ++h) {
            to.hostThreads[h].threadId = from.hostThreads[h].threadId;
            to.hostThreads[h].label = from.hostThreads[h].label;
            copyEvents(from.hostThreads[h].events, a, b, to.hostThreads[h].events);
        }
    }
    out.events = std::move(events);

    // The whole trace's totals, as TimelineData::buildRows counts them (over [start, max(end, start + 1))).
    const std::int64_t t1 = std::max(out.traceEndNs, out.traceStartNs + 1);
    out.ranks.resize(trace.ranks.size());
    parallelForWithScratch<std::vector<TimeInterval>>(
        trace.ranks.size(), threads, [&](std::size_t r, std::vector<TimeInterval>& exposed) {
            out.ranks[r] = totalsOf(trace.ranks[r], out.traceStartNs, t1, exposed);
        });
    return out;
}

}  // namespace tpscope::core::analysis
