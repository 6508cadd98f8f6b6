// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// The model behind a trace that does not name it (issue 27 §4, issue 32 §3): "Simulate this
// configuration" on an imported trace prefills this model.
//
// Input: the trace (GEMM kernels with a GemmPayload: tpscope's own exports carry `gemm m/n/k`, PyTorch
// traces recorded with shapes get them from the launching op's Input Dims; attention kernels; kernel
// names; metadata "model", "tp", attention_heads / attention_kv_heads / attention_head_dim), its layer
// segmentation (layers per step) and the model catalog.
// Mapping, in order of evidence:
// 1. metadata "model" naming a catalog model decides alone;
// 2. on the first rank with GEMM shapes, in time order: the hidden size is the most common GEMM
//    dimension; the GEMMs between two attention kernels are one layer's O-proj (the first GEMM writing
//    the hidden size: its K is heads x head dim per rank), its MLP (ending in the last GEMM writing the
//    hidden size: K = FFN or expert FFN per rank) and the next layer's QKV (the GEMMs reading the hidden
//    size after it: their N add up to (heads + 2 kv heads) x head dim per rank); each is the mode over
//    the layers. MoE: expert GEMMs by name (the MoE block of resources/kernel_rules.json: fused_moe,
//    Triton matmul_ogs, grouped/CUTLASS MoE GEMMs); the router is the narrowest plain GEMM reading the
//    hidden size in a MoE layer (N = experts); top-k = expert GEMM rows / token rows; the experts'
//    weight format from the expert kernel names (mxfp4, nvfp4, fp8). The LM head is the widest GEMM
//    reading the hidden size that runs at most once per a few layers (N = vocabulary per rank). Layers
//    per step come from the segmentation, else the attention ops per step (a run of attention
//    kernels without a GEMM between them is one op: split-KV decoding launches two). TP: traceTp().
// 3. Each catalog model is sharded at that TP (shardModel, detail::attentionShapes) and compared
//    dimension by dimension with what was observed; a model matches when its hidden size is equal and
//    no observed dimension differs; the one with most agreeing dimensions wins. No match: a custom
//    model from the inferred dimensions (dense, or MoE when experts, top-k and expert width are known).
// A trace without GEMM shapes gives no model and says so, rather than a guess.
// Complexity: O(events of one rank) plus O(catalog models).

#include <optional>
#include <string>
#include <vector>

#include "core/analysis/layer_segmentation.h"
#include "core/trace/trace.h"
#include "core/workload/model.h"

namespace tpscope::core::analysis {

// Unsharded dimensions as observed; 0 = not seen in the trace.
struct InferredDims {
    int tp = 1;
    std::int64_t hidden = 0;
    std::int64_t qWidth = 0;   // heads x head dim (MLA: heads x v head dim)
    std::int64_t kvWidth = 0;  // kv heads x head dim, from the QKV GEMMs' width
    std::int64_t heads = 0;    // from attention op shapes (per trace, i.e. per rank at TP > 1)
    std::int64_t kvHeads = 0;
    std::int64_t headDim = 0;
    std::int64_t ffn = 0;  // dense MLP
    std::int64_t layers = 0;
    std::int64_t vocab = 0;
    bool moe = false;
    std::int64_t experts = 0;
    std::int64_t topK = 0;
    std::int64_t expertFfn = 0;
    std::int64_t sharedFfn = 0;  // width of the always-on (shared) expert MLP, 0 = none seen
    WeightFormat expertFormat = WeightFormat::Default;
};

struct ModelInference {
    std::optional<ModelSpec> model;  // the catalog model, or a custom one from the dims; nullopt: none
    bool fromCatalog = false;
    InferredDims dims;
    std::string evidence;  // in words: what decided, or why nothing could be inferred
};

// Layers per step of the first rank with layers (the most common count over its steps); 0 when none.
int layersPerStep(const Segmentation& segmentation);

ModelInference inferModel(const Trace& trace, const std::vector<ModelSpec>& catalog,
                          const Segmentation* segmentation = nullptr);

}  // namespace tpscope::core::analysis
