// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// Layer segmentation (DESIGN.md §5): per rank, the decode steps and the decoder layers in them.
//
// Input: a finalized Trace. Mapping, per rank:
// - NVTX: depth-0 ranges whose name starts with a step prefix ("step 3", "ProfilerStep#12") or is
//   a serving engine's step annotation (step_annotation.h: vLLM, SGLang, TensorRT-LLM; these win
//   over ProfilerStep ranges around them, and give each step its phase and batch) are steps; ranges named "layer <i>"
//   (also "layer_3", "layers.3"; not "LayerNorm") are layers, in the step that holds their start; of nested layer
//   ranges ("layers.3" > "layers.3.mlp") only the shallowest depth counts. Layer ranges without step ranges: a new step
//   starts whenever the layer index does not increase.
// - Pattern rule, for ranks without layer ranges (foreign traces): each closing collective kernel
//   (all-reduce or a collective of unknown op; optionally every collective) ends a block that
//   began where the previous one ended; the first `leadingBlocks` blocks of a step are prologue,
//   then every `blocksPerLayer` blocks form one layer. Leftover blocks at a step's end are counted,
//   not turned into a layer. Steps: NVTX step ranges when present, else `layersPerStep` layers
//   each, else the whole rank is one step.
// - Repeat rule (repeat_layers.h), for the same ranks: the decoder layer as the repeating kernel
//   sequence of each step (TP 1 baselines, CUDA-graph replays: no collective closes a block). Without
//   step ranges each forward pass found is a step, split from the next at the longest kernel gap.
//   A unit that spans k layers (alternating layer kinds) is split into k (repeat_layers.h, step 5).
//   Order: the pattern rule when it finds as many layers as the repeat rule, or k >= 2 times as many
//   (a unit of k layers the split could not see: a collective count is never halved), else the repeat
//   rule when it finds any, else the pattern rule (repeat_segmentation.h: the repeat rule's windows and
//   this choice); `patternOnly` (the user set the pattern rule's parameters) skips the repeat rule.
//   Notes say which was used and why.
// - Blocks (layer_blocks.h): each layer's attention and MLP block, from the NVTX ranges one level below
//   the layer ranges, or, for repeat layers, split by kernel kinds after the attention output
//   projection (and its all-reduce). Pattern layers are not split.
// Step keys are the number in the step's name when every step of the rank has one, else the
// ordinal; ranks are aligned by (step key, layer index).
// Complexity: O(ranges + collectives log collectives) per NVTX rank (kernels not visited except for
// each stream's first start); ranks without layer ranges add the repeat rule's (repeat_layers.h) and
// O(n log streams) for their kernel list, which the block split of repeat layers reuses. Ranks are
// independent: one task per rank (util/parallel_for.h).

#include <cstdint>
#include <string>
#include <vector>

#include "core/analysis/block_windows.h"
#include "core/analysis/layer_windows.h"
#include "core/analysis/repeat_layers.h"
#include "core/trace/step_annotation.h"
#include "core/trace/trace.h"

namespace tpscope::core::analysis {

struct SegmentationOptions {
    std::vector<std::string> stepPrefixes{"step", "ProfilerStep"};  // case-insensitive
    std::string layerPrefix = "layer";                              // case-insensitive
    int blocksPerLayer = 2;                  // Megatron TP: attention and MLP, one all-reduce each
    int leadingBlocks = 0;                   // blocks before layer 0 in a step (1 for an embedding all-reduce)
    int layersPerStep = 0;                   // pattern rule without step ranges; 0 = one step per rank
    bool allCollectivesCloseBlocks = false;  // false: only all-reduce and unknown-op collectives
    // The user chose the pattern rule (--blocks-per-layer): no repeat rule. layersPerStep > 0 or
    // leadingBlocks > 0 choose it too.
    bool patternOnly = false;

    bool operator==(const SegmentationOptions&) const = default;
};

enum class SegmentationSource : std::uint8_t { None = 0, Nvtx, Pattern, Repeat };
std::string_view toString(SegmentationSource source);

struct StepWindow {
    std::int64_t key = 0;
    std::int64_t startNs = 0;
    std::int64_t endNs = 0;
    StepPhase phase = StepPhase::Unknown;  // from an engine's step annotation
    int batch = 0;                         // sequences decoding, from the annotation; 0 unknown
};

std::string_view toString(BlockKind kind);

struct RankSegmentation {
    RankId rank{};
    SegmentationSource source = SegmentationSource::None;
    std::vector<StepWindow> steps;       // sorted by start
    LayerWindows layers;                 // sorted by start; layer_windows.h
    BlockWindows blocks;                 // sorted by start; each inside its layer's window; block_windows.h
    std::size_t blockCount = 0;          // blocks.size() as segmented; kept when analyzeTrace releases them
    bool blocksDerived = false;          // blocks split by kernel kinds, not NVTX block ranges
    std::size_t unsplitLayers = 0;       // derived: layers with no attention kernel and GEMM after it
    std::size_t leftoverBlocks = 0;      // pattern rule: blocks that did not complete a layer
    std::size_t ignoredLayerRanges = 0;  // NVTX layer ranges outside every step range
    std::size_t repeatPeriod = 0;        // kernels per layer of the repeating sequence; 0 when none was found
    std::size_t patternLayerCount = 0;   // layers the pattern rule found (also when the repeat rule won)
    std::size_t repeatLayerCount = 0;    // layers the repeat rule found (also when the pattern rule won)
    std::size_t repeatLayersPerUnit = 1;  // layers in one repeating unit (repeat_layers.h, step 5)
    UnitSplit repeatSplitBy = UnitSplit::None;
    bool patternKeptAsMultiple = false;  // the pattern rule's count is k x the repeat rule's: kept
};

struct Segmentation {
    std::vector<RankSegmentation> ranks;  // same order as Trace::ranks
    std::vector<std::string> notes;       // what was assumed or could not be used, for the user
};

// Ranks are segmented on up to `threads` threads (0: one per hardware thread); the result does not
// depend on the thread count.
Segmentation segmentLayers(const Trace& trace, const SegmentationOptions& options = {}, unsigned threads = 0);

// "layer 12" -> 12 for prefix "layer"; -1 when the name is not a layer range.
int parseLayerIndex(std::string_view name, std::string_view prefix);
// Trailing number of a step name ("step 3", "ProfilerStep#12"); -1 when there is none.
std::int64_t parseTrailingNumber(std::string_view name);

}  // namespace tpscope::core::analysis
