// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// The layer x rank rows of the breakdown (layer_breakdown.h), held compactly: at 100 M events there
// are 10 M of them, 880 MB as LayerRankRow values.
//
// Input: rows stored by computeBreakdown in (step, layer, rank) order, the rows of one layer
// instance (step, layer) together. Mapping: an instance's step and layer are kept once; a row keeps
// its rank, its start and five times as 32-bit nanoseconds (wall, compute, overlapped comm, exposed
// wait, exposed transfer). The other three are sums of those, the breakdown's partition:
// exposed comm = wait + transfer, comm = exposed + overlapped, idle = wall - compute - exposed.
// A row whose times do not fit in 32 bits (a layer of 4.29 s or more) or do not add up so is kept
// whole in a side table: every row reads back exactly as it was stored.
// Cost: 32 bytes a row and 16 an instance (LayerRankRow: 88). Row i by index: O(log instances);
// while iterating: O(1) a row (plus O(log wide rows) when any row is wide).

#include <cstdint>
#include <utility>
#include <vector>

#include "core/analysis/run_iterator.h"
#include "core/util/default_init_allocator.h"

namespace tpscope::core::analysis {

struct TimeBreakdown {
    std::int64_t wallNs = 0;
    std::int64_t computeNs = 0;
    std::int64_t commNs = 0;
    std::int64_t exposedCommNs = 0;
    std::int64_t overlappedCommNs = 0;
    std::int64_t exposedWaitNs = 0;
    std::int64_t exposedTransferNs = 0;
    std::int64_t idleNs = 0;

    std::int64_t computeOnlyNs() const { return computeNs - overlappedCommNs; }
    TimeBreakdown& operator+=(const TimeBreakdown& o);
    bool operator==(const TimeBreakdown&) const = default;
};

struct LayerRankRow {
    std::int64_t step = 0;
    int layer = 0;
    std::uint32_t rankIndex = 0;
    std::int64_t startNs = 0;
    TimeBreakdown time;
};

class LayerRows {
  public:
    struct Instance {
        std::int64_t step = 0;
        int layer = 0;
        std::uint32_t firstRow = 0;  // the instance's rows run to the next instance's firstRow
    };
    using WideRow = std::pair<std::uint32_t, TimeBreakdown>;  // row index, its times

    using Iterator = RunIterator<LayerRows, LayerRankRow>;

    // Room for `rows` rows of `instances` (firstRow increasing, the first at row 0); every row must
    // then be stored once before it is read (the room is not cleared: 320 MB at 100 M events). Throws
    // std::invalid_argument when the instances do not fit that.
    void reset(std::vector<Instance> instances, std::size_t rows);
    // Stores row i (distinct rows may be stored from different threads). Its step and layer must be
    // its instance's (std::invalid_argument otherwise). Returns false when its times need the side
    // table: the caller hands those to keepWide once every row is stored.
    bool store(std::size_t i, const LayerRankRow& row);
    void keepWide(std::vector<WideRow> wide);

    std::size_t size() const { return m_rows.size(); }
    bool empty() const { return m_rows.empty(); }
    LayerRankRow operator[](std::size_t i) const;
    // Row i onwards (one binary search, then O(1) a row): an instance's rows without a search each.
    Iterator from(std::size_t i) const { return {this, i, i < m_rows.size() ? instanceOf(i) : m_instances.size()}; }
    Iterator begin() const { return {this, 0, 0}; }
    Iterator end() const { return {this, m_rows.size(), m_instances.size()}; }
    std::size_t instanceCount() const { return m_instances.size(); }
    // The times of rows [first, last) summed (of rank rankIndex's alone where it is >= 0), without
    // unpacking a row: a stored row's derived times are sums of its five (exposed comm = wait +
    // transfer, ...), so their sums are the same sums of the five sums, exactly. The per-layer tables
    // read 10 M rows at 100 M events, as a run opens (run_summary.h's layerTable). O(last - first), plus
    // O(log wide rows) a wide row.
    struct TimesSum {
        TimeBreakdown time;
        std::size_t rows = 0;
    };
    TimesSum sumTimes(std::size_t first, std::size_t last, std::int64_t rankIndex = -1) const;
    const std::vector<Instance>& instances() const { return m_instances; }  // by firstRow
    std::size_t wideRowCount() const { return m_wide.size(); }
    std::size_t residentBytes() const;

  private:
    // No default member initialisers: reset() leaves the rows unwritten (DefaultInitAllocator), and
    // each rank's task faults its own rows' pages in as it stores them.
    struct Packed {
        std::int64_t startNs;
        std::uint32_t rankIndex;
        std::uint32_t wallNs;  // kWide: the times are in m_wide
        std::uint32_t computeNs;
        std::uint32_t overlappedCommNs;
        std::uint32_t exposedWaitNs;
        std::uint32_t exposedTransferNs;
    };
    static_assert(sizeof(Packed) == 32, "the row budget of issue 31: 32 bytes a layer x rank row");
    static constexpr std::uint32_t kWide = 0xFFFFFFFF;

    friend Iterator;
    LayerRankRow unpack(std::size_t row, std::size_t instance) const;
    std::size_t runOf(std::size_t row, std::size_t previousInstance) const {
        const bool next =
            previousInstance + 1 < m_instances.size() && row >= m_instances[previousInstance + 1].firstRow;
        return next ? previousInstance + 1 : previousInstance;
    }
    std::size_t instanceOf(std::size_t row) const;

    std::vector<Packed, DefaultInitAllocator<Packed>> m_rows;
    std::vector<Instance> m_instances;
    std::vector<WideRow> m_wide;  // sorted by row index
};

}  // namespace tpscope::core::analysis
