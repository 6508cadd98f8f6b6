// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// Per-rank GEMM shapes of one decoder layer, shared by the op list and the memory estimate so the
// bytes a step reads and the bytes a rank holds come from the same dimensions.

#include <cstdint>

#include "core/workload/decode_plan.h"

namespace tpscope::core::detail {

struct AttentionShapes {
    std::int64_t qkvN = 0;            // QkvGemm output width (MLA: the replicated down-projections)
    std::int64_t qkvReplicatedN = 0;  // of qkvN, the columns every rank holds in full (MLA q_a, kv_a)
    std::int64_t qUpN = 0;            // MLA q_b (0: none)
    std::int64_t qUpK = 0;
    std::int64_t kvUpN = 0;  // MLA absorbed kv_b (0: none)
    std::int64_t kvUpK = 0;
    std::int64_t oProjK = 0;  // O-proj input width
    std::int64_t weightsPerRank(std::int64_t hidden) const {
        return hidden * qkvN + qUpN * qUpK + kvUpN * kvUpK + oProjK * hidden;
    }
};

inline AttentionShapes attentionShapes(const ModelSpec& m, const ShardDims& s) {
    AttentionShapes a;
    if (!m.isMla()) {
        a.qkvN = (s.headsPerRank + 2 * s.kvHeadsPerRank) * m.headDim;
        a.oProjK = s.headsPerRank * m.headDim;
        return a;
    }
    const std::int64_t qHead = m.mla.qkNopeDim + m.mla.qkRopeDim;
    if (m.mla.qLoraRank > 0) {
        a.qkvN = m.mla.qLoraRank + m.mla.latentWidth();
        a.qkvReplicatedN = a.qkvN;
        a.qUpN = s.headsPerRank * qHead;
        a.qUpK = m.mla.qLoraRank;
    } else {
        a.qkvN = s.headsPerRank * qHead + m.mla.latentWidth();
        a.qkvReplicatedN = m.mla.latentWidth();
    }
    a.kvUpN = s.headsPerRank * (m.mla.qkNopeDim + m.mla.vHeadDim);
    a.kvUpK = m.mla.kvLoraRank;
    a.oProjK = s.headsPerRank * m.mla.vHeadDim;
    return a;
}

// Expected touched experts per rank in one step (0 for a dense model).
inline double touchedExpertsPerRank(const PlanConfig& c, const ShardDims& s) {
    const auto& moe = c.model.moe;
    if (!c.model.isMoe()) return 0;
    const double layer = expectedTouchedExperts(moe.experts, moe.topK, c.batch, moe.routingSkew);
    return layer * static_cast<double>(s.expertsPerRank) / static_cast<double>(moe.experts);
}

}  // namespace tpscope::core::detail
