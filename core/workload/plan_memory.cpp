// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// Memory one rank holds for a decode plan: each part's weights at its own format, the KV cache (MLA:
// the replicated latent; a sliding-window layer: its window) and the live activations of one step.

#include <algorithm>
#include <cmath>

#include "core/workload/decode_plan.h"
#include "core/workload/plan_shapes.h"

namespace tpscope::core {

MemoryEstimate estimateMemory(const PlanConfig& c, const ShardDims& s) {
    const auto& m = c.model;
    const Dtype dtype = c.weightsDtype();
    const WeightFormat base = c.partFormat(WeightFormat::Default);
    const WeightFormat attnFormat = c.partFormat(m.formats.attention);
    const WeightFormat mlpFormat = c.partFormat(m.formats.mlp);
    const WeightFormat expertFormat = c.partFormat(m.formats.experts);
    auto bytes = [&](std::int64_t weights, WeightFormat f) {
        return weightBytes(static_cast<std::uint64_t>(weights), f, dtype);
    };
    const auto attn = detail::attentionShapes(m, s);
    const std::int64_t norms = 2 * m.hidden + (m.isMla() ? m.mla.qLoraRank + m.mla.kvLoraRank : 0);
    const std::int64_t moeLayers = m.moeLayers();
    const std::int64_t denseLayers = m.layers - moeLayers;
    const std::int64_t expertWeights = 3 * m.hidden * s.expertFfnPerRank;

    MemoryEstimate e;
    e.embeddingBytesPerGpu = bytes(s.vocabPerRank * m.hidden, base);
    e.expertBytesPerGpu = bytes(moeLayers * s.expertsPerRank * expertWeights, expertFormat);
    e.weightBytesPerGpu = bytes(m.layers * attn.weightsPerRank(m.hidden), attnFormat) +
                          bytes(m.layers * norms + m.hidden + moeLayers * m.hidden * m.moe.experts, base) +
                          bytes(denseLayers * 3 * m.hidden * s.ffnPerRank, mlpFormat) +
                          bytes(moeLayers * 3 * m.hidden * s.sharedFfnPerRank, mlpFormat) + e.expertBytesPerGpu +
                          2 * e.embeddingBytesPerGpu;
    if (m.isMoe()) {
        const double untouched = static_cast<double>(s.expertsPerRank) - detail::touchedExpertsPerRank(c, s);
        e.untouchedExpertBytesPerGpu = bytes(
            std::llround(static_cast<double>(moeLayers * expertWeights) * std::max(0.0, untouched)), expertFormat);
    }
    // The KV cache: every cached token on a Full layer, the last window on a Sliding one (model.h,
    // cachedTokens). A decode step reads all of it, so it is also the HBM floor's KV part.
    const auto kvBytes = static_cast<std::uint64_t>(dtypeBytes(c.kvCacheDtype()));
    const std::int64_t perTokenLayer = m.isMla() ? s.latentWidth : 2 * s.kvHeadsPerRank * m.headDim;
    e.kvCacheBytesPerGpu = static_cast<std::uint64_t>(m.cachedTokens(c.contextLen)) *
                           static_cast<std::uint64_t>(perTokenLayer) * static_cast<std::uint64_t>(c.batch) * kvBytes;
    // Live activations of one step, double-buffered: the widest tensors are the gate/up output (MoE:
    // top-k rows of it per token) and the logits. Small next to weights, but it grows with batch.
    const std::int64_t mlpWidest =
        std::max({2 * s.ffnPerRank, 2 * s.sharedFfnPerRank, 2 * m.moe.topK * s.expertFfnPerRank});
    const std::int64_t widest = m.hidden + attn.qkvN + attn.qUpN + mlpWidest + s.vocabPerRank;
    e.activationBytesPerGpu = 2ULL * static_cast<std::uint64_t>(c.batch) * static_cast<std::uint64_t>(widest) *
                              static_cast<std::uint64_t>(dtypeBytes(c.dtype));
    return e;
}

}  // namespace tpscope::core
