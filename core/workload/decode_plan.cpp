// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/workload/decode_plan.h"

#include <cmath>
#include <string>
#include <utility>

#include "core/workload/plan_shapes.h"

namespace tpscope::core {

std::string_view toString(OpKind kind) {
    switch (kind) {
        case OpKind::Embedding:
            return "embedding";
        case OpKind::InputNorm:
            return "input_norm";
        case OpKind::QkvGemm:
            return "qkv_proj";
        case OpKind::Attention:
            return "attention";
        case OpKind::OProjGemm:
            return "o_proj";
        case OpKind::AttnAllReduce:
            return "attn_all_reduce";
        case OpKind::PostAttnNorm:
            return "post_attn_norm";
        case OpKind::GateUpGemm:
            return "gate_up_proj";
        case OpKind::SiluMul:
            return "silu_mul";
        case OpKind::DownGemm:
            return "down_proj";
        case OpKind::MlpAllReduce:
            return "mlp_all_reduce";
        case OpKind::EmbeddingAllReduce:
            return "embedding_all_reduce";
        case OpKind::FinalNorm:
            return "final_norm";
        case OpKind::LmHeadGemm:
            return "lm_head";
        case OpKind::LogitsAllGather:
            return "logits_all_gather";
        case OpKind::MlaQUpGemm:
            return "mla_q_up_proj";
        case OpKind::MlaKvUpGemm:
            return "mla_kv_up_proj";
        case OpKind::MoeRouter:
            return "moe_router";
        case OpKind::MoeTopK:
            return "moe_topk";
        case OpKind::MoeGateUp:
            return "moe_gate_up";
        case OpKind::MoeSiluMul:
            return "moe_silu_mul";
        case OpKind::MoeDown:
            return "moe_down";
        case OpKind::MoeDispatch:
            return "moe_dispatch";
        case OpKind::MoeCombine:
            return "moe_combine";
        case OpKind::MoeAllGather:
            return "moe_all_gather";
    }
    return "unknown";
}

std::string_view toString(MoeParallel mode) {
    return mode == MoeParallel::Expert ? "ep" : "tp";
}

std::optional<MoeParallel> parseMoeParallel(std::string_view text) {
    if (text == "tp" || text == "tensor") return MoeParallel::Tensor;
    if (text == "ep" || text == "expert") return MoeParallel::Expert;
    return std::nullopt;
}

WeightFormat PlanConfig::partFormat(WeightFormat modelFormat) const {
    if (weightDtype) return resolveFormat(WeightFormat::Default, *weightDtype);
    return resolveFormat(modelFormat, dtype);
}

std::string_view toString(OpBlock block) {
    switch (block) {
        case OpBlock::Prologue:
            return "prologue";
        case OpBlock::Attention:
            return "attention";
        case OpBlock::Mlp:
            return "mlp";
        case OpBlock::Epilogue:
            return "epilogue";
    }
    return "unknown";
}

double PlanOp::arithmeticIntensity() const {
    const double bytes = static_cast<double>(bytesRead + bytesWritten);
    return bytes > 0 ? flops / bytes : 0.0;
}

double DecodePlan::arithmeticIntensity() const {
    const double bytes = static_cast<double>(bytesReadPerStep + bytesWrittenPerStep);
    return bytes > 0 ? flopsPerStep / bytes : 0.0;
}

std::uint64_t ringAllReduceWireBytes(std::uint64_t messageBytes, int ranks) {
    if (ranks <= 1) return 0;
    const auto n = static_cast<std::uint64_t>(ranks);
    return 2 * (n - 1) * messageBytes / n;
}

std::uint64_t ringAllGatherWireBytes(std::uint64_t totalBytes, int ranks) {
    if (ranks <= 1) return 0;
    const auto n = static_cast<std::uint64_t>(ranks);
    return (n - 1) * totalBytes / n;
}

Result<ShardDims> shardModel(const ModelSpec& m, int tp, MoeParallel moe, bool vocabParallel) {
    if (tp <= 0) return makeError(ErrorCode::InvalidArgument, "tp must be a positive integer", "tp");
    const std::string t = std::to_string(tp);
    auto fail = [&](const std::string& what) { return makeError(ErrorCode::InvalidArgument, "tp " + t + what, m.id); };
    if (m.heads % tp != 0) return fail(" does not divide the " + std::to_string(m.heads) + " attention heads");
    // A MoE model without dense layers never runs its `ffn`-wide MLP: no constraint from it.
    const bool denseMlp = !m.isMoe() || m.moe.denseLayers > 0;
    if (denseMlp && m.ffn % tp != 0) return fail(" does not divide the MLP size ffn = " + std::to_string(m.ffn));
    ShardDims s;
    s.headsPerRank = m.heads / tp;
    if (m.isMla()) {
        s.kvHeadsPerRank = 1;  // the latent: one "head" every rank caches in full
        s.kvReplicated = tp > 1;
        s.latentWidth = m.mla.latentWidth();
    } else if (m.kvHeads % tp == 0) {
        s.kvHeadsPerRank = m.kvHeads / tp;
    } else if (tp % m.kvHeads == 0) {
        s.kvHeadsPerRank = 1;
        s.kvReplicated = true;
    } else {
        return fail(" does not divide the " + std::to_string(m.kvHeads) +
                    " kv heads (nor do they divide tp, which would allow replicating them)");
    }
    s.ffnPerRank = denseMlp ? m.ffn / tp : 0;
    s.vocabPerRank = vocabParallel ? (m.vocab + tp - 1) / tp : m.vocab;
    if (m.isMoe()) {
        const std::int64_t shared = m.moe.sharedExperts * m.moe.expertFfn;
        if (moe == MoeParallel::Tensor) {
            if (m.moe.expertFfn % tp != 0) {
                return fail(" does not divide the expert FFN width " + std::to_string(m.moe.expertFfn) +
                            " (expert parallelism places experts whole)");
            }
            s.expertFfnPerRank = m.moe.expertFfn / tp;
            s.expertsPerRank = m.moe.experts;
            s.sharedFfnPerRank = shared / tp;
        } else {
            if (m.moe.experts % tp != 0) {
                return fail(" does not divide the " + std::to_string(m.moe.experts) +
                            " experts for expert parallelism");
            }
            s.expertFfnPerRank = m.moe.expertFfn;
            s.expertsPerRank = m.moe.experts / tp;
            s.sharedFfnPerRank = shared;  // replicated: each rank runs it on its own tokens
        }
    }
    return s;
}

namespace {

// One GEMM: `rows` activation rows times an n x k weight; `weights` elements of it read from HBM
// (a grouped MoE GEMM reads only the touched experts'), stored in `format`.
struct GemmShape {
    std::int64_t rows = 0;
    std::int64_t n = 0;
    std::int64_t k = 0;
    double weights = 0;
    WeightFormat format = WeightFormat::Default;
};

class PlanBuilder {
  public:
    PlanBuilder(const PlanConfig& c, const ShardDims& s)
        : m_c(c),
          m_s(s),
          m_dt(static_cast<std::uint64_t>(dtypeBytes(c.dtype))),
          m_kvdt(static_cast<std::uint64_t>(dtypeBytes(c.kvCacheDtype()))),
          m_b(static_cast<std::uint64_t>(c.batch)) {}

