// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/trace/nvtx_depth_rows.h"

#include <algorithm>
#include <limits>

#include "core/trace/block_max_end.h"

namespace tpscope::core {

std::vector<NvtxDepthIndex> nvtxDepthIndex(const Rank& rank, int maxDepth) {
    if (rank.ranges.size() > std::numeric_limits<std::uint32_t>::max()) return {};
    // Counted first so that each list is allocated once at its size.
    std::vector<std::size_t> counts;
    const NvtxRanges& ranges = rank.ranges;
    for (std::size_t i = 0; i < ranges.size(); ++i) {
        const std::uint8_t depth = ranges.depth(i);
        if (depth > maxDepth) continue;
        if (counts.size() <= depth) counts.resize(depth + 1u);
        ++counts[depth];
    }
    std::vector<NvtxDepthIndex> rows(counts.size());
    for (std::size_t d = 0; d < rows.size(); ++d) {
        rows[d].positions.reserve(counts[d]);
        rows[d].rangeCount = ranges.size();
    }
    for (std::size_t i = 0; i < ranges.size(); ++i) {
        const auto depth = ranges.depth(i);
        if (depth <= maxDepth) rows[depth].positions.push_back(static_cast<std::uint32_t>(i));
    }
    const auto byStart = [&](std::uint32_t a, std::uint32_t b) { return ranges.startNs(a) < ranges.startNs(b); };
    for (auto& row : rows) {
        // Out of order only in a trace that was not finalized: sorted stably, as EventColumns would.
        // Finalized ranges lie by start, and so does any row of them in index order: not checked (a
        // pass over every range's start, ~1 % of a 100 M-event open).
        if (!ranges.finalized() && !std::is_sorted(row.positions.begin(), row.positions.end(), byStart)) {
            std::stable_sort(row.positions.begin(), row.positions.end(), byStart);
        }
        const NvtxDepthRow view(ranges, row);
        row.blockMaxEnd.reserve((row.size() + NvtxDepthRow::kBlock - 1) / NvtxDepthRow::kBlock);
        appendBlockMaxEnds(
            row.size(), NvtxDepthRow::kBlock, [&](std::size_t i) { return view.endNs(i); }, row.blockMaxEnd);
    }
    return rows;
}

NvtxDepthRow::NvtxDepthRow(const NvtxRanges& ranges, const NvtxDepthIndex& index) {
    if (ranges.size() != index.rangeCount) return;  // an index of other ranges: nothing to draw
    m_ranges = &ranges;
    m_positions = index.positions;
    m_blockMaxEnd = index.blockMaxEnd;
}

IndexRange NvtxDepthRow::visibleRange(std::int64_t t0, std::int64_t t1) const {
    if (empty() || t1 <= t0) return {};
    std::size_t last = 0;
    for (std::size_t len = size(); len > 0;) {  // first range starting at or after t1
        const std::size_t half = len / 2;
        if (startNs(last + half) < t1) {
            last += half + 1;
            len -= half + 1;
        } else {
            len = half;
        }
    }
    return rangeAfterBlockMaxEnd(m_blockMaxEnd, kBlock, size(), last, t0, [this](std::size_t i) { return endNs(i); });
}

}  // namespace tpscope::core
