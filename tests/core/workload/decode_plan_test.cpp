// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/workload/decode_plan.h"

#include <gtest/gtest.h>

#include "core/hw/catalog.h"

namespace tpscope::core {
namespace {

ModelSpec preset(const char* id) {
    static const auto catalog = Catalog::builtin();
    return *catalog->model(id);
}

DecodePlan plan(const char* model, int tp, int batch = 1, int context = 1024, Dtype dtype = Dtype::Fp16) {
    auto p = buildDecodePlan(PlanConfig{preset(model), tp, batch, context, dtype});
    EXPECT_TRUE(p.ok()) << (p.ok() ? "" : p.error().describe());
    return *p;
}

TEST(DecodePlan, AllReduceMessageIsBatchTimesHiddenTimesDtype) {
    for (const int batch : {1, 8, 32}) {
        const auto p = plan("llama3-70b", 4, batch);
        EXPECT_EQ(p.allreduceMessageBytes, static_cast<std::uint64_t>(batch) * 8192 * 2);
    }
    EXPECT_EQ(plan("llama3-70b", 4, 1, 1024, Dtype::Fp8).allreduceMessageBytes, 8192u);
}

TEST(DecodePlan, RingWireBytesAreTwoTimesNMinusOneOverNOfTheMessage) {
    // Seed article table (batch 1, fp16, hidden 8192): 16 KiB, 24 KiB, 28 KiB per all-reduce.
    for (const int tp : {2, 4, 8}) {
        const auto p = plan("llama3-70b", tp);
        const double expected = 2.0 * (tp - 1) / tp * 1 * 1 * 8192 * 2;
        EXPECT_DOUBLE_EQ(static_cast<double>(p.allreduceWireBytesPerGpu), expected) << "tp " << tp;
    }
}

TEST(DecodePlan, TwoAllReducesPerLayerPlusTheEmbeddingOne) {
    const auto p = plan("llama3-70b", 8);
    EXPECT_EQ(p.layerAllreducesPerStep, 2 * 80);
    EXPECT_EQ(p.allreducesPerStep, 2 * 80 + 1);
    EXPECT_EQ(p.collectivesPerStep, 2 * 80 + 2) << "plus the logits all-gather";
    // The seed's "80 layers x 2" column for TP 2: 160 x 16 KiB = 2,621,440 bytes. (The article prints
    // 2.56 MB: 2560 KiB read as decimal megabytes, one of its unit slips.)
    EXPECT_EQ(plan("llama3-70b", 2).layerWireBytesPerStepPerGpu, 160u * 16384u);
}

TEST(DecodePlan, TpOneHasNoCollectives) {
    const auto p = plan("llama3-8b", 1);
    EXPECT_EQ(p.collectivesPerStep, 0);
    EXPECT_EQ(p.wireBytesPerStepPerGpu, 0u);
    for (const auto& op : p.ops) EXPECT_FALSE(op.isCollective());
}

TEST(DecodePlan, OpsFollowTheMegatronOrderInEveryLayer) {
    const auto p = plan("llama2-7b", 2);
    const std::vector<OpKind> layerOrder = {
        OpKind::InputNorm,    OpKind::QkvGemm,    OpKind::Attention, OpKind::OProjGemm, OpKind::AttnAllReduce,
        OpKind::PostAttnNorm, OpKind::GateUpGemm, OpKind::SiluMul,   OpKind::DownGemm,  OpKind::MlpAllReduce};
    std::vector<OpKind> layer5;
    for (const auto& op : p.ops) {
        if (op.layer == 5) layer5.push_back(op.kind);
    }
    EXPECT_EQ(layer5, layerOrder);
    EXPECT_EQ(p.ops.front().kind, OpKind::Embedding);
    EXPECT_EQ(p.ops.back().kind, OpKind::LogitsAllGather);
}

TEST(DecodePlan, GemmShapesAreShardedColumnThenRow) {
    const auto p = plan("llama3-70b", 4, 8);
    for (const auto& op : p.ops) {
        if (op.layer != 0) continue;
        if (op.kind == OpKind::QkvGemm) {
            EXPECT_EQ(op.gemm.m, 8u);
            EXPECT_EQ(op.gemm.n, (64 / 4 + 2 * 8 / 4) * 128u);
            EXPECT_EQ(op.gemm.k, 8192u);
        }
        if (op.kind == OpKind::DownGemm) {
            EXPECT_EQ(op.gemm.n, 8192u);
            EXPECT_EQ(op.gemm.k, 28672u / 4);
        }
        if (op.eventKind == EventKind::Gemm) {
            EXPECT_DOUBLE_EQ(op.flops, 2.0 * op.gemm.m * op.gemm.n * op.gemm.k);
            EXPECT_EQ(op.bytesRead, (std::uint64_t{op.gemm.n} * op.gemm.k + std::uint64_t{op.gemm.m} * op.gemm.k) * 2);
        }
    }
}

TEST(DecodePlan, WeightsPerGpuMatchTheShardedParameterCount) {
    // Llama-3 70B at TP 4, counted per matrix: q/k/v (16 + 2 + 2 heads x 128), o, gate+up, down,
    // two norms per layer; vocab-split embedding and LM head; the final norm.
    const std::uint64_t h = 8192, f = 28672 / 4, d = 128, layers = 80, vocab = 128256 / 4;
    const std::uint64_t perLayer = h * (16 + 2 + 2) * d + 16 * d * h + h * f * 2 + f * h + 2 * h;
    const std::uint64_t params = layers * perLayer + 2 * vocab * h + h;
    const auto p = plan("llama3-70b", 4);
    EXPECT_EQ(p.memory.weightBytesPerGpu, params * 2);
    // The seed's "about 35 GB per GPU" at TP 4.
    EXPECT_NEAR(static_cast<double>(p.memory.weightBytesPerGpu) / 1e9, 35.3, 0.1);
}

TEST(DecodePlan, TheHbmFloorStreamsEveryWeightButTheInputEmbeddingTable) {
    // A step gathers `batch` rows of the embedding table and streams everything else (the LM head is a
    // GEMM over the whole vocabulary slice). Llama-3 8B at TP 1 and TP 4: vocab 128256, hidden 4096.
    for (const std::uint64_t tp : {1u, 4u}) {
        const auto p = plan("llama3-8b", static_cast<int>(tp));
        const std::uint64_t embedding = (128256 + tp - 1) / tp * 4096 * 2;
        EXPECT_EQ(p.memory.embeddingBytesPerGpu, embedding);
        EXPECT_EQ(p.memory.streamedWeightBytesPerGpu(), p.memory.weightBytesPerGpu - embedding);
    }
    // At TP 1 the table is ~1.05 GB of ~16.06 GB: counting it put the floor ~7 % too high.
    const auto p = plan("llama3-8b", 1);
    const double share =
        static_cast<double>(p.memory.embeddingBytesPerGpu) / static_cast<double>(p.memory.streamedWeightBytesPerGpu());
    EXPECT_NEAR(share, 0.07, 0.01);
}

TEST(DecodePlan, KvCacheIsTwoTimesLayersKvHeadsHeadDimContextBatch) {
    const auto p = plan("llama3-8b", 2, 4, 2048);
    EXPECT_EQ(p.memory.kvCacheBytesPerGpu, 2u * 32 * (8 / 2) * 128 * 2048 * 4 * 2);
}

TEST(DecodePlan, DecodeAtBatchOneIsAboutOneFlopPerByte) {
    const auto p1 = plan("llama3-70b", 4, 1, 1);
    EXPECT_NEAR(p1.arithmeticIntensity(), 1.0, 0.05);
    // Thirty-two sequences reuse each weight byte 32 times (the seed's AI of about 32).
    const auto p32 = plan("llama3-70b", 4, 32, 1);
    EXPECT_NEAR(p32.arithmeticIntensity() / p1.arithmeticIntensity(), 32.0, 32.0 * 0.05);
}

TEST(DecodePlan, KvHeadsAreReplicatedWhenTpExceedsThem) {
    const auto p = plan("llama3-70b", 16);
    EXPECT_TRUE(p.shard.kvReplicated);
    EXPECT_EQ(p.shard.kvHeadsPerRank, 1);
    EXPECT_EQ(p.shard.headsPerRank, 4);
}

TEST(DecodePlan, VocabularyIsPaddedToAMultipleOfTp) {
    ModelSpec m = preset("llama2-7b");
    m.vocab = 32001;
    const auto p = buildDecodePlan(PlanConfig{m, 4, 1, 16, Dtype::Fp16});
    ASSERT_TRUE(p.ok());
    EXPECT_EQ(p->shard.vocabPerRank, 8001);
}

// gpt-fast's layout: the embedding and the LM head whole on every rank. The LM head GEMM covers the whole
// vocabulary, neither the embedding all-reduce nor the logits all-gather runs, and each rank holds both
// tables whole: (vocab - vocab / tp) x hidden x 2 tables more weight bytes than the vocabulary-split plan.
TEST(DecodePlan, AReplicatedVocabularyKeepsTheLmHeadWholeAndDropsItsCollectives) {
    const int tp = 8;
    PlanConfig c{preset("llama3-8b"), tp, 1, 1024, Dtype::Bf16};
    const auto split = buildDecodePlan(c);
    c.vocabParallel = false;
    const auto whole = buildDecodePlan(c);
    ASSERT_TRUE(split.ok() && whole.ok());
    EXPECT_EQ(whole->shard.vocabPerRank, 128256);
    EXPECT_EQ(whole->collectivesPerStep, split->collectivesPerStep - 2);
    EXPECT_EQ(whole->allreducesPerStep, 2 * 32);
    for (const auto& op : whole->ops) {
        EXPECT_NE(op.kind, OpKind::EmbeddingAllReduce);
        EXPECT_NE(op.kind, OpKind::LogitsAllGather);
        if (op.kind == OpKind::LmHeadGemm) {
            EXPECT_EQ(op.gemm.n, 128256u);
        }
    }
    const std::uint64_t perRank = 128256 / tp;  // 128256 is a multiple of 8: no padding
    EXPECT_EQ(whole->memory.weightBytesPerGpu - split->memory.weightBytesPerGpu, 2 * (128256 - perRank) * 4096 * 2);
}

// Rejections, each with a message naming the problem.
void expectRejected(const PlanConfig& c, const std::string& fragment) {
    const auto p = buildDecodePlan(c);
    ASSERT_FALSE(p.ok()) << "expected rejection containing: " << fragment;
    EXPECT_EQ(p.error().code, ErrorCode::InvalidArgument);
    EXPECT_NE(p.error().describe().find(fragment), std::string::npos) << p.error().describe();
}

TEST(DecodePlan, RejectsTpNotDividingHeads) {
    expectRejected(PlanConfig{preset("llama3-70b"), 3, 1, 16, Dtype::Fp16}, "does not divide the 64 attention heads");
}

TEST(DecodePlan, RejectsTpNotDividingKvHeads) {
    ModelSpec m = preset("llama2-7b");
    m.heads = 12;
    m.kvHeads = 6;
    m.hidden = 12 * 128;
    expectRejected(PlanConfig{m, 4, 1, 16, Dtype::Fp16}, "kv heads");
}

TEST(DecodePlan, RejectsTpNotDividingFfn) {
    ModelSpec m = preset("llama2-7b");
    m.ffn = 1000;
    expectRejected(PlanConfig{m, 16, 1, 16, Dtype::Fp16}, "ffn = 1000");
}

TEST(DecodePlan, RejectsZeroAndNegativeSizes) {
    expectRejected(PlanConfig{preset("llama3-8b"), 0, 1, 16, Dtype::Fp16}, "tp must be a positive");
    expectRejected(PlanConfig{preset("llama3-8b"), 1, 0, 16, Dtype::Fp16}, "batch must be a positive");
    expectRejected(PlanConfig{preset("llama3-8b"), 1, 1, -5, Dtype::Fp16}, "context length");
    ModelSpec m = preset("llama3-8b");
    m.layers = 0;
    expectRejected(PlanConfig{m, 1, 1, 16, Dtype::Fp16}, "must all be positive");
    expectRejected(PlanConfig{preset("llama3-8b"), 1, 1, 16, Dtype::Unknown}, "dtype");
}

}  // namespace
}  // namespace tpscope::core
