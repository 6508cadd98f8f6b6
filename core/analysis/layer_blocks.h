// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// Attention and MLP blocks inside decoder layers (DESIGN.md §5, issue 27 §1).
//
// Input: one rank's layer windows (sorted by start) and either its NVTX ranges or its kernels in start
// order (repeat_layers.h: every stream, no copies or sets). A kernel belongs to the block whose window
// holds its start, as it belongs to a layer.
// Mapping:
//   NVTX: ranges one depth below the layer ranges, starting inside a layer window, named for attention
//     ("attention", "attn", "self_attn") or for the MLP ("mlp", "ffn", "feed_forward", "moe",
//     "experts"); a name with "norm" in it ("post_attention_layernorm") is neither.
//   Derived from the kernel kinds (repeat layers; pattern layers are not split): the attention block runs from the
//     layer's start to the start of the first kernel after the attention output projection, the MLP
//     block from there to the layer's end. The output projection is the first GEMM after the layer's
//     last attention kernel; collective kernels right after it belong to the attention block (at
//     TP > 1 a row-parallel projection's all-reduce closes the attention block, as in Megatron and
//     vLLM). So the residual add and the post-attention norm open the MLP block. This is the
//     simulator's own split (decode_plan.cpp: PostAttnNorm is the MLP block's first op; its "mlp"
//     range starts at that kernel) and Hugging Face transformers' (Qwen2Attention ends with o_proj;
//     the residual add and post_attention_layernorm follow in the decoder layer: checked on the
//     public tracelens-h100-qwen trace through its python_function module stack). A layer without an
//     attention kernel, without a GEMM after it, or with nothing after that GEMM and its collectives
//     is not split.
// Complexity: O(kernels + layers) per rank, one forward walk; O(ranges) for NVTX.

#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "core/analysis/layer_segmentation.h"
#include "core/analysis/repeat_layers.h"
#include "core/trace/trace.h"

namespace tpscope::core::analysis {

// The block an NVTX range's name stands for, if any.
std::optional<BlockKind> blockKindOfName(std::string_view name);

// NVTX block ranges at `depth` inside `layers`, in start order.
std::vector<BlockWindow> nvtxBlocks(const Trace& trace, const Rank& rank, std::span<const LayerWindow> layers,
                                    int depth);
// The same into `out` (cleared first, its capacity kept): a worker that segments rank after rank
// reuses one list instead of faulting in a fresh one a rank (80 MB a rank at 100 M events).
void nvtxBlocks(const Trace& trace, const Rank& rank, std::span<const LayerWindow> layers, int depth,
                std::vector<BlockWindow>& out);

struct DerivedBlocks {
    std::vector<BlockWindow> blocks;  // in start order, two per split layer
    std::size_t unsplitLayers = 0;
};
// Splits each layer at the end of its attention output projection (see the header).
DerivedBlocks splitLayersByKernelKind(std::span<const RepeatKernel> kernels, std::span<const LayerWindow> layers);

}  // namespace tpscope::core::analysis