    // A dense GEMM over the batch with a weight in the given model part's format.
    void gemm(OpKind kind, OpBlock block, int layer, std::int64_t n, std::int64_t k, WeightFormat part) {
        gemm(kind, block, layer,
             GemmShape{static_cast<std::int64_t>(m_b), n, k, static_cast<double>(n) * static_cast<double>(k), part});
    }

    void gemm(OpKind kind, OpBlock block, int layer, const GemmShape& g) {
        PlanOp op = base(kind, block, layer, EventKind::Gemm);
        const WeightFormat format = m_c.partFormat(g.format);
        // The GEMM runs in the weights' compute dtype (fp8 weights: an fp8 tensor-core GEMM, activations
        // quantised on the fly; 4-bit weights: dequantised to the activation dtype) and streams the
        // weights at their storage width.
        op.gemm = GemmPayload{static_cast<std::uint32_t>(g.rows), static_cast<std::uint32_t>(g.n),
                              static_cast<std::uint32_t>(g.k), gemmDtype(format, m_c.dtype)};
        const auto rows = static_cast<std::uint64_t>(g.rows);
        op.flops = 2.0 * static_cast<double>(g.rows) * static_cast<double>(g.n) * static_cast<double>(g.k);
        op.weightBytesRead =
            weightBytes(static_cast<std::uint64_t>(std::llround(g.weights)), format, m_c.weightsDtype());
        op.bytesRead = op.weightBytesRead + rows * static_cast<std::uint64_t>(g.k) * m_dt;
        op.bytesWritten = rows * static_cast<std::uint64_t>(g.n) * m_dt;
        m_ops.push_back(op);
    }

