// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// The opening excerpt of a trace: the stored trace's own events around the window the timeline
// opens on, with the whole trace's totals that the rank headers print, so that a large workspace
// paints its first timeline frame before its events are read (issue 31: 100 M events).
//
// Why an excerpt and not a coarse overview of the whole run: the timeline opens on one decode step
// (rank 0's second NVTX step, TimelinePanel::showPreview), not on the whole run; at 100 M events a
// whole-run overview holds nothing of that step. The excerpt holds that step's events exactly, so its
// frame is the full trace's frame; nothing in it is made up (a subset of the stored events, each as
// stored).
//
// Input: a finalized trace. Mapping: window = [start, end) of rank 0's depth-0 NVTX range number 1
// (number 0 when there is one); every stream and host thread keeps the events that
// EventColumns::visibleRange gives for [window start - w, window end + w), w = the window's length,
// and each NVTX depth 0-2 the ranges that overlap that span (plus the one before when needed to keep
// each range's position even or odd as in the whole trace: the timeline alternates NVTX colours by
// position). So every level-of-detail item inside the window is the one the whole trace gives (same
// events, same order), and the exposed communication inside the window is the same union.
// Totals: per rank the events per kind and the exposed-communication time of the whole trace
// (what TimelineData::buildRows would compute), the trace's start, end and GPU event count.
// Cost: O(n) for the totals (exposed communication of every rank, on `threads` threads) plus
// O(r) over each rank's NVTX ranges and O(log n + k) per stream for k kept events.

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "core/trace/trace.h"

namespace tpscope::core::analysis {

struct ExcerptRankTotals {
    std::array<std::uint64_t, kEventKindCount> kindCount{};  // events per kind, the whole rank
    std::int64_t exposedNs = 0;                              // exposed communication, the whole rank
    bool operator==(const ExcerptRankTotals&) const = default;
};

struct OpeningExcerpt {
    std::shared_ptr<const Trace> events;  // the kept events, every rank, stream and host thread of the trace
    std::int64_t windowStartNs = 0;       // the window the timeline opens on
    std::int64_t windowEndNs = 0;
    std::int64_t traceStartNs = 0;  // Trace::startNs / endNs / eventCount of the whole trace
    std::int64_t traceEndNs = 0;
    std::uint64_t traceEventCount = 0;
    std::vector<ExcerptRankTotals> ranks;  // one per rank of the trace
};

// Traces below this many GPU events open in well under a second: no excerpt is worth its bytes.
inline constexpr std::size_t kExcerptMinEvents = 1'000'000;

// The window the timeline opens on before the analysis: rank 0's warm NVTX step; nullopt without
// NVTX steps on rank 0 (the timeline then opens on the whole trace, which no excerpt can show).
std::optional<std::pair<std::int64_t, std::int64_t>> openingWindow(const Trace& trace);

// nullopt when the trace has no opening window.
std::optional<OpeningExcerpt> makeOpeningExcerpt(const Trace& trace, unsigned threads = 0);

}  // namespace tpscope::core::analysis
