// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// The timeline's NVTX rows (one per depth: 0 step, 1 layer, 2 block), read straight from the
// trace's Rank::ranges instead of a copy of them (issue 31: a copy in EventColumns was 13.3 bytes a
// range, 0.4 GB at 30 M ranges).
//
// Input: a rank's ranges (sorted by start, then by depth, as Trace::finalize leaves them; any order
// is accepted). Mapping: depth d's row holds the ranges of depth d in start order (ties: their order
// in Rank::ranges), each seen as an event of kind Other with the range's name, its start and a
// duration of max(0, end - start): exactly what an EventColumns of the same ranges would return, so
// core::visibleSpans draws the same items from either. Depths beyond maxDepth are dropped.
// Cost: 4 bytes a range (its position in Rank::ranges) plus 8 bytes per EventColumns::kBlock ranges
// (the prefix maxima of ends that find the first range still running at a window's start); built
// once per trace in O(r) (O(r log r) when the ranges are out of order). A row reads a range's
// columns (NvtxRanges) through its position: one more load than a row of its own.

#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

#include "core/trace/event_columns.h"
#include "core/trace/trace.h"

namespace tpscope::core {

// Which ranges of a rank form one depth's row. Belongs to the ranges it was built from: a row built
// over ranges of another size is empty.
struct NvtxDepthIndex {
    std::vector<std::uint32_t> positions;   // into Rank::ranges, in the row's order
    std::vector<std::int64_t> blockMaxEnd;  // max end over the row's ranges [0, (b + 1) * kBlock)
    std::size_t rangeCount = 0;             // Rank::ranges.size() when built
    std::size_t size() const { return positions.size(); }
    bool empty() const { return positions.empty(); }
};

// One index per depth 0..maxDepth that has ranges below it (trailing depths without ranges are left
// out, like an EventColumns row never appended to). A rank of 2^32 ranges or more (96 GB of
// ranges) gets no rows.
std::vector<NvtxDepthIndex> nvtxDepthIndex(const Rank& rank, int maxDepth = 2);

// One depth's ranges as a read-only event list with EventColumns' accessors. Holds pointers into
// the ranges and the index: both must outlive it, unchanged.
class NvtxDepthRow {
  public:
    static constexpr std::size_t kBlock = EventColumns::kBlock;

    NvtxDepthRow() = default;
    NvtxDepthRow(const NvtxRanges& ranges, const NvtxDepthIndex& index);

    std::size_t size() const { return m_positions.size(); }
    bool empty() const { return m_positions.empty(); }
    std::size_t position(std::size_t i) const { return m_positions[i]; }  // in Rank::ranges
    NvtxRange range(std::size_t i) const { return (*m_ranges)[m_positions[i]]; }
    std::int64_t startNs(std::size_t i) const { return m_ranges->startNs(m_positions[i]); }
    std::int64_t durNs(std::size_t i) const { return std::max<std::int64_t>(0, m_ranges->durNs(m_positions[i])); }
    std::int64_t endNs(std::size_t i) const { return startNs(i) + durNs(i); }
    NameId name(std::size_t i) const { return m_ranges->name(m_positions[i]); }
    static EventKind kind(std::size_t /*i*/) { return EventKind::Other; }
    // Starts loading range i's position; its columns follow once the position is in (see the
    // level of detail's prefetch).
    void prefetch(std::size_t i) const { __builtin_prefetch(&m_positions[i]); }
    // As EventColumns::visibleRange: [first, last) of every range that overlaps [t0, t1), possibly
    // with some that ended before t0 when ranges of the depth overlap.
    IndexRange visibleRange(std::int64_t t0, std::int64_t t1) const;

  private:
    const NvtxRanges* m_ranges = nullptr;
    std::span<const std::uint32_t> m_positions;
    std::span<const std::int64_t> m_blockMaxEnd;
};

}  // namespace tpscope::core