    // Fused residual-add + RMSNorm over the hidden vector: reads input, residual and the weight;
    // writes output and the updated residual. ~5 FLOP per element (add, square, sum, scale, weight).
    void norm(OpKind kind, OpBlock block, int layer) {
        PlanOp op = base(kind, block, layer, EventKind::Elementwise);
        const auto h = static_cast<std::uint64_t>(m_c.model.hidden);
        op.flops = 5.0 * static_cast<double>(m_b * h);
        op.rows = static_cast<std::int64_t>(m_b);
        op.rowWidth = m_c.model.hidden;
        op.bytesRead = (2 * m_b * h + h) * m_dt;
        op.bytesWritten = 2 * m_b * h * m_dt;
        m_ops.push_back(op);
    }

    // Decode attention of one new token per sequence over contextLen cached tokens (heads split):
    // QK^T and PV are 2 FLOP per multiply-add each, softmax ~5 FLOP per score; reads the K and V
    // cache, writes the output and appends the new K and V.
    // MLA (absorbed): every head scores against the latent + rope key (latentWidth) and sums values in
    // the latent (kvLoraRank); the cache read is one latent per token, shared by the rank's heads.
    void attention(int layer) {
        PlanOp op = base(OpKind::Attention, OpBlock::Attention, layer, EventKind::Attention);
        const auto hq = static_cast<std::uint64_t>(m_s.headsPerRank);
        // A sliding-window layer reads only its window of the cache (model.h: attendedTokens).
        const auto ctx = static_cast<std::uint64_t>(m_c.model.attendedTokens(layer, m_c.contextLen));
        if (m_c.model.isMla()) {
            const auto lw = static_cast<std::uint64_t>(m_s.latentWidth);
            const auto lora = static_cast<double>(m_c.model.mla.kvLoraRank);
            op.flops = static_cast<double>(m_b * hq * ctx) * (2.0 * static_cast<double>(lw) + 2.0 * lora + 5.0);
            op.bytesRead = m_b * ctx * lw * m_kvdt + m_b * hq * lw * m_dt;
            op.bytesWritten =
                m_b * hq * static_cast<std::uint64_t>(m_c.model.mla.kvLoraRank) * m_dt + m_b * lw * m_kvdt;
            m_ops.push_back(op);
            return;
        }
        const auto hkv = static_cast<std::uint64_t>(m_s.kvHeadsPerRank);
        const auto d = static_cast<std::uint64_t>(m_c.model.headDim);
        op.flops = static_cast<double>(m_b * hq * ctx) * (4.0 * static_cast<double>(d) + 5.0);
        op.bytesRead = 2 * m_b * ctx * hkv * d * m_kvdt + m_b * (hq + 2 * hkv) * d * m_dt;
        op.bytesWritten = m_b * hq * d * m_dt + 2 * m_b * hkv * d * m_kvdt;
        m_ops.push_back(op);
    }

    // SiLU(gate) * up over rows x width outputs: ~5 FLOP per output element (sigmoid, two multiplies).
    void siluMul(OpKind kind, int layer, std::int64_t rows, std::int64_t width) {
        PlanOp op = base(kind, OpBlock::Mlp, layer, EventKind::Elementwise);
        const auto n = static_cast<std::uint64_t>(rows) * static_cast<std::uint64_t>(width);
        op.flops = 5.0 * static_cast<double>(n);
        op.rows = rows;
        op.rowWidth = width;
        op.bytesRead = 2 * n * m_dt;
        op.bytesWritten = n * m_dt;
        m_ops.push_back(op);
    }

    // Softmax over the router logits and the top-k pick: reads rows x experts logits, writes k ids
    // and weights per row.
    void topK(int layer, std::int64_t rows) {
        PlanOp op = base(OpKind::MoeTopK, OpBlock::Mlp, layer, EventKind::Elementwise);
        const auto r = static_cast<std::uint64_t>(rows);
        const auto e = static_cast<std::uint64_t>(m_c.model.moe.experts);
        const auto k = static_cast<std::uint64_t>(m_c.model.moe.topK);
        op.flops = 5.0 * static_cast<double>(r * e);
        op.bytesRead = r * e * m_dt;
        op.bytesWritten = r * k * (sizeof(std::int32_t) + sizeof(float));
        m_ops.push_back(op);
    }

