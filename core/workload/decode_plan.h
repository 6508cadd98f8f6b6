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
//
// MoE layers (core/workload/moe_routing.h for the expected experts a step touches): the post-attention
// norm is followed by the router GEMM (replicated, hidden x experts), the top-k softmax, the shared
// expert (a dense SwiGLU MLP) and the routed experts as grouped GEMMs (gate/up, SiLU*mul, down) whose
// weight reads are the touched experts' only.
// - MoeParallel::Tensor (vLLM/SGLang's default): every rank holds 1/tp of every expert's FFN width;
//   the layer keeps its two all-reduces.
// - MoeParallel::Expert: experts are placed whole, experts/tp per rank; each rank takes its
//   ceil(batch/tp) tokens of the replicated post-attention activations, dispatches their top-k
//   copies with an all-to-all, runs its local experts (and the shared expert, replicated, on its
//   tokens), combines with a second all-to-all and all-gathers the batch for the next layer's TP
//   attention (the sequence-parallel layout of DeepEP-style serving). The MoE all-reduce is gone.
// MLA layers: q_a and kv_a (the down-projections) are replicated on every rank, q_b and the absorbed
// kv_b (W_UK, W_UV applied per head in decode) are split by heads, and the attention reads the cached
// latent (kv_lora_rank + qk_rope_head_dim per token and layer). The latent has no head axis, so every
// TP rank caches all of it: vLLM's MLA cache is [blocks, block_size, 1, kv_lora_rank + qk_rope_head_dim]
// on each rank (vllm/attention/backends/mla/common.py; docs.vllm.ai, kv_connector/utils.py comment).

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/trace/event_kind.h"
#include "core/trace/payload.h"
#include "core/util/result.h"
#include "core/workload/model.h"
#include "core/workload/moe_routing.h"

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
    LogitsAllGather,
    MlaQUpGemm,   // MLA q_b: q_lora_rank -> heads x (nope + rope)
    MlaKvUpGemm,  // MLA kv_b absorbed into the query and the output (W_UK, W_UV)
    MoeRouter,    // hidden -> experts logits
    MoeTopK,      // softmax + top-k over the router logits
    MoeGateUp,    // grouped GEMM over the touched experts
    MoeSiluMul,   // SiLU*mul over the token-expert rows
    MoeDown,      // grouped GEMM over the touched experts
    MoeDispatch,  // expert parallel: all-to-all of the tokens' top-k copies
    MoeCombine,   // expert parallel: all-to-all back
    MoeAllGather  // expert parallel: the batch back on every rank for TP attention
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
    std::uint64_t weightBytesRead = 0;  // GEMMs: the part of bytesRead that is weights
    // Row-wise kernels (norms, SiLU*mul): `rows` rows (tokens) of `rowWidth` elements each; one thread
    // block per row, so their time follows the width (core/sim/op_time_fit.h).
    std::int64_t rows = 0;
    std::int64_t rowWidth = 0;
    // Collectives only:
    CollectiveOp collective = CollectiveOp::Unknown;
    std::uint64_t messageBytes = 0;     // per-rank buffer size (nccl-tests "size")
    std::uint64_t wireBytesPerGpu = 0;  // bytes each GPU sends in a ring implementation

    bool isCollective() const { return eventKind == EventKind::Collective; }
    // FLOP per byte moved to/from memory; 0 for ops without memory traffic.
    double arithmeticIntensity() const;
};

enum class MoeParallel : std::uint8_t { Tensor, Expert };
std::string_view toString(MoeParallel mode);  // "tp", "ep"
std::optional<MoeParallel> parseMoeParallel(std::string_view text);

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
    MoeParallel moeParallel = MoeParallel::Tensor;
    // true (vLLM, SGLang, TensorRT-LLM, Megatron): the embedding and the LM head are split by vocabulary
    // (an all-reduce after the embedding, an all-gather of the logits). false: both stay whole on every
    // rank, as gpt-fast's tp.py leaves them (it shards only attention and MLP): every rank streams the
    // whole LM head and computes every logit, and neither collective runs.
    bool vocabParallel = true;
    Dtype weightsDtype() const { return weightDtype.value_or(dtype); }
    Dtype kvCacheDtype() const { return kvDtype.value_or(dtype); }
    // A model part's weight format: weightDtype, when set, overrides every part; else the model's
    // checkpoint format, else dtype.
    WeightFormat partFormat(WeightFormat modelFormat) const;
};

