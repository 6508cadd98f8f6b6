// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/workload/model.h"

#include <algorithm>
#include <string>

namespace tpscope::core {

std::string_view toString(AttentionKind kind) {
    return kind == AttentionKind::Mla ? "mla" : "gqa";
}

std::string_view toString(LayerAttention kind) {
    return kind == LayerAttention::Sliding ? "sliding" : "full";
}

LayerAttention ModelSpec::layerAttention(std::int64_t layer) const {
    if (attentionPattern.empty() || layer < 0) return LayerAttention::Full;
    return attentionPattern[static_cast<std::size_t>(layer % static_cast<std::int64_t>(attentionPattern.size()))];
}

std::int64_t ModelSpec::attendedTokens(std::int64_t layer, std::int64_t contextLen) const {
    const bool window = layerAttention(layer) == LayerAttention::Sliding && slidingWindow > 0;
    return window ? std::min(contextLen, slidingWindow) : contextLen;
}

std::int64_t ModelSpec::cachedTokens(std::int64_t contextLen) const {
    if (attentionPattern.empty() || slidingWindow <= 0) return layers * contextLen;
    std::int64_t tokens = 0;
    for (std::int64_t layer = 0; layer < layers; ++layer) tokens += attendedTokens(layer, contextLen);
    return tokens;
}

std::string ModelSpec::kindLabel() const {
    std::string label = isMoe() ? "MoE " + std::to_string(moe.experts) + "x top-" + std::to_string(moe.topK) : "dense";
    if (moe.sharedExperts > 0) label += " +" + std::to_string(moe.sharedExperts) + " shared";
    label += isMla() ? " MLA" : (kvHeads == heads ? " MHA" : " GQA");
    return label;
}

std::int64_t ModelSpec::attentionParameters() const {
    if (!isMla()) return hidden * (heads + 2 * kvHeads) * headDim + heads * headDim * hidden;
    const std::int64_t qHead = mla.qkNopeDim + mla.qkRopeDim;
    const std::int64_t q =
        mla.qLoraRank > 0 ? hidden * mla.qLoraRank + mla.qLoraRank * heads * qHead : hidden * heads * qHead;
    const std::int64_t kv = hidden * mla.latentWidth() + mla.kvLoraRank * heads * (mla.qkNopeDim + mla.vHeadDim);
    return q + kv + heads * mla.vHeadDim * hidden;
}

std::int64_t ModelSpec::parameterCount() const {
    const std::int64_t norms = 2 * hidden + (isMla() ? mla.qLoraRank + mla.kvLoraRank : 0);
    const std::int64_t expert = 3 * hidden * moe.expertFfn;
    const std::int64_t moeLayer = (moe.experts + moe.sharedExperts) * expert + hidden * moe.experts;
    const std::int64_t denseLayers = layers - moeLayers();
    return layers * (attentionParameters() + norms) + denseLayers * 3 * hidden * ffn + moeLayers() * moeLayer +
           2 * vocab * hidden + hidden;
}

std::int64_t ModelSpec::activeParameterCount() const {
    if (!isMoe()) return parameterCount();
    const std::int64_t expert = 3 * hidden * moe.expertFfn;
    const std::int64_t inactive = (moe.experts - moe.topK) * expert;
    return parameterCount() - moeLayers() * inactive;
}

namespace {

Status invalid(const ModelSpec& m, const std::string& message) {
    return makeError(ErrorCode::InvalidArgument, message, m.id);
}

Status validateMoe(const ModelSpec& m) {
    const auto& e = m.moe;
    if (e.experts == 0 && e.topK == 0 && e.sharedExperts == 0 && e.expertFfn == 0 && e.denseLayers == 0) return Ok{};
    if (e.experts <= 0 || e.topK <= 0 || e.expertFfn <= 0) {
        return invalid(m, "a MoE model needs experts, experts_per_token and expert_ffn all positive");
    }
    if (e.topK > e.experts) {
        return invalid(m, "experts_per_token (" + std::to_string(e.topK) + ") exceeds the " +
                              std::to_string(e.experts) + " experts");
    }
    if (e.sharedExperts < 0 || e.denseLayers < 0 || e.denseLayers >= m.layers) {
        return invalid(m, "shared_experts must be >= 0 and dense_layers in [0, layers)");
    }
    if (!(e.routingSkew >= 0) || e.routingSkew > 8) return invalid(m, "routing_skew must be in [0, 8]");
    return Ok{};
}

Status validateMla(const ModelSpec& m) {
    const auto& a = m.mla;
    if (a.kvLoraRank <= 0 || a.qkNopeDim <= 0 || a.qkRopeDim <= 0 || a.vHeadDim <= 0 || a.qLoraRank < 0) {
        return invalid(m,
                       "MLA needs kv_lora_rank, qk_nope_head_dim, qk_rope_head_dim and v_head_dim positive "
                       "(q_lora_rank >= 0)");
    }
    return Ok{};
}

}  // namespace

Status validateModel(const ModelSpec& m) {
    if (m.hidden <= 0 || m.ffn <= 0 || m.heads <= 0 || m.kvHeads <= 0 || m.headDim <= 0 || m.layers <= 0 ||
        m.vocab <= 0) {
        return invalid(m, "hidden, ffn, heads, kv_heads, head_dim, layers and vocab must all be positive");
    }
    if (m.heads % m.kvHeads != 0) {
        return invalid(m, "heads (" + std::to_string(m.heads) + ") must be a multiple of kv_heads (" +
                              std::to_string(m.kvHeads) + ")");
    }
    if (m.isMla()) TPSCOPE_TRY(validateMla(m));
    const bool slides = std::find(m.attentionPattern.begin(), m.attentionPattern.end(), LayerAttention::Sliding) !=
                        m.attentionPattern.end();
    if (m.slidingWindow < 0 || (slides && m.slidingWindow == 0)) {
        return invalid(m, "a model with sliding-window layers needs a positive sliding_window");
    }
    return validateMoe(m);
}

}  // namespace tpscope::core