    void embedding() {
        PlanOp op = base(OpKind::Embedding, OpBlock::Prologue, -1, EventKind::Other);
        const auto h = static_cast<std::uint64_t>(m_c.model.hidden);
        op.bytesRead = m_b * h * m_dt + m_b * sizeof(std::int64_t);
        op.bytesWritten = m_b * h * m_dt;
        m_ops.push_back(op);
    }

    void allReduce(OpKind kind, OpBlock block, int layer) {
        if (m_c.tp <= 1) return;
        PlanOp op = base(kind, block, layer, EventKind::Collective);
        op.collective = CollectiveOp::AllReduce;
        op.messageBytes = m_b * static_cast<std::uint64_t>(m_c.model.hidden) * m_dt;
        op.wireBytesPerGpu = ringAllReduceWireBytes(op.messageBytes, m_c.tp);
        op.flops = static_cast<double>(op.messageBytes / m_dt) * (m_c.tp - 1) / m_c.tp;  // the reductions
        op.bytesRead = op.messageBytes;
        op.bytesWritten = op.messageBytes;
        m_ops.push_back(op);
    }

    // All-to-all of `rows` hidden vectors per rank: each rank keeps 1/tp of them and sends the rest.
    void allToAll(OpKind kind, int layer, std::int64_t rows) {
        if (m_c.tp <= 1) return;
        PlanOp op = base(kind, OpBlock::Mlp, layer, EventKind::Collective);
        op.collective = CollectiveOp::AllToAll;
        op.messageBytes = static_cast<std::uint64_t>(rows) * static_cast<std::uint64_t>(m_c.model.hidden) * m_dt;
        op.wireBytesPerGpu = ringAllGatherWireBytes(op.messageBytes, m_c.tp);
        op.bytesRead = op.messageBytes;
        op.bytesWritten = op.messageBytes;
        m_ops.push_back(op);
    }

    // All-gather of `rows` hidden vectors per rank (the expert-parallel MoE's batch back on every rank)
    // or of the vocabulary-split logits.
    void allGather(OpKind kind, OpBlock block, int layer, std::uint64_t messageBytes) {
        if (m_c.tp <= 1) return;
        PlanOp op = base(kind, block, layer, EventKind::Collective);
        op.collective = CollectiveOp::AllGather;
        op.messageBytes = messageBytes;
        const std::uint64_t total = op.messageBytes * static_cast<std::uint64_t>(m_c.tp);
        op.wireBytesPerGpu = ringAllGatherWireBytes(total, m_c.tp);
        op.bytesRead = op.messageBytes;
        op.bytesWritten = total;
        m_ops.push_back(op);
    }

    void logitsAllGather() {
        allGather(OpKind::LogitsAllGather, OpBlock::Epilogue, -1,
                  m_b * static_cast<std::uint64_t>(m_s.vocabPerRank) * m_dt);
    }

    std::vector<PlanOp> take() { return std::move(m_ops); }

  private:
    PlanOp base(OpKind kind, OpBlock block, int layer, EventKind eventKind) const {
        PlanOp op;
        op.kind = kind;
        op.block = block;
        op.layer = layer;
        op.eventKind = eventKind;
        return op;
    }

