// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// Decoder layers as the repeating kernel sequence (DESIGN.md §5, issue 27 §1): what segments a trace
// that has neither NVTX layer ranges nor an all-reduce per block (TP 1 baselines, CUDA-graph replays).
//
// Input: one window's kernels (a step, or a whole rank), in start order, each with a token (its name
// family: template arguments, argument lists and digits dropped, so that tile sizes and template
// parameters do not break the repeat) and its kind.
// Mapping:
//   1. period p: the smallest p (4 <= p <= kMaxPeriod) whose runs of s[i] == s[i+p] that span at least
//      two periods cover >= 80 % of the kernels; failing that, >= 80 % of the best coverage of any p
//      and >= 50 % of the kernels; either way its unit holds at least two GEMMs (every decoder layer
//      has its projections);
//   2. passes: the maximal periodic regions; a gap shorter than p (an occasional extra kernel, an MoE
//      routing kernel) joins two regions into one pass, a longer one (embedding, LM head, sampling)
//      starts the next pass;
//   3. phase: the layer starts where the attention block's input norm starts: walking back from the
//      unit's attention kernel over light kernels (rope, cache writes), the QKV GEMMs, and the light
//      kernels before them (the norm) to the previous block's last GEMM or collective. Without an
//      attention kernel, at the first light kernel after a heavy one. The first layer of a pass takes
//      the kernels before the periodic region that belong to it (layer 0 differs: no residual input);
//   4. layers: whole periods from the phase to the region's end. In a window that holds several
//      passes, a first pass that starts at the window's start without a prologue is the tail of a
//      pass cut by the profiler: its layers are numbered from the end, like the window's longest pass.
//   5. units of several layers (models whose layers alternate kinds: sliding and full attention,
//      dense and MoE): a unit that holds k >= 2 separate runs of attention kernels, each with at least
//      two GEMMs before the next, is k layers, each starting where step 3 puts the start of a layer
//      before its attention run; without attention kernels, a unit of 2k >= 4 collective runs is k
//      layers of two collective-closed blocks. Every period is split alike.
// Complexity: for the period over the first m <= kMaxScan kernels, each period q tried costs O(m / q)
// plus the positions of its runs (step 1's measure): O(m log p) up to p where runs are short, up to
// O(m x p) where they are long (a sequence that repeats with several periods); every q up to
// min(m/2, kMaxPeriod) when no period covers 80 % (skipped when `hintPeriod` still covers them). Then
// O(n) for the passes.

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "core/trace/event_kind.h"
#include "core/trace/trace.h"

namespace tpscope::core::analysis {

struct RepeatKernel {
    std::int64_t startNs = 0;
    std::int64_t endNs = 0;
    std::uint32_t token = 0;
    EventKind kind = EventKind::Other;
};

struct RepeatLayer {
    std::size_t first = 0;  // kernel indices [first, last) in the window
    std::size_t last = 0;
    std::size_t pass = 0;  // forward pass within the window, 0-based
    int index = 0;         // layer index within its pass
};

// What told that a repeating unit holds several layers (step 5).
enum class UnitSplit : std::uint8_t { None = 0, Attention, Collectives };

struct RepeatResult {
    std::size_t period = 0;  // 0: no repeating sequence found
    std::size_t passes = 0;
    std::size_t layersPerUnit = 1;  // layers in one period (step 5)
    UnitSplit splitBy = UnitSplit::None;
    std::vector<RepeatLayer> layers;
};

inline constexpr std::size_t kMaxPeriod = 2048;
inline constexpr std::size_t kMaxScan = 16384;

// A rank's kernels (every stream, no copies or sets) in start order, tokenised by name family:
// the name up to its argument list, without digits. O(n log s) for s streams: each is in start order.
std::vector<RepeatKernel> repeatKernels(const Trace& trace, const Rank& rank);

// Step 1's measure for one period p: the tokens inside maximal runs of tokens[i] == tokens[i + p]
// that span at least two periods, and where the first such run starts (SIZE_MAX: none). Such a run
// holds a multiple of p: O(m / p) for m tokens, plus the runs followed from those positions.
struct RepeatCoverage {
    std::size_t covered = 0;
    std::size_t firstRegion = SIZE_MAX;
};
RepeatCoverage repeatCoverage(std::span<const std::uint32_t> tokens, std::size_t p);

RepeatResult findRepeatLayers(std::span<const RepeatKernel> kernels, std::size_t hintPeriod = 0);

}  // namespace tpscope::core::analysis
