// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// What the timeline derives once per trace (on the worker thread that produced or loaded it): NVTX
// depth rows, exposed-communication intervals, the kernels per kind of each rank, and a lookup from
// each collective kernel to its call in core's cross-rank matching, so that drawing, hit-testing and
// the Selection panel never scan the whole trace.
//
// Two stages, so that a large trace paints before its analysis is done (issue 18: a 100 M-event
// workspace): buildRows() needs the trace alone (the rows, exposed communication, kernel counts);
// build() adds the analysis' part (the collective lookup, the clock estimate) and shares the rows of
// an earlier buildRows() instead of deriving them again. A view shows either.
//
// Collective matching is core's (core::analysis::matchCollectives, DESIGN.md §5: per communicator,
// checked in time, wait capped at the kernel), read from the run's RunAnalysis, so the wait, skew,
// transfer and busbw the Selection panel shows are the numbers `tpscope-cli analyze --json` prints.
// Rows: O(n) per rank, the ranks two at a time. Collective lookup (core::analysis::CollectiveLookup):
// O(participants) to build, a few bytes per block of 64 calls (1.6 MB at 100 M events, where an
// index of every kernel took 160 MB); a lookup reads the calls near the kernel's start, microseconds.

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "core/analysis/analysis.h"
#include "core/analysis/clock_sync.h"
#include "core/analysis/collective_lookup.h"
#include "core/analysis/opening_excerpt.h"
#include "core/io/workspace/stored_analysis.h"
#include "core/trace/event_columns.h"
#include "core/trace/nvtx_depth_rows.h"
#include "core/trace/trace.h"

namespace tpscope::ui {

// One event of the trace by position: indices into trace.ranks, rank.streams and the stream's columns.
struct EventRef {
    int rank = -1;
    int stream = -1;
    std::size_t index = 0;
    bool valid() const { return rank >= 0 && stream >= 0; }
    bool operator==(const EventRef&) const = default;
};

struct CollectiveMember {
    EventRef event;
    std::int64_t startNs = 0;
    std::int64_t endNs = 0;
    std::int64_t waitNs = 0;  // core's wait: last arrival - this rank's start, capped at its kernel
};

// A view of one core::analysis::CollectiveCall with the members' kernels resolved.
struct CollectiveMatch {
    std::size_t ordinal = 0;                // the call's position among this rank's collective kernels
    std::vector<CollectiveMember> members;  // one per rank in the call, in rank order
    std::int64_t skewNs = 0;                // last arrival - first arrival
    std::int64_t transferNs = 0;            // core: median end - last arrival, >= 0
    std::uint64_t bytes = 0;
    double busbwBytesPerSec = 0;  // core::analysis::busBandwidth; NaN when unknown
    bool complete = true;         // every rank of the communicator took part
};

inline constexpr std::size_t kExposedBlock = 64;

struct RankTimelineData {
    // Per depth (0 step, 1 layer, 2 block): which of the trace's ranges the row draws. The ranges
    // themselves stay in the trace (Rank::ranges); nvtxRow() reads them through this index.
    std::vector<core::NvtxDepthIndex> nvtx;
    core::EventColumns exposed;  // exposed-communication intervals (kind Collective)
    // Sum of the exposed durations before each block of kExposedBlock intervals, so that exposedNs
    // of a window is O(log n + kExposedBlock) instead of a loop over every interval in it (12 M at
    // 100 M events, zoomed out: the timeline's exposed strip asks once per item and frame). Empty
    // when the intervals are not disjoint and sorted (then exposedNs loops).
    std::vector<std::int64_t> exposedBlockSum;
    std::int64_t exposedTotalNs = 0;
    std::array<std::size_t, core::kEventKindCount> kindCount{};  // events per kind (core::rangeStats)
    std::size_t kernelCount() const;                             // kernels only: memcpy and memset are not kernels
    // NVTX row `depth` (< nvtx.size()) of `rank`, the trace's rank these rows were built from.
    core::NvtxDepthRow nvtxRow(const core::Rank& rank, std::size_t depth) const { return {rank.ranges, nvtx[depth]}; }
    bool hasCollectives() const { return kindCount[static_cast<std::size_t>(core::EventKind::Collective)] > 0; }
};

class TimelineData {
  public:
    // The trace's part alone: rows, exposed communication and kernel counts; no analysis yet.
    // exposedComm: each rank's exposed-communication intervals as a workspace stored them
    // (core::loadStoredExposedComm), taken instead of derived from the trace.
    static std::shared_ptr<const TimelineData> buildRows(const core::Trace& trace,
                                                         std::optional<core::StoredExposedComm> exposedComm = {});
    // Everything. analysis: the run's analysis (shared, not copied); computed here when null (tests, a
    // bare view). rows: an earlier buildRows() of the same trace, whose rows are shared, not rebuilt.
    // clock: core::analysis::estimateClockOffsets(trace) when the caller ran it already (beside the
    // analysis, which needs the trace alone too); estimated here when absent.
    static std::shared_ptr<const TimelineData> build(const core::Trace& trace,
                                                     std::shared_ptr<const core::analysis::RunAnalysis> analysis = {},
                                                     const TimelineData* rows = nullptr,
                                                     std::optional<core::analysis::ClockEstimate> clock = {});