    const PlanConfig& m_c;
    const ShardDims& m_s;
    std::uint64_t m_dt;
    std::uint64_t m_kvdt;
    std::uint64_t m_b;
    std::vector<PlanOp> m_ops;
};

Status validateConfig(const PlanConfig& c) {
    if (c.batch <= 0) return makeError(ErrorCode::InvalidArgument, "batch must be a positive integer", "batch");
    if (c.contextLen <= 0) {
        return makeError(ErrorCode::InvalidArgument, "context length must be a positive integer", "context");
    }
    for (const auto& [d, what] :
         {std::pair{c.weightsDtype(), "weight dtype"}, std::pair{c.kvCacheDtype(), "KV-cache dtype"}}) {
        if (dtypeBytes(d) == 0 || d == Dtype::Int32 || d == Dtype::Int64) {
            return makeError(ErrorCode::InvalidArgument, std::string(what) + " must be one of fp32, fp16, bf16, fp8",
                             what);
        }
    }
    if (dtypeBytes(c.dtype) == 0 || c.dtype == Dtype::Int32 || c.dtype == Dtype::Int64) {
        return makeError(ErrorCode::InvalidArgument, "dtype must be one of fp32, fp16, bf16, fp8", "dtype");
    }
    if (c.batch > (1 << 20) || c.contextLen > (1 << 24)) {
        return makeError(ErrorCode::InvalidArgument, "batch above 1,048,576 or context above 16,777,216 tokens",
                         "batch/context");
    }
    return validateModel(c.model);
}

void attentionBlock(PlanBuilder& b, const PlanConfig& c, const ShardDims& s, int layer) {
    const auto& m = c.model;
    const auto a = detail::attentionShapes(m, s);
    const WeightFormat f = m.formats.attention;
    b.norm(OpKind::InputNorm, OpBlock::Attention, layer);
    b.gemm(OpKind::QkvGemm, OpBlock::Attention, layer, a.qkvN, m.hidden, f);
    if (a.qUpN > 0) b.gemm(OpKind::MlaQUpGemm, OpBlock::Attention, layer, a.qUpN, a.qUpK, f);
    if (a.kvUpN > 0) b.gemm(OpKind::MlaKvUpGemm, OpBlock::Attention, layer, a.kvUpN, a.kvUpK, f);
    b.attention(layer);
    b.gemm(OpKind::OProjGemm, OpBlock::Attention, layer, m.hidden, a.oProjK, f);
    b.allReduce(OpKind::AttnAllReduce, OpBlock::Attention, layer);
}

void denseMlp(PlanBuilder& b, const PlanConfig& c, int layer, std::int64_t ffnPerRank) {
    const auto& m = c.model;
    b.gemm(OpKind::GateUpGemm, OpBlock::Mlp, layer, 2 * ffnPerRank, m.hidden, m.formats.mlp);
    b.siluMul(OpKind::SiluMul, layer, c.batch, ffnPerRank);
    b.gemm(OpKind::DownGemm, OpBlock::Mlp, layer, m.hidden, ffnPerRank, m.formats.mlp);
}

void moeMlp(PlanBuilder& b, const PlanConfig& c, const ShardDims& s, int layer) {
    const auto& m = c.model;
    const bool ep = c.moeParallel == MoeParallel::Expert && c.tp > 1;
    // Expert parallel: this rank's slice of the batch; its top-k copies spread over tp ranks.
    const std::int64_t tokens = ep ? (c.batch + c.tp - 1) / c.tp : c.batch;
    const std::int64_t rows = ep ? (c.batch * m.moe.topK + c.tp - 1) / c.tp : c.batch * m.moe.topK;
    const double touched = detail::touchedExpertsPerRank(c, s);
    const auto expertWeights = static_cast<double>(m.hidden * s.expertFfnPerRank);
    b.gemm(OpKind::MoeRouter, OpBlock::Mlp, layer,
           GemmShape{tokens, m.moe.experts, m.hidden, static_cast<double>(m.hidden * m.moe.experts),
                     WeightFormat::Default});
    b.topK(layer, tokens);
    if (ep) b.allToAll(OpKind::MoeDispatch, layer, tokens * m.moe.topK);
    if (s.sharedFfnPerRank > 0) {
        const auto shared = static_cast<double>(m.hidden * s.sharedFfnPerRank);
        b.gemm(OpKind::GateUpGemm, OpBlock::Mlp, layer,
               GemmShape{tokens, 2 * s.sharedFfnPerRank, m.hidden, 2 * shared, m.formats.mlp});
        b.siluMul(OpKind::SiluMul, layer, tokens, s.sharedFfnPerRank);
        b.gemm(OpKind::DownGemm, OpBlock::Mlp, layer,
               GemmShape{tokens, m.hidden, s.sharedFfnPerRank, shared, m.formats.mlp});
    }
    b.gemm(OpKind::MoeGateUp, OpBlock::Mlp, layer,
           GemmShape{rows, 2 * s.expertFfnPerRank, m.hidden, 2 * touched * expertWeights, m.formats.experts});
    b.siluMul(OpKind::MoeSiluMul, layer, rows, s.expertFfnPerRank);
    b.gemm(OpKind::MoeDown, OpBlock::Mlp, layer,
           GemmShape{rows, m.hidden, s.expertFfnPerRank, touched * expertWeights, m.formats.experts});
    if (ep) {
        b.allToAll(OpKind::MoeCombine, layer, tokens * m.moe.topK);
        b.allGather(OpKind::MoeAllGather, OpBlock::Mlp, layer,
                    static_cast<std::uint64_t>(tokens * m.hidden) * static_cast<std::uint64_t>(dtypeBytes(c.dtype)));
    } else {
        b.allReduce(OpKind::MlpAllReduce, OpBlock::Mlp, layer);
    }
}

void summarise(DecodePlan& plan) {
    const auto& c = plan.config;
    const auto& m = c.model;
    for (const auto& op : plan.ops) {
        plan.flopsPerStep += op.flops;
        plan.bytesReadPerStep += op.bytesRead;
        plan.bytesWrittenPerStep += op.bytesWritten;
        plan.weightBytesReadPerStep += op.weightBytesRead;
        if (op.kind == OpKind::MoeGateUp || op.kind == OpKind::MoeDown) {
            plan.moe.expertWeightBytesPerStepPerGpu += op.weightBytesRead;
        }
        if (!op.isCollective()) continue;
        ++plan.collectivesPerStep;
        plan.wireBytesPerStepPerGpu += op.wireBytesPerGpu;
        if (op.collective == CollectiveOp::AllReduce) ++plan.allreducesPerStep;
        if (op.layer >= 0) plan.layerWireBytesPerStepPerGpu += op.wireBytesPerGpu;
        if (op.kind == OpKind::AttnAllReduce || op.kind == OpKind::MlpAllReduce) ++plan.layerAllreducesPerStep;
    }
    // Reported even at TP = 1 (where no all-reduce runs) so a sweep's rows line up.
    plan.allreduceMessageBytes =
        static_cast<std::uint64_t>(c.batch) * static_cast<std::uint64_t>(m.hidden) * dtypeBytes(c.dtype);
    plan.allreduceWireBytesPerGpu = ringAllReduceWireBytes(plan.allreduceMessageBytes, c.tp);
    if (m.isMoe()) {
        plan.moe.touchedExpertsPerLayer = expectedTouchedExperts(m.moe.experts, m.moe.topK, c.batch, m.moe.routingSkew);
        plan.moe.touchedExpertsPerRank = detail::touchedExpertsPerRank(c, plan.shard);
        plan.moe.expertsPerRank = plan.shard.expertsPerRank;
        plan.moe.halfExpertsBatch = batchForExpertFraction(m.moe.experts, m.moe.topK, 0.5, m.moe.routingSkew);
    }
}

}  // namespace

Result<DecodePlan> buildDecodePlan(const PlanConfig& c) {
    TPSCOPE_TRY(validateConfig(c));
    DecodePlan plan;
    plan.config = c;
    TPSCOPE_TRY_ASSIGN(plan.shard, shardModel(c.model, c.tp, c.moeParallel, c.vocabParallel));
    const ShardDims& s = plan.shard;
    const auto& m = c.model;

    PlanBuilder b(c, s);
    b.embedding();
    if (c.vocabParallel) b.allReduce(OpKind::EmbeddingAllReduce, OpBlock::Prologue, -1);
    for (int layer = 0; layer < m.layers; ++layer) {
        attentionBlock(b, c, s, layer);
        b.norm(OpKind::PostAttnNorm, OpBlock::Mlp, layer);
        if (m.isMoeLayer(layer)) {
            moeMlp(b, c, s, layer);
        } else {
            denseMlp(b, c, layer, s.ffnPerRank);
            b.allReduce(OpKind::MlpAllReduce, OpBlock::Mlp, layer);
        }
    }
    b.norm(OpKind::FinalNorm, OpBlock::Epilogue, -1);
    b.gemm(OpKind::LmHeadGemm, OpBlock::Epilogue, -1, s.vocabPerRank, m.hidden, WeightFormat::Default);
    if (c.vocabParallel) b.logitsAllGather();
    plan.ops = b.take();
    summarise(plan);
    plan.memory = estimateMemory(c, s);
    return plan;
}

}  // namespace tpscope::core
