// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/workload/decode_plan.h"

#include <string>
#include <utility>

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
    }
    return "unknown";
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

Result<ShardDims> shardModel(const ModelSpec& m, int tp) {
    if (tp <= 0) return makeError(ErrorCode::InvalidArgument, "tp must be a positive integer", "tp");
    const std::string t = std::to_string(tp);
    if (m.heads % tp != 0) {
        return makeError(ErrorCode::InvalidArgument,
                         "tp " + t + " does not divide the " + std::to_string(m.heads) + " attention heads", m.id);
    }
    if (m.ffn % tp != 0) {
        return makeError(ErrorCode::InvalidArgument,
                         "tp " + t + " does not divide the MLP size ffn = " + std::to_string(m.ffn), m.id);
    }
    ShardDims s;
    s.headsPerRank = m.heads / tp;
    if (m.kvHeads % tp == 0) {
        s.kvHeadsPerRank = m.kvHeads / tp;
    } else if (tp % m.kvHeads == 0) {
        s.kvHeadsPerRank = 1;
        s.kvReplicated = true;
    } else {
        return makeError(ErrorCode::InvalidArgument,
                         "tp " + t + " does not divide the " + std::to_string(m.kvHeads) +
                             " kv heads (nor do they divide tp, which would allow replicating them)",
                         m.id);
    }
    s.ffnPerRank = m.ffn / tp;
    s.vocabPerRank = (m.vocab + tp - 1) / tp;
    return s;
}

MemoryEstimate estimateMemory(const PlanConfig& c, const ShardDims& s) {
    const auto& m = c.model;
    const auto dt = static_cast<std::uint64_t>(dtypeBytes(c.dtype));
    const std::int64_t qkvOut = (s.headsPerRank + 2 * s.kvHeadsPerRank) * m.headDim;
    const std::int64_t perLayer = m.hidden * qkvOut + s.headsPerRank * m.headDim * m.hidden +
                                  2 * m.hidden * s.ffnPerRank + s.ffnPerRank * m.hidden + 2 * m.hidden;
    const std::int64_t params = m.layers * perLayer + 2 * s.vocabPerRank * m.hidden + m.hidden;
    MemoryEstimate e;
    e.weightBytesPerGpu = static_cast<std::uint64_t>(params) * static_cast<std::uint64_t>(dtypeBytes(c.weightsDtype()));
    e.embeddingBytesPerGpu = static_cast<std::uint64_t>(s.vocabPerRank * m.hidden) *
                             static_cast<std::uint64_t>(dtypeBytes(c.weightsDtype()));
    e.kvCacheBytesPerGpu = 2ULL * static_cast<std::uint64_t>(m.layers * s.kvHeadsPerRank * m.headDim) *
                           static_cast<std::uint64_t>(c.contextLen) * static_cast<std::uint64_t>(c.batch) *
                           static_cast<std::uint64_t>(dtypeBytes(c.kvCacheDtype()));
    // Live activations of one step, double-buffered: the widest tensors are the gate/up output and
    // the logits. Small next to weights, but it grows with batch.
    const std::int64_t widest = m.hidden + qkvOut + 2 * s.ffnPerRank + s.vocabPerRank;
    e.activationBytesPerGpu = 2ULL * static_cast<std::uint64_t>(c.batch) * static_cast<std::uint64_t>(widest) * dt;
    return e;
}

namespace {

class PlanBuilder {
  public:
    PlanBuilder(const PlanConfig& c, const ShardDims& s)
        : m_c(c),
          m_s(s),
          m_dt(static_cast<std::uint64_t>(dtypeBytes(c.dtype))),
          m_wdt(static_cast<std::uint64_t>(dtypeBytes(c.weightsDtype()))),
          m_kvdt(static_cast<std::uint64_t>(dtypeBytes(c.kvCacheDtype()))),
          m_b(static_cast<std::uint64_t>(c.batch)) {}

    void gemm(OpKind kind, OpBlock block, int layer, std::int64_t n, std::int64_t k) {
        PlanOp op = base(kind, block, layer, EventKind::Gemm);
        // The GEMM runs in the weights' dtype (fp8 weights: an fp8 tensor-core GEMM, activations
        // quantised on the fly) and streams the weight matrix at its dtype's width.
        op.gemm = GemmPayload{static_cast<std::uint32_t>(m_b), static_cast<std::uint32_t>(n),
                              static_cast<std::uint32_t>(k), m_c.weightsDtype()};
        op.flops = 2.0 * static_cast<double>(m_b) * static_cast<double>(n) * static_cast<double>(k);
        op.bytesRead = static_cast<std::uint64_t>(n * k) * m_wdt + m_b * static_cast<std::uint64_t>(k) * m_dt;
        op.bytesWritten = m_b * static_cast<std::uint64_t>(n) * m_dt;
        m_ops.push_back(op);
    }

    // Fused residual-add + RMSNorm over the hidden vector: reads input, residual and the weight;
    // writes output and the updated residual. ~5 FLOP per element (add, square, sum, scale, weight).
    void norm(OpKind kind, OpBlock block, int layer) {
        PlanOp op = base(kind, block, layer, EventKind::Elementwise);
        const auto h = static_cast<std::uint64_t>(m_c.model.hidden);
        op.flops = 5.0 * static_cast<double>(m_b * h);
        op.bytesRead = (2 * m_b * h + h) * m_dt;
        op.bytesWritten = 2 * m_b * h * m_dt;
        m_ops.push_back(op);
    }