struct MemoryEstimate {
    std::uint64_t weightBytesPerGpu = 0;
    // The input embedding table's slice (part of weightBytesPerGpu): a step gathers `batch` rows of it
    // and never streams it, so it does not belong in the HBM floor (the LM head does: it is a GEMM).
    std::uint64_t embeddingBytesPerGpu = 0;
    std::uint64_t kvCacheBytesPerGpu = 0;
    std::uint64_t activationBytesPerGpu = 0;
    // MoE: the routed experts held (part of weightBytesPerGpu) and those a step does not touch.
    std::uint64_t expertBytesPerGpu = 0;
    std::uint64_t untouchedExpertBytesPerGpu = 0;
    std::uint64_t totalBytesPerGpu() const { return weightBytesPerGpu + kvCacheBytesPerGpu + activationBytesPerGpu; }
    // The weights one decode step reads from HBM: the HBM floor's numerator (MoE: the touched experts only).
    std::uint64_t streamedWeightBytesPerGpu() const {
        return weightBytesPerGpu - embeddingBytesPerGpu - untouchedExpertBytesPerGpu;
    }
};

struct ShardDims {
    std::int64_t headsPerRank = 0;
    std::int64_t kvHeadsPerRank = 0;
    bool kvReplicated = false;
    std::int64_t ffnPerRank = 0;
    std::int64_t vocabPerRank = 0;  // after padding the vocabulary to a multiple of tp
    // MoE: the FFN width of each expert a rank holds, and how many experts it holds (tensor: all of
    // them, 1/tp wide; expert: experts/tp, whole); the shared experts' width per rank.
    std::int64_t expertFfnPerRank = 0;
    std::int64_t expertsPerRank = 0;
    std::int64_t sharedFfnPerRank = 0;
    // MLA: the cached latent width per token and layer (replicated on every rank).
    std::int64_t latentWidth = 0;
};

// What a MoE step reads, per rank (zero for a dense model).
struct MoeStepStats {
    double touchedExpertsPerLayer = 0;  // expected distinct experts the batch routes to, whole layer
    double touchedExpertsPerRank = 0;   // of those, held by one rank (tensor: all; expert: 1/tp)
    std::int64_t expertsPerRank = 0;
    std::int64_t halfExpertsBatch = 0;                 // smallest batch at which a layer reads half its experts
    std::uint64_t expertWeightBytesPerStepPerGpu = 0;  // routed-expert weights read in one step
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
    // GEMM weights read in one step: dense parts + the touched experts.
    std::uint64_t weightBytesReadPerStep = 0;
    MoeStepStats moe;

    double arithmeticIntensity() const;
};

// Bytes each GPU sends for a ring all-reduce of messageBytes over n ranks: 2 (n-1)/n x message.
std::uint64_t ringAllReduceWireBytes(std::uint64_t messageBytes, int ranks);
// Bytes each GPU receives in a ring all-gather whose gathered output is totalBytes: (n-1)/n x total.
std::uint64_t ringAllGatherWireBytes(std::uint64_t totalBytes, int ranks);

// vocabParallel false: vocabPerRank is the whole vocabulary (PlanConfig::vocabParallel).
Result<ShardDims> shardModel(const ModelSpec& model, int tp, MoeParallel moe = MoeParallel::Tensor,
                             bool vocabParallel = true);
Result<DecodePlan> buildDecodePlan(const PlanConfig& config);
MemoryEstimate estimateMemory(const PlanConfig& config, const ShardDims& shard);

}  // namespace tpscope::core
