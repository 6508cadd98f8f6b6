// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// A decoder-only transformer's dimensions: what the TP decode plan needs, nothing more.
// Dense (Llama-style SwiGLU MLP) or mixture-of-experts (routed SwiGLU experts, optional shared
// experts, optional leading dense layers); attention GQA (MHA when kv_heads == heads) or MLA
// (DeepSeek-V2/V3 multi-head latent attention: one compressed latent per token in the cache).

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/util/result.h"
#include "core/workload/weight_format.h"

namespace tpscope::core {

enum class AttentionKind : std::uint8_t { Gqa, Mla };
std::string_view toString(AttentionKind kind);  // "gqa", "mla"

// What one layer's attention reads: every cached token (Full), or the last `slidingWindow` tokens
// (Sliding: Gemma 2/3, gpt-oss, Llama 4's chunked layers, which alternate with Full ones).
enum class LayerAttention : std::uint8_t { Full, Sliding };
std::string_view toString(LayerAttention kind);  // "full", "sliding"

// MLA projections (DeepSeek-V3 config.json names): q_a (hidden -> qLoraRank, 0 = no query
// compression, q projected from hidden), q_b (qLoraRank -> heads x (nope + rope)),
// kv_a (hidden -> kvLoraRank + rope), kv_b (kvLoraRank -> heads x (nope + v)), o (heads x v -> hidden).
struct MlaDims {
    std::int64_t qLoraRank = 0;
    std::int64_t kvLoraRank = 0;
    std::int64_t qkNopeDim = 0;
    std::int64_t qkRopeDim = 0;
    std::int64_t vHeadDim = 0;
    // Cached elements per token per layer: the latent and the shared rope key.
    std::int64_t latentWidth() const { return kvLoraRank + qkRopeDim; }
};

// Mixture of experts. experts == 0: a dense model.
struct MoeDims {
    std::int64_t experts = 0;        // routed experts per MoE layer
    std::int64_t topK = 0;           // routed experts per token
    std::int64_t sharedExperts = 0;  // always-on experts, each expertFfn wide
    std::int64_t expertFfn = 0;      // one expert's intermediate size
    std::int64_t denseLayers = 0;    // leading layers with a dense MLP of width `ffn` (DeepSeek-V3: 3)
    // Routing skew s >= 0: expert i (i = 1..E) is picked with weight i^-s (Zipf). 0 = uniform routing,
    // the only case with a closed form. No public measurement of these models' routing calibrates s:
    // it is a what-if knob, 0 by default.
    double routingSkew = 0;
};

// The checkpoint's storage format per part; Default = the plan's dtype.
struct WeightFormats {
    WeightFormat attention = WeightFormat::Default;  // QKV / MLA projections and O-proj
    WeightFormat mlp = WeightFormat::Default;        // dense MLPs and shared experts
    WeightFormat experts = WeightFormat::Default;    // routed experts
};

struct ModelSpec {
    std::string id;    // stable kebab-case id: "llama3-70b"
    std::string name;  // "Llama-3 70B"
    std::int64_t hidden = 0;
    std::int64_t ffn = 0;      // dense MLP intermediate size (MoE models: of the dense layers)
    std::int64_t heads = 0;    // query heads
    std::int64_t kvHeads = 0;  // key/value heads (GQA when < heads); MLA: ignored
    std::int64_t headDim = 0;  // GQA head dim; MLA: qk_nope + qk_rope
    std::int64_t layers = 0;
    std::int64_t vocab = 0;
    std::string source;
    // After `source` so that brace-initialised dense models ({id, name, hidden, ..., vocab, source})
    // stay dense GQA models with default formats.
    AttentionKind attention = AttentionKind::Gqa;
    MlaDims mla;
    MoeDims moe;
    WeightFormats formats;
    std::vector<LayerAttention> attentionPattern;  // repeats over the layers; empty: every layer Full
    std::int64_t slidingWindow = 0;                // tokens a Sliding layer attends to

    bool isMoe() const { return moe.experts > 0; }
    bool isMla() const { return attention == AttentionKind::Mla; }
    bool isMoeLayer(std::int64_t layer) const { return isMoe() && layer >= moe.denseLayers; }
    std::int64_t moeLayers() const { return isMoe() ? layers - moe.denseLayers : 0; }
    // Layer `layer`'s kind: attentionPattern[layer mod its size]; Full without a pattern.
    LayerAttention layerAttention(std::int64_t layer) const;
    // Cached tokens layer `layer` reads at context `contextLen`: min(context, window) on a Sliding layer.
    std::int64_t attendedTokens(std::int64_t layer, std::int64_t contextLen) const;
    // attendedTokens summed over the layers: the tokens of KV cache the model holds per sequence and
    // reads per decode step (a Sliding layer keeps only its window, as vLLM's hybrid allocator does).
    std::int64_t cachedTokens(std::int64_t contextLen) const;
    std::string kindLabel() const;  // "dense GQA", "MoE 128x top-4 GQA", "MoE 256x top-8 +1 shared MLA"

    // Attention weights of one layer (unsharded), norms excluded.
    std::int64_t attentionParameters() const;
    // Parameter count of the unsharded model (untied embedding and LM head, RMSNorm weights, routers).
    std::int64_t parameterCount() const;
    // Parameters one token uses: attention, dense layers, top-k routed plus shared experts, embeddings.
    std::int64_t activeParameterCount() const;
};

// Positive dimensions, heads a multiple of kv heads, consistent MoE and MLA fields, a positive window
// when a layer slides; the error names the model.
Status validateModel(const ModelSpec& model);

}  // namespace tpscope::core
