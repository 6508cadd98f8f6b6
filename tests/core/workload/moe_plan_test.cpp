// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// MoE and MLA decode plans: the experts a step touches (E (1 - (1 - k/E)^B) under uniform routing),
// the weight bytes a step reads (dense parts + touched experts), tensor- and expert-parallel experts,
// the replicated MLA latent, and the 4-bit formats' block scales. Expected values come from the formulas.

#include <gtest/gtest.h>

#include <cmath>

#include "core/hw/catalog.h"
#include "core/workload/decode_plan.h"
#include "core/workload/moe_routing.h"

namespace tpscope::test {
namespace {

core::ModelSpec model(const char* id) {
    return *core::Catalog::builtin()->model(id);
}

core::DecodePlan plan(const char* id, int tp, int batch, core::MoeParallel mode = core::MoeParallel::Tensor) {
    core::PlanConfig c;
    c.model = model(id);
    c.tp = tp;
    c.batch = batch;
    c.contextLen = 4096;
    c.dtype = core::Dtype::Bf16;
    c.moeParallel = mode;
    auto p = core::buildDecodePlan(c);
    EXPECT_TRUE(p) << (p ? "" : p.error().message);
    return *p;
}

double uniformTouched(double e, double k, double b) {
    return e * (1.0 - std::pow(1.0 - k / e, b));
}

TEST(MoeRouting, UniformTouchedExpertsFollowTheClosedForm) {
    for (const auto& [e, k] : {std::pair{128, 4}, std::pair{128, 8}, std::pair{8, 2}, std::pair{256, 8}}) {
        for (const int b : {1, 2, 7, 64, 512}) {
            EXPECT_NEAR(core::expectedTouchedExperts(e, k, b), uniformTouched(e, k, b), 1e-9)
                << e << " " << k << " " << b;
        }
        EXPECT_DOUBLE_EQ(core::expectedTouchedExperts(e, k, 1), k);  // one token: exactly its top-k
    }
    EXPECT_NEAR(core::expectedTouchedExperts(128, 4, 100000), 128.0, 1e-9);
    EXPECT_EQ(core::expectedTouchedExperts(128, 4, 0), 0.0);
}

TEST(MoeRouting, SkewTouchesFewerExpertsAndVanishesAtZero) {
    EXPECT_NEAR(core::expectedTouchedExperts(128, 8, 64, 1e-12), uniformTouched(128, 8, 64), 1e-6);
    const double uniform = core::expectedTouchedExperts(128, 8, 64);
    const double skewed = core::expectedTouchedExperts(128, 8, 64, 1.0);
    EXPECT_LT(skewed, uniform);
    EXPECT_GT(skewed, 8.0);
}

TEST(MoeRouting, HalfTheExpertsFromTheBatchTheFormulaGives) {
    // E (1 - (1 - k/E)^B) >= E/2  <=>  B >= ln(1/2) / ln(1 - k/E).
    for (const auto& [e, k] :
         {std::pair{128, 4}, std::pair{128, 8}, std::pair{8, 2}, std::pair{256, 8}, std::pair{16, 1}}) {
        const double exact = std::log(0.5) / std::log(1.0 - static_cast<double>(k) / e);
        EXPECT_EQ(core::batchForExpertFraction(e, k, 0.5), static_cast<std::int64_t>(std::ceil(exact)))
            << e << " " << k;
    }
    EXPECT_EQ(core::batchForExpertFraction(128, 4, 1.5), -1);
}

// Routed-expert weight bytes one rank reads per layer: gate/up (2 x) and down, each rounded to whole
// MXFP4 blocks of 32 weights in 17 bytes, as the plan rounds each GEMM.
std::uint64_t mxfp4ExpertBytesPerLayer(double touched, std::int64_t hidden, std::int64_t ffnPerRank) {
    const double w = static_cast<double>(hidden * ffnPerRank);
    auto blocks = [](double weights) { return (static_cast<std::uint64_t>(std::llround(weights)) + 31) / 32 * 17; };
    return blocks(2 * touched * w) + blocks(touched * w);
}

TEST(MoePlan, GptOss120bTp8ReadsTheTouchedExpertsOnly) {
    const auto m = model("gpt-oss-120b");
    for (const int b : {1, 64}) {
        const auto p = plan("gpt-oss-120b", 8, b);
        const double touched = uniformTouched(128, 4, b);
        EXPECT_NEAR(p.moe.touchedExpertsPerLayer, touched, 1e-9);
        EXPECT_NEAR(p.moe.touchedExpertsPerRank, touched, 1e-9);  // tensor parallel: a slice of every expert
        EXPECT_EQ(p.shard.expertFfnPerRank, 2880 / 8);
        EXPECT_EQ(p.moe.expertWeightBytesPerStepPerGpu,
                  36 * mxfp4ExpertBytesPerLayer(touched, m.hidden, p.shard.expertFfnPerRank));
        EXPECT_EQ(p.layerAllreducesPerStep, 2 * 36);  // the MoE block keeps the MLP all-reduce
    }
    const auto b1 = plan("gpt-oss-120b", 8, 1);
    const auto b64 = plan("gpt-oss-120b", 8, 64);
    // The dense parts (attention, routers, LM head) read the same bytes at any batch.
    EXPECT_EQ(b1.weightBytesReadPerStep - b1.moe.expertWeightBytesPerStepPerGpu,
              b64.weightBytesReadPerStep - b64.moe.expertWeightBytesPerStepPerGpu);
    EXPECT_GT(b64.weightBytesReadPerStep, 5 * b1.weightBytesReadPerStep / 2);
    EXPECT_EQ(b1.moe.halfExpertsBatch, 22);  // ceil(ln 0.5 / ln(1 - 4/128)) = ceil(21.8)
    // Memory holds every expert (128 x 1/8 of each); the HBM floor streams only the touched ones.
    const std::uint64_t held = 36ULL * ((3ULL * 2880 * 360 * 128 + 31) / 32 * 17);
    EXPECT_EQ(b1.memory.expertBytesPerGpu, held);
    EXPECT_NEAR(static_cast<double>(b1.memory.untouchedExpertBytesPerGpu),
                static_cast<double>(held) * (128.0 - 4.0) / 128.0, 64.0 * 36);
}

TEST(MoePlan, ExpertParallelPlacesWholeExpertsAndSwapsTheAllReduceForAllToAll) {
    const auto tp = plan("qwen3-30b-a3b", 4, 64);
    const auto ep = plan("qwen3-30b-a3b", 4, 64, core::MoeParallel::Expert);
    EXPECT_EQ(ep.shard.expertsPerRank, 128 / 4);
    EXPECT_EQ(ep.shard.expertFfnPerRank, 768);
    EXPECT_NEAR(ep.moe.touchedExpertsPerRank, uniformTouched(128, 8, 64) / 4, 1e-9);
    int dispatch = 0, combine = 0, gather = 0, mlpAllReduce = 0;
    for (const auto& op : ep.ops) {
        dispatch += op.kind == core::OpKind::MoeDispatch;
        combine += op.kind == core::OpKind::MoeCombine;
        gather += op.kind == core::OpKind::MoeAllGather;
        mlpAllReduce += op.kind == core::OpKind::MlpAllReduce;
        if (op.kind == core::OpKind::MoeDispatch) {
            // 64 / 4 tokens per rank, 8 copies each, bf16 hidden vectors; 3/4 of them leave the rank.
            EXPECT_EQ(op.messageBytes, 16ULL * 8 * 2048 * 2);
            EXPECT_EQ(op.wireBytesPerGpu, op.messageBytes * 3 / 4);
            EXPECT_EQ(op.collective, core::CollectiveOp::AllToAll);
        }
    }
    EXPECT_EQ(dispatch, 48);
    EXPECT_EQ(combine, 48);
    EXPECT_EQ(gather, 48);
    EXPECT_EQ(mlpAllReduce, 0);
    EXPECT_EQ(ep.layerAllreducesPerStep, 48);
    // Same expert bytes held per rank either way (a quarter), and read: a quarter of every touched
    // expert (tensor) or every touched expert of a quarter of them (expert).
    EXPECT_EQ(ep.memory.expertBytesPerGpu, tp.memory.expertBytesPerGpu);
    EXPECT_NEAR(static_cast<double>(ep.moe.expertWeightBytesPerStepPerGpu),
                static_cast<double>(tp.moe.expertWeightBytesPerStepPerGpu), 1e3);
}

TEST(MoePlan, RejectsTpThatSplitsNoExpertEvenly) {
    core::PlanConfig c;
    c.model = model("mixtral-8x7b");
    c.tp = 16;
    c.moeParallel = core::MoeParallel::Expert;
    auto p = core::buildDecodePlan(c);
    ASSERT_FALSE(p);
    EXPECT_NE(p.error().message.find("8 experts"), std::string::npos) << p.error().message;
}

TEST(MlaPlan, TheLatentIsCachedInFullOnEveryRank) {
    const auto m = model("deepseek-v3");
    const auto tp1 = plan("deepseek-v3", 1, 8);
    const auto tp8 = plan("deepseek-v3", 8, 8);
    const std::uint64_t latent = 512 + 64;
    EXPECT_EQ(tp8.shard.latentWidth, static_cast<std::int64_t>(latent));
    EXPECT_TRUE(tp8.shard.kvReplicated);
    EXPECT_EQ(tp8.memory.kvCacheBytesPerGpu, 61ULL * latent * 4096 * 8 * 2);
    EXPECT_EQ(tp1.memory.kvCacheBytesPerGpu, tp8.memory.kvCacheBytesPerGpu);
    for (const auto& op : tp8.ops) {
        if (op.kind != core::OpKind::Attention) continue;
        // One latent per cached token, shared by the rank's 16 heads.
        EXPECT_EQ(op.bytesRead, 8ULL * 4096 * latent * 2 + 8ULL * 16 * latent * 2);
        break;
    }
    // First three layers dense (ffn 18432 / 8 per rank), the rest MoE with one shared expert.
    int denseGateUp = 0, moeGateUp = 0;
    for (const auto& op : tp8.ops) {
        if (op.kind == core::OpKind::GateUpGemm && op.gemm.n == 2 * 18432 / 8) ++denseGateUp;
        if (op.kind == core::OpKind::MoeGateUp) ++moeGateUp;
    }
    EXPECT_EQ(denseGateUp, 3);
    EXPECT_EQ(moeGateUp, 58);
    EXPECT_EQ(m.moeLayers(), 58);
}

TEST(WeightFormats, BlockScalesAddTheirBytes) {
    EXPECT_EQ(core::weightBytes(32, core::WeightFormat::Mxfp4, core::Dtype::Bf16), 17u);
    EXPECT_EQ(core::weightBytes(33, core::WeightFormat::Mxfp4, core::Dtype::Bf16), 34u);
    EXPECT_EQ(core::weightBytes(16, core::WeightFormat::Nvfp4, core::Dtype::Bf16), 9u);
    EXPECT_DOUBLE_EQ(core::bitsPerWeight(core::WeightFormat::Mxfp4, core::Dtype::Bf16), 4.25);
    EXPECT_DOUBLE_EQ(core::bitsPerWeight(core::WeightFormat::Nvfp4, core::Dtype::Bf16), 4.5);
    EXPECT_EQ(core::weightBytes(10, core::WeightFormat::Default, core::Dtype::Fp32), 40u);
    EXPECT_EQ(core::gemmDtype(core::WeightFormat::Mxfp4, core::Dtype::Bf16), core::Dtype::Bf16);
    EXPECT_EQ(core::gemmDtype(core::WeightFormat::Fp8, core::Dtype::Bf16), core::Dtype::Fp8);
}

TEST(MoePlan, AnFp8OverrideReplacesTheCheckpointFormats) {
    core::PlanConfig c;
    c.model = model("gpt-oss-20b");
    c.dtype = core::Dtype::Bf16;
    auto native = core::buildDecodePlan(c);
    c.weightDtype = core::Dtype::Fp8;
    auto fp8 = core::buildDecodePlan(c);
    ASSERT_TRUE(native && fp8);
    // MXFP4 experts (4.25 bits) become fp8 (8 bits): the held expert bytes grow by 8 / 4.25.
    EXPECT_NEAR(
        static_cast<double>(fp8->memory.expertBytesPerGpu) / static_cast<double>(native->memory.expertBytesPerGpu),
        8.0 / 4.25, 1e-6);
}

}  // namespace
}  // namespace tpscope::test