    // An opening excerpt's rows (core::analysis::OpeningExcerpt, timeline_excerpt.cpp): the rows of its
    // events, with each rank's kernel counts and exposed total those of the whole trace, so the rank
    // headers read as the whole trace's. excerpt() then says what the rows are a part of.
    struct ExcerptFacts {
        std::int64_t traceStartNs = 0;  // the whole trace's start, end and GPU event count
        std::int64_t traceEndNs = 0;
        std::uint64_t traceEventCount = 0;
        std::int64_t windowStartNs = 0;  // the window the excerpt holds exactly
        std::int64_t windowEndNs = 0;
    };
    static std::shared_ptr<const TimelineData> buildExcerptRows(const core::analysis::OpeningExcerpt& excerpt);
    const std::optional<ExcerptFacts>& excerpt() const { return m_excerpt; }

    const std::vector<RankTimelineData>& ranks() const { return *m_ranks; }
    // False for buildRows(): no matching, no clock estimate yet.
    bool hasAnalysis() const { return m_analysis != nullptr; }
    const core::analysis::RunAnalysis& analysis() const { return *m_analysis; }
    // Each rank's clock offset estimated from the collectives (core::analysis::estimateClockOffsets,
    // as `tpscope-cli info` reports it), for the rank headers. Empty without the analysis.
    const core::analysis::ClockEstimate& clock() const { return m_clock; }
    // The cross-rank match of a collective event; nullopt when the event is not a matched collective
    // or the analysis is not there yet.
    std::optional<CollectiveMatch> matchCollective(const core::Trace& trace, const EventRef& event) const;
    // The collective kernels of `rank` that start in [t0, t1), by start (ties: stream, then index).
    // Empty without the analysis.
    std::vector<EventRef> collectivesIn(const core::Trace& trace, std::size_t rank, std::int64_t t0,
                                        std::int64_t t1) const;
    // Exposed-communication time of rank r clipped to [t0, t1).
    // O(log n + kExposedBlock) for r's n intervals.
    std::int64_t exposedNs(std::size_t rank, std::int64_t t0, std::int64_t t1) const;

  private:
    std::shared_ptr<const std::vector<RankTimelineData>> m_ranks = std::make_shared<std::vector<RankTimelineData>>();
    std::shared_ptr<const core::analysis::RunAnalysis> m_analysis;
    core::analysis::ClockEstimate m_clock;
    core::analysis::CollectiveLookup m_lookup;  // over m_analysis->matching; empty without the analysis
    std::optional<ExcerptFacts> m_excerpt;      // set by buildExcerptRows alone
};

}  // namespace tpscope::ui
