// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// Alternating layer kinds (PLAN.md agreement 3, issue 43 §3): ModelSpec::attentionPattern repeats over
// the layers, and a Sliding layer's decode attention reads min(context, window) cached tokens.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>

#include "core/hw/catalog.h"
#include "core/workload/decode_plan.h"

namespace tpscope::core {
namespace {

ModelSpec alternating(std::int64_t window) {
    ModelSpec m = *Catalog::builtin()->model("llama3-8b");
    m.layers = 6;
    m.attentionPattern = {LayerAttention::Sliding, LayerAttention::Full};
    m.slidingWindow = window;
    return m;
}

TEST(LayerAttention, ThePatternRepeatsOverTheLayers) {
    const ModelSpec m = alternating(128);
    for (std::int64_t layer = 0; layer < m.layers; ++layer) {
        EXPECT_EQ(m.layerAttention(layer), layer % 2 == 0 ? LayerAttention::Sliding : LayerAttention::Full) << layer;
    }
    EXPECT_EQ(m.attendedTokens(0, 1024), 128);
    EXPECT_EQ(m.attendedTokens(1, 1024), 1024);
    EXPECT_EQ(m.attendedTokens(0, 100), 100);  // a context shorter than the window
    ModelSpec plain = m;
    plain.attentionPattern.clear();
    EXPECT_EQ(plain.layerAttention(0), LayerAttention::Full);
    EXPECT_EQ(toString(LayerAttention::Sliding), "sliding");
}

TEST(LayerAttention, ASlidingLayerReadsItsWindowOfTheCache) {
    const std::int64_t context = 4096;
    const std::int64_t window = 512;
    auto p = buildDecodePlan(PlanConfig{alternating(window), 2, 4, static_cast<int>(context), Dtype::Bf16});
    ASSERT_TRUE(p) << p.error().describe();
    const auto& s = p->shard;
    const auto hq = static_cast<std::uint64_t>(s.headsPerRank);
    const auto hkv = static_cast<std::uint64_t>(s.kvHeadsPerRank);
    const std::uint64_t d = 128;  // llama3-8b head dim
    const std::uint64_t b = 4;
    std::size_t seen = 0;
    for (const auto& op : p->ops) {
        if (op.kind != OpKind::Attention) continue;
        const auto ctx = static_cast<std::uint64_t>(op.layer % 2 == 0 ? window : context);
        // K and V of ctx tokens (bf16 cache) plus this token's q, k, v (decode_plan.cpp).
        EXPECT_EQ(op.bytesRead, 2 * b * ctx * hkv * d * 2 + b * (hq + 2 * hkv) * d * 2) << op.layer;
        ++seen;
    }
    EXPECT_EQ(seen, 6u);
}

TEST(LayerAttention, ASlidingLayerWithoutAWindowIsRejected) {
    ModelSpec m = alternating(0);
    const auto s = validateModel(m);
    ASSERT_FALSE(s);
    EXPECT_NE(s.error().message.find("sliding_window"), std::string::npos);
    m.slidingWindow = 64;
    EXPECT_TRUE(validateModel(m));
}

// The KV cache a plan holds (and the HBM floor reads: gpu/capture.h) is a Sliding layer's window, not
// the whole context: gpt-oss alternates sliding (window 128) and full layers (issue 46).
TEST(LayerAttention, ASlidingLayerHoldsOnlyItsWindowOfTheKvCache) {
    const int tp = 2;
    const int batch = 4;
    const std::int64_t window = 128;
    const ModelSpec m = alternating(window);
    ModelSpec full = m;
    full.attentionPattern.clear();
    for (const std::int64_t context : {std::int64_t{4096}, std::int64_t{100}}) {
        auto p = buildDecodePlan(PlanConfig{m, tp, batch, static_cast<int>(context), Dtype::Bf16});
        auto f = buildDecodePlan(PlanConfig{full, tp, batch, static_cast<int>(context), Dtype::Bf16});
        ASSERT_TRUE(p && f);
        const auto hkv = static_cast<std::uint64_t>(p->shard.kvHeadsPerRank);
        const auto hq = static_cast<std::uint64_t>(p->shard.headsPerRank);
        const std::uint64_t d = 128;
        const std::uint64_t b = batch;
        // Layers 0, 2, 4 slide over min(context, window) tokens; 1, 3, 5 hold the whole context.
        const auto sliding = static_cast<std::uint64_t>(std::min(context, window));
        const auto whole = static_cast<std::uint64_t>(context);
        const std::uint64_t perToken = 2 * hkv * d * b * 2;  // K and V, bf16
        EXPECT_EQ(p->memory.kvCacheBytesPerGpu, (3 * sliding + 3 * whole) * perToken) << context;
        EXPECT_EQ(f->memory.kvCacheBytesPerGpu, 6 * whole * perToken) << context;
        EXPECT_EQ(m.cachedTokens(context), static_cast<std::int64_t>(3 * sliding + 3 * whole));
        // What the step's attention reads of the cache is what the plan holds: one number for the floor.
        std::uint64_t cacheRead = 0;
        for (const auto& op : p->ops) {
            if (op.kind == OpKind::Attention) cacheRead += op.bytesRead - b * (hq + 2 * hkv) * d * 2;
        }
        EXPECT_EQ(cacheRead, p->memory.kvCacheBytesPerGpu) << context;
    }
}

}  // namespace
}  // namespace tpscope::core
