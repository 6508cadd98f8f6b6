// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// Per layer x rank (and per step x rank) time breakdown (DESIGN.md §5).
//
// Input: a finalized Trace, its Segmentation and CollectiveMatching. Mapping, per rank:
//   compute = union of non-collective GPU activity (GEMM, attention, elementwise, copies, other)
//   comm    = union of collective kernels
//   exposed = comm while no compute runs; overlapped = comm - exposed
//   exposed wait / transfer: exposed comm split at each kernel's matched wait (the part of a
//           collective kernel before the last rank arrived is waiting; the rest moves bytes; where
//           two collectives overlap, moving bytes wins)
//   idle    = no activity at all (launch gaps, host stalls)
// inside each window (layer, block, step), so computeOnly + overlapped + exposed + idle = wall exactly, and
// compute + exposed + idle = wall. Load imbalance per layer = max - min compute over ranks.
// Complexity: O(n) per stream to build unions (events are sorted by start), O(k log k) for the k
// collective kernels of a rank; a layer whose blocks (attention, MLP) partition it is measured as
// the sum of its blocks, which is exact (the masks' times add over disjoint windows), so the blocks
// cost no extra pass; block times are kept as sums per (rank, layer index, block), not per instance;
// windows are measured by a sweep over the rank's three coverage lists
// (CoverageSweep): the layers cost one pass; a step its layers tile adds only its gaps; rows placed
// by a merge of the ranks' (step, layer) orders, O(L log ranks). One task per rank
// (util/parallel_for.h): each holds its rank's coverage lists (16 bytes an interval) for one chunk
// of time at a time, cut where no window crosses (coverage_chunks.h), not for the whole rank.
// Memory: 32 bytes a layer x rank row (layer_rows.h), 56 a layer instance.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/analysis/collective_matching.h"
#include "core/analysis/layer_rows.h"
#include "core/analysis/layer_segmentation.h"
#include "core/trace/trace.h"

namespace tpscope::core::analysis {

// One rank's time in one block (attention or MLP) of one layer index, summed over its steps: the
// per-block table's input. Sums, not one row per instance, so the blocks add little memory.
struct BlockRankSum {
    std::uint32_t rankIndex = 0;
    int layer = 0;
    BlockKind block = BlockKind::Attention;
    std::size_t samples = 0;  // block instances summed (steps, and blocks of one kind in a layer)
    TimeBreakdown time;
};

struct StepRankRow {
    std::int64_t step = 0;
    std::uint32_t rankIndex = 0;
    std::int64_t startNs = 0;
    TimeBreakdown time;
};

// One layer instance (step, layer) across the ranks that have it. 56 bytes: the 64-bit fields
// first, so that no padding sits between them (1.25 M instances at 100 M events).
struct LayerAcrossRanks {
    std::int64_t step = 0;
    std::int64_t maxWallNs = 0;
    std::int64_t minComputeNs = 0;
    std::int64_t maxComputeNs = 0;
    double meanComputeNs = 0;
    int layer = 0;
    std::uint32_t ranks = 0;
    std::uint32_t firstRow = 0;          // rows [firstRow, firstRow + ranks) of LayerBreakdown::rows
    std::uint32_t slowestRankIndex = 0;  // most compute
    std::int64_t imbalanceNs() const { return maxComputeNs - minComputeNs; }
};
static_assert(sizeof(LayerAcrossRanks) == 56);

struct LayerBreakdown {
    LayerRows rows;                        // sorted by (step, layer, rank); layer_rows.h
    std::vector<BlockRankSum> blockSums;   // sorted by (rank, layer, block)
    std::vector<StepRankRow> steps;        // sorted by (step, rank)
    std::vector<LayerAcrossRanks> layers;  // sorted by (step, layer)
    // Whole-rank totals over all step windows, one per Trace::ranks entry.
    std::vector<TimeBreakdown> rankTotals;
};

// Windows (layers and steps) a coverage chunk holds at least (coverage_chunks.h): about 160 kB of
// intervals for decode layers of ten kernels, reused from chunk to chunk.
inline constexpr std::size_t kBreakdownWindowsPerChunk = 1024;

// Ranks are measured on up to `threads` threads (0: one per hardware thread); the result does not
// depend on the thread count, nor on `windowsPerChunk` (a test knob: SIZE_MAX measures each rank
// over its whole coverage lists at once).
LayerBreakdown computeBreakdown(const Trace& trace, const Segmentation& segmentation,
                                const CollectiveMatching& matching, unsigned threads = 0,
                                std::size_t windowsPerChunk = kBreakdownWindowsPerChunk);

}  // namespace tpscope::core::analysis
