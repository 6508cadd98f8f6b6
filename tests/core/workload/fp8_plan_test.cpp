// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// fp8 weights and fp8 KV cache (Hopper/Blackwell serving): the plan's bytes, memory and collective
// sizes follow the dtype of what each op reads, and the all-reduces stay in the activation dtype.

#include <gtest/gtest.h>

#include "core/hw/catalog.h"
#include "core/workload/decode_plan.h"

namespace tpscope::test {
namespace {

core::PlanConfig config() {
    core::PlanConfig c;
    c.model = *core::Catalog::builtin()->model("llama3-70b");
    c.tp = 4;
    c.batch = 8;
    c.contextLen = 4096;
    c.dtype = core::Dtype::Bf16;
    return c;
}

TEST(Fp8Plan, WeightsHalveAndAllReducesStayBf16) {
    auto base = core::buildDecodePlan(config());
    auto c = config();
    c.weightDtype = core::Dtype::Fp8;
    auto fp8 = core::buildDecodePlan(c);
    ASSERT_TRUE(base && fp8);
    EXPECT_EQ(fp8->memory.weightBytesPerGpu * 2, base->memory.weightBytesPerGpu);
    EXPECT_EQ(fp8->memory.kvCacheBytesPerGpu, base->memory.kvCacheBytesPerGpu);
    EXPECT_EQ(fp8->allreduceMessageBytes, base->allreduceMessageBytes);
    for (std::size_t i = 0; i < base->ops.size(); ++i) {
        const auto& b = base->ops[i];
        const auto& f = fp8->ops[i];
        if (b.eventKind == core::EventKind::Gemm) {
            const std::uint64_t weights = std::uint64_t(b.gemm.n) * b.gemm.k;
            // bf16 reads 2 bytes per weight, fp8 one; the activations are read at bf16 in both.
            EXPECT_EQ(b.bytesRead - f.bytesRead, weights);
            EXPECT_EQ(f.gemm.dtype, core::Dtype::Fp8);
        } else {
            EXPECT_EQ(b.bytesRead, f.bytesRead);
            EXPECT_EQ(b.messageBytes, f.messageBytes);
        }
    }
}

TEST(Fp8Plan, Fp8KvCacheHalvesTheCacheAndTheAttentionReads) {
    auto base = core::buildDecodePlan(config());
    auto c = config();
    c.kvDtype = core::Dtype::Fp8;
    auto fp8 = core::buildDecodePlan(c);
    ASSERT_TRUE(base && fp8);
    EXPECT_EQ(fp8->memory.kvCacheBytesPerGpu * 2, base->memory.kvCacheBytesPerGpu);
    EXPECT_EQ(fp8->memory.weightBytesPerGpu, base->memory.weightBytesPerGpu);
    for (std::size_t i = 0; i < base->ops.size(); ++i) {
        if (base->ops[i].eventKind != core::EventKind::Attention) continue;
        const std::uint64_t cacheBf16 =
            2ULL * 8 * 4096 * std::uint64_t(base->shard.kvHeadsPerRank) * std::uint64_t(c.model.headDim) * 2;
        EXPECT_EQ(base->ops[i].bytesRead - fp8->ops[i].bytesRead, cacheBf16 / 2);
    }
}

}  // namespace
}  // namespace tpscope::test
