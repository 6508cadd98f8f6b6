// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// Level of detail for drawing one timeline row (STYLE.md "Timeline rendering", after Tracy and the
// Qt Creator tracing library): the events of one EventColumns that overlap [t0, t1), reduced to at
// most one item per pixel column of a row widthPx wide.
//
// Input: a finalized EventColumns (sorted by start), or one depth of a rank's NVTX ranges
// (NvtxDepthRow, which reads as the same columns would). Mapping: pixel column c holds the times
// t with floor((t - t0) * widthPx / (t1 - t0)) == c. Every item gathers the events whose start lies
// in one or more consecutive columns, so item start columns strictly increase and a row yields at
// most widthPx items. An event at least one pixel wide that is alone in its start column is an exact
// item (count 1). Runs of narrower events are folded into one item with a count, the dominant kind
// and a representative (the longest event seen); a run keeps growing while the next column's events
// are all narrow and the first of them starts within one pixel of the run's end, so a dense
// stretch becomes one item.
// When zoomed in far enough that every event is at least a pixel wide and no two share a start
// column, the items are exactly the events.
//
// Complexity: O(widthPx · (log g + kKindSamples)) where g is the number of events per column: the
// next column boundary is found by a doubling search around a guess (the previous column's event
// count), never by visiting the events in between. Inside a run of at least 16 narrow events per
// column, up to 16 columns are taken at once when they hold the events the run's density predicts
// (within 1/8), so a fully zoomed-out row of millions of events costs far fewer than widthPx steps;
// such a jump can fold a gap or a wider event of up to about two pixels into the run. The dominant kind and the
// representative of a folded run are therefore estimated from at most kKindSamples events spread evenly over each
// column group (weighted by duration); they are exact for groups of up to kKindSamples events.
//
// On a stream whose events overlap (imported concurrent kernels), an item's end is the end of the
// last event of each group and of the sampled events, which may miss a long event hidden inside a
// group; the counts stay exact.

#include <cstdint>
#include <vector>

#include "core/trace/event_columns.h"
#include "core/trace/nvtx_depth_rows.h"

namespace tpscope::core {

struct LodSpan {
    std::int64_t startNs = 0;           // start of the first event
    std::int64_t endNs = 0;             // latest end among the events (see the header note for overlapping streams)
    std::size_t firstIndex = 0;         // index of the first event in the columns
    std::size_t count = 0;              // events folded into this item; 1 = exact
    std::size_t representative = 0;     // index of the longest event seen (== firstIndex when exact)
    EventKind kind = EventKind::Other;  // the event's kind, or the dominant kind of a run
    bool folded() const { return count > 1; }
};

// Three samples per column group (first, middle, last): a run spanning many columns still sees
// three per column, and each sample is a cache miss on a large trace.
inline constexpr std::size_t kKindSamples = 3;

// Appends to out (cleared first) so a caller can reuse the buffer every frame.
void visibleSpans(const EventColumns& events, std::int64_t t0, std::int64_t t1, int widthPx, std::vector<LodSpan>& out);
std::vector<LodSpan> visibleSpans(const EventColumns& events, std::int64_t t0, std::int64_t t1, int widthPx);
// The same for an NVTX row: indices are the row's (0 .. size), not Rank::ranges'.
void visibleSpans(const NvtxDepthRow& events, std::int64_t t0, std::int64_t t1, int widthPx, std::vector<LodSpan>& out);
std::vector<LodSpan> visibleSpans(const NvtxDepthRow& events, std::int64_t t0, std::int64_t t1, int widthPx);

// Pixel column of time t for a row of widthPx showing [t0, t1); may be negative or >= widthPx for
// times outside the range. Exact integer arithmetic (128-bit products), no rounding drift.
std::int64_t pixelColumn(std::int64_t t, std::int64_t t0, std::int64_t t1, int widthPx);
// First time that falls in column c (the inverse of pixelColumn).
std::int64_t columnStartNs(std::int64_t c, std::int64_t t0, std::int64_t t1, int widthPx);

}  // namespace tpscope::core
