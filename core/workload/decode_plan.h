// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// The Megatron tensor-parallel decode plan (DESIGN.md §3): the ordered ops of one decode step on
// one rank (every rank runs the same ops on its shard), with shapes, FLOPs, bytes and the
// collectives. The simulator, the GPU runner and the roofline calculator all read this plan.
//
// Per layer: RMSNorm -> QKV GEMM (column) -> attention over the KV cache -> O-proj GEMM (row)
// -> all-reduce -> RMSNorm -> gate/up GEMM (column) -> SiLU*mul -> down GEMM (row) -> all-reduce.
// Around the layers: a vocab-parallel embedding (whose partial rows are summed with one more
// all-reduce, as Megatron and vLLM do) and final RMSNorm -> LM head (column, vocab split) ->
// all-gather of the logits. With TP = 1 there are no collectives.
//
// Sharding rules: tp must divide heads and ffn; kv heads are split when tp divides them and
// replicated (one per rank) when kv_heads divides tp, as vLLM does for GQA models at high TP;
// the vocabulary is padded up to a multiple of tp.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/trace/event_kind.h"
#include "core/trace/payload.h"
#include "core/util/result.h"
#include "core/workload/model.h"

namespace tpscope::core {

enum class OpKind : std::uint8_t {
    Embedding,
    InputNorm,
    QkvGemm,
    Attention,
    OProjGemm,
    AttnAllReduce,
    PostAttnNorm,
    GateUpGemm,
    SiluMul,
    DownGemm,
    MlpAllReduce,
    EmbeddingAllReduce,
    FinalNorm,
    LmHeadGemm,
    LogitsAllGather
};
std::string_view toString(OpKind kind);

enum class OpBlock : std::uint8_t { Prologue, Attention, Mlp, Epilogue };
std::string_view toString(OpBlock block);

struct PlanOp {
    OpKind kind{};
    OpBlock block{};
    int layer = -1;  // -1 outside the decoder layers
    EventKind eventKind = EventKind::Other;
    GemmPayload gemm;  // m, n, k for GEMMs
    double flops = 0;
    std::uint64_t bytesRead = 0;
    std::uint64_t bytesWritten = 0;
    // Collectives only:
    CollectiveOp collective = CollectiveOp::Unknown;
    std::uint64_t messageBytes = 0;     // per-rank buffer size (nccl-tests "size")
    std::uint64_t wireBytesPerGpu = 0;  // bytes each GPU sends in a ring implementation

    bool isCollective() const { return eventKind == EventKind::Collective; }
    // FLOP per byte moved to/from memory; 0 for ops without memory traffic.
    double arithmeticIntensity() const;
};

struct PlanConfig {
    ModelSpec model;
    int tp = 1;
    int batch = 1;
    int contextLen = 1024;      // tokens in the KV cache that each new token attends to
    Dtype dtype = Dtype::Fp16;  // activations, compute and the all-reduces
    // fp8 weights (W8A8 GEMMs on fp8 tensor cores) and an fp8 KV cache, as Hopper/Blackwell serving
    // engines run them; unset: dtype. The all-reduces stay in dtype (bf16/fp16) either way.
    std::optional<Dtype> weightDtype = std::nullopt;
    std::optional<Dtype> kvDtype = std::nullopt;
    Dtype weightsDtype() const { return weightDtype.value_or(dtype); }
    Dtype kvCacheDtype() const { return kvDtype.value_or(dtype); }
};

struct MemoryEstimate {
    std::uint64_t weightBytesPerGpu = 0;
    // The input embedding table's slice (part of weightBytesPerGpu): a step gathers `batch` rows of it
    // and never streams it, so it does not belong in the HBM floor (the LM head does: it is a GEMM).
    std::uint64_t embeddingBytesPerGpu = 0;
    std::uint64_t kvCacheBytesPerGpu = 0;
    std::uint64_t activationBytesPerGpu = 0;
    std::uint64_t totalBytesPerGpu() const { return weightBytesPerGpu + kvCacheBytesPerGpu + activationBytesPerGpu; }
    // The weights one decode step reads from HBM: the batch-1 HBM floor's numerator.
    std::uint64_t streamedWeightBytesPerGpu() const { return weightBytesPerGpu - embeddingBytesPerGpu; }
};

struct ShardDims {
    std::int64_t headsPerRank = 0;
    std::int64_t kvHeadsPerRank = 0;
    bool kvReplicated = false;
    std::int64_t ffnPerRank = 0;
    std::int64_t vocabPerRank = 0;  // after padding the vocabulary to a multiple of tp
};

struct DecodePlan {
    PlanConfig config;
    ShardDims shard;
    std::vector<PlanOp> ops;  // one step, in execution order
    MemoryEstimate memory;

    // Totals per step per GPU.
    double flopsPerStep = 0;
    std::uint64_t bytesReadPerStep = 0;
    std::uint64_t bytesWrittenPerStep = 0;
    int allreducesPerStep = 0;       // all collectives of kind all-reduce in the step
    int layerAllreducesPerStep = 0;  // 2 x layers (the two per decoder layer)
    int collectivesPerStep = 0;
    std::uint64_t allreduceMessageBytes = 0;     // one layer all-reduce: batch x hidden x sizeof(dtype)
    std::uint64_t allreduceWireBytesPerGpu = 0;  // 2 (tp-1)/tp x message
    std::uint64_t wireBytesPerStepPerGpu = 0;    // all collectives of the step
    std::uint64_t layerWireBytesPerStepPerGpu = 0;

    double arithmeticIntensity() const;
};

// Bytes each GPU sends for a ring all-reduce of messageBytes over n ranks: 2 (n-1)/n x message.
std::uint64_t ringAllReduceWireBytes(std::uint64_t messageBytes, int ranks);
// Bytes each GPU receives in a ring all-gather whose gathered output is totalBytes: (n-1)/n x total.
std::uint64_t ringAllGatherWireBytes(std::uint64_t totalBytes, int ranks);

Result<ShardDims> shardModel(const ModelSpec& model, int tp);
Result<DecodePlan> buildDecodePlan(const PlanConfig& config);
MemoryEstimate estimateMemory(const PlanConfig& config, const ShardDims& shard);

}  // namespace tpscope::core