    // Decode attention of one new token per sequence over contextLen cached tokens (heads split):
    // QK^T and PV are 2 FLOP per multiply-add each, softmax ~5 FLOP per score; reads the K and V
    // cache, writes the output and appends the new K and V.
    void attention(int layer) {
        PlanOp op = base(OpKind::Attention, OpBlock::Attention, layer, EventKind::Attention);
        const auto hq = static_cast<std::uint64_t>(m_s.headsPerRank);
        const auto hkv = static_cast<std::uint64_t>(m_s.kvHeadsPerRank);
        const auto d = static_cast<std::uint64_t>(m_c.model.headDim);
        const auto ctx = static_cast<std::uint64_t>(m_c.contextLen);
        op.flops = static_cast<double>(m_b * hq * ctx) * (4.0 * static_cast<double>(d) + 5.0);
        op.bytesRead = 2 * m_b * ctx * hkv * d * m_kvdt + m_b * (hq + 2 * hkv) * d * m_dt;
        op.bytesWritten = m_b * hq * d * m_dt + 2 * m_b * hkv * d * m_kvdt;
        m_ops.push_back(op);
    }

    // SiLU(gate) * up: ~5 FLOP per output element (sigmoid, two multiplies).
    void siluMul(int layer) {
        PlanOp op = base(OpKind::SiluMul, OpBlock::Mlp, layer, EventKind::Elementwise);
        const auto f = static_cast<std::uint64_t>(m_s.ffnPerRank);
        op.flops = 5.0 * static_cast<double>(m_b * f);
        op.bytesRead = 2 * m_b * f * m_dt;
        op.bytesWritten = m_b * f * m_dt;
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

    void logitsAllGather() {
        if (m_c.tp <= 1) return;
        PlanOp op = base(OpKind::LogitsAllGather, OpBlock::Epilogue, -1, EventKind::Collective);
        op.collective = CollectiveOp::AllGather;
        op.messageBytes = m_b * static_cast<std::uint64_t>(m_s.vocabPerRank) * m_dt;
        const std::uint64_t total = op.messageBytes * static_cast<std::uint64_t>(m_c.tp);
        op.wireBytesPerGpu = ringAllGatherWireBytes(total, m_c.tp);
        op.bytesRead = op.messageBytes;
        op.bytesWritten = total;
        m_ops.push_back(op);
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
    std::uint64_t m_wdt;
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

}  // namespace

Result<DecodePlan> buildDecodePlan(const PlanConfig& c) {
    TPSCOPE_TRY(validateConfig(c));
    DecodePlan plan;
    plan.config = c;
    TPSCOPE_TRY_ASSIGN(plan.shard, shardModel(c.model, c.tp));
    const ShardDims& s = plan.shard;
    const auto& m = c.model;

    PlanBuilder b(c, s);
    b.embedding();
    b.allReduce(OpKind::EmbeddingAllReduce, OpBlock::Prologue, -1);
    const std::int64_t qkvOut = (s.headsPerRank + 2 * s.kvHeadsPerRank) * m.headDim;
    for (int layer = 0; layer < m.layers; ++layer) {
        b.norm(OpKind::InputNorm, OpBlock::Attention, layer);
        b.gemm(OpKind::QkvGemm, OpBlock::Attention, layer, qkvOut, m.hidden);
        b.attention(layer);
        b.gemm(OpKind::OProjGemm, OpBlock::Attention, layer, m.hidden, s.headsPerRank * m.headDim);
        b.allReduce(OpKind::AttnAllReduce, OpBlock::Attention, layer);
        b.norm(OpKind::PostAttnNorm, OpBlock::Mlp, layer);
        b.gemm(OpKind::GateUpGemm, OpBlock::Mlp, layer, 2 * s.ffnPerRank, m.hidden);
        b.siluMul(layer);
        b.gemm(OpKind::DownGemm, OpBlock::Mlp, layer, m.hidden, s.ffnPerRank);
        b.allReduce(OpKind::MlpAllReduce, OpBlock::Mlp, layer);
    }
    b.norm(OpKind::FinalNorm, OpBlock::Epilogue, -1);
    b.gemm(OpKind::LmHeadGemm, OpBlock::Epilogue, -1, s.vocabPerRank, m.hidden);
    b.logitsAllGather();
    plan.ops = b.take();

    for (const auto& op : plan.ops) {
        plan.flopsPerStep += op.flops;
        plan.bytesReadPerStep += op.bytesRead;
        plan.bytesWrittenPerStep += op.bytesWritten;
        if (!op.isCollective()) continue;
        ++plan.collectivesPerStep;
        plan.wireBytesPerStepPerGpu += op.wireBytesPerGpu;
        if (op.collective == CollectiveOp::AllReduce) ++plan.allreducesPerStep;
        if (op.kind == OpKind::AttnAllReduce || op.kind == OpKind::MlpAllReduce) {
            ++plan.layerAllreducesPerStep;
            plan.layerWireBytesPerStepPerGpu += op.wireBytesPerGpu;
        }
    }
    // Reported even at TP = 1 (where no all-reduce runs) so a sweep's rows line up.
    plan.allreduceMessageBytes =
        static_cast<std::uint64_t>(c.batch) * static_cast<std::uint64_t>(m.hidden) * dtypeBytes(c.dtype);
    plan.allreduceWireBytesPerGpu = ringAllReduceWireBytes(plan.allreduceMessageBytes, c.tp);
    plan.memory = estimateMemory(c, s);
    return plan;
}

}  // namespace tpscope::core
