// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// A rank's three coverage lists (compute, comm and the transfer part of comm: layer_breakdown.h),
// built one stretch of time at a time, so that the breakdown holds a chunk's intervals instead of
// a whole rank's (16 bytes a kernel: ~240 MB a rank at 100 M events, two ranks at once on two
// threads, the peak of the analysis).
//
// Input: the rank's streams (each sorted by start), its matched collective kernels, and its layer
// and step windows in start order.
// Mapping: planChunks cuts the rank's time at window starts that no earlier window reaches past,
// once every `windowsPerChunk` windows or more; chunk k is [cut k-1, cut k), the first from
// INT64_MIN, the last to INT64_MAX, and holds every window that starts in it (so ends in it too).
// ChunkedCoverage::cover(from, to) makes each list the union of its intervals clipped to
// [from, to): a kernel that started earlier and still runs adds [from, its end). A window inside the
// chunk measures the same on the clipped lists as on the whole ones (the mask times depend only on
// the coverage inside the window), so the breakdown is the same bit for bit. Windows that overlap
// across a would-be cut give fewer cuts; with none the rank is one chunk, the whole lists.
// Cost: one pass over each stream's kernels (and the transfers) for the whole rank, as for whole
// lists; memory: one chunk's intervals, in buffers reused from chunk to chunk (no fresh pages).
// The transfers are read in place when the rank's matched kernels come in transfer-start order
// (one channel: nearly always); else they are sorted and united once, 16 bytes each, as before.

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "core/analysis/collective_matching.h"
#include "core/analysis/interval_union.h"
#include "core/analysis/layer_segmentation.h"
#include "core/trace/event_scan.h"
#include "core/trace/trace.h"

namespace tpscope::core::analysis {

struct CoverageChunk {
    std::int64_t endNs = 0;    // the chunk is [the previous chunk's endNs (INT64_MIN first), endNs)
    std::size_t layerEnd = 0;  // layers [the previous chunk's layerEnd, layerEnd) start in it
    std::size_t stepEnd = 0;   // steps likewise
    bool operator==(const CoverageChunk&) const = default;
};

// Chunks of at least `windowsPerChunk` windows (layers and steps), except the last; one chunk
// when the layers or the steps are not in start order.
std::vector<CoverageChunk> planChunks(std::span<const StepWindow> steps, const LayerWindows& layers,
                                      std::size_t windowsPerChunk);

class ChunkedCoverage {
  public:
    // `mine`: the rank's matched kernels, indices into `participants`; `longWaits`: the matching's
    // (CollectiveMatching::longWaits). All must outlive this.
    ChunkedCoverage(const Rank& rank, std::span<const CallParticipant> participants,
                    std::span<const LongWait> longWaits, std::span<const std::uint32_t> mine);
    // The lists clipped to [fromNs, toNs). Chunks come in time order: fromNs no earlier than the
    // previous call's toNs (std::logic_error otherwise).
    void cover(std::int64_t fromNs, std::int64_t toNs);
    // compute, comm, transfer: each disjoint and sorted, valid until the next cover().
    std::array<std::span<const Interval>, 3> lists() const { return {m_compute, m_comm, m_transfer}; }

  private:
    struct StreamCursor {
        EventScan scan;                         // the stream's events, a block at a time
        std::size_t next = 0;                   // first event not read yet
        std::int64_t computeEndNs = INT64_MIN;  // latest end of the compute kernels read
        std::int64_t commEndNs = INT64_MIN;     // and of the collective ones
    };
    const Rank& m_rank;
    std::span<const CallParticipant> m_participants;
    std::span<const LongWait> m_longWaits;
    std::span<const std::uint32_t> m_mine;
    std::vector<Interval> m_transferSorted;  // united once when `mine` is not in transfer-start order
    bool m_transferInPlace = true;
    std::vector<StreamCursor> m_streams;
    std::size_t m_transferNext = 0;
    std::int64_t m_transferEndNs = INT64_MIN;
    std::int64_t m_coveredTo = INT64_MIN;
    std::vector<Interval> m_compute;
    std::vector<Interval> m_comm;
    std::vector<Interval> m_transfer;
    std::vector<Interval> m_streamCompute;  // one stream's part of the chunk
    std::vector<Interval> m_streamComm;
    std::vector<Interval> m_merged;  // merge target, swapped with the list
    Interval transferOf(std::uint32_t participant) const;
};

}  // namespace tpscope::core::analysis
