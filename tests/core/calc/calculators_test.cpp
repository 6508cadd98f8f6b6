// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include <gtest/gtest.h>

#include <cmath>

#include "core/calc/allreduce_bound.h"
#include "core/calc/amdahl.h"
#include "core/calc/cost.h"
#include "core/calc/roofline.h"
#include "core/hw/catalog.h"

namespace tpscope::core {
namespace {

TEST(Amdahl, SpeedupFollowsTheFormulaAndTheSeedExample) {
    const auto t = amdahlTable(0.1, {1, 2, 4, 8});
    ASSERT_TRUE(t.ok());
    for (const auto& p : t->points) {
        EXPECT_DOUBLE_EQ(p.speedup, 1.0 / (0.1 + 0.9 / p.gpus));
        EXPECT_DOUBLE_EQ(p.efficiency, p.speedup / p.gpus);
    }
    // The seed's worked example (S = 0.1): 1.82x, 3.08x, 4.71x, limit 10x. These are right.
    EXPECT_NEAR(t->points[1].speedup, 1.82, 0.005);
    EXPECT_NEAR(t->points[2].speedup, 3.08, 0.005);
    EXPECT_NEAR(t->points[3].speedup, 4.71, 0.005);
    EXPECT_DOUBLE_EQ(t->maxSpeedup, 10.0);
}

TEST(Amdahl, ZeroSerialFractionIsLinearAndUnbounded) {
    const auto t = amdahlTable(0.0, {8});
    EXPECT_DOUBLE_EQ(t->points[0].speedup, 8.0);
    EXPECT_TRUE(std::isinf(t->maxSpeedup));
}

TEST(Amdahl, RejectsFractionsOutsideZeroToOne) {
    EXPECT_FALSE(amdahlTable(-0.1, {2}).ok());
    EXPECT_FALSE(amdahlTable(1.5, {2}).ok());
    EXPECT_FALSE(amdahlTable(std::nan(""), {2}).ok());
    EXPECT_FALSE(amdahlTable(0.1, {0}).ok());
}

TEST(Cost, PerMillionTokensIsGpuDollarsPerHourOverMillionTokensPerHour) {
    // Seed example: H100 at $3/h, 50 tokens/s on one GPU. 50 tok/s is 0.18 M tokens an hour, so
    // $16.67 per million tokens. (The article prints "$0.017": dollars per thousand tokens.)
    EXPECT_NEAR(costPerMillionTokens(1, 3.0, 50.0), 3.0 / 0.18, 1e-9);
}

TEST(Cost, PremiumIsRelativeToTheBaseline) {
    const auto t = costTable(3.0, {{8, 300}, {1, 50}, {4, 170}, {2, 92}});
    ASSERT_TRUE(t.ok());
    EXPECT_EQ(t->baselineGpus, 1);
    ASSERT_EQ(t->rows.size(), 4u);
    const double base = 3.0 / (50 * 3600 / 1e6);
    for (const auto& r : t->rows) {
        const double cost = r.gpus * 3.0 / (r.tokensPerSec * 3600 / 1e6);
        EXPECT_DOUBLE_EQ(r.costPerMillionTokens, cost);
        EXPECT_DOUBLE_EQ(r.premiumVsBaseline, cost / base - 1);
    }
    // The seed says 6 % and 29 % for 2 and 8 GPUs; the formula gives 8.7 % and 33.3 %.
    EXPECT_NEAR(t->rows[1].premiumVsBaseline, 0.087, 0.001);
    EXPECT_NEAR(t->rows[3].premiumVsBaseline, 1.0 / 3.0, 0.001);
}

TEST(Cost, BaselineIsTheSmallestGpuCountWhenOneGpuIsAbsent) {
    const auto t = costTable(2.0, {{4, 100}, {2, 60}});
    EXPECT_EQ(t->baselineGpus, 2);
    EXPECT_DOUBLE_EQ(t->rows[0].premiumVsBaseline, 0.0);
}

TEST(Cost, RejectsBadInput) {
    EXPECT_FALSE(costTable(0, {{1, 50}}).ok());
    EXPECT_FALSE(costTable(3, {}).ok());
    EXPECT_FALSE(costTable(3, {{1, -5}}).ok());
    EXPECT_FALSE(costTable(3, {{1, 50}, {1, 60}}).ok());
}

FabricSpec fabricWithBusbw(double busbw) {
    FabricSpec f;
    f.id = "test";
    f.linkBytesPerSec = busbw * 1.5;
    f.busbwBytesPerSec = busbw;
    return f;
}

TEST(AllReduceBound, SeedTableForTp4Batch1) {
    const auto catalog = Catalog::builtin();
    const auto p = buildDecodePlan(PlanConfig{*catalog->model("llama3-70b"), 4, 1, 1024, Dtype::Fp16});
    // 24 KiB per call on the wire; 160 layer calls per token.
    struct Row {
        double busbw;
        double seedPerCallUs;
    };
    for (const Row row : {Row{200e9, 0.12}, Row{20e9, 1.2}, Row{25e9, 0.96}}) {
        const auto b = allReduceBound(*p, fabricWithBusbw(row.busbw));
        EXPECT_DOUBLE_EQ(b.perCallAtBusbwNs, 24576.0 / row.busbw * 1e9);
        EXPECT_DOUBLE_EQ(b.layerAllreducesAtBusbwNs, 160 * 24576.0 / row.busbw * 1e9);
        // The seed rounds 24 KiB to 24,000 bytes; within 3 % of its figures.
        EXPECT_NEAR(b.perCallAtBusbwNs / 1e3, row.seedPerCallUs, row.seedPerCallUs * 0.03);
    }
}

TEST(AllReduceBound, PerStepCountsEveryCollectiveAndPerTokenDividesByBatch) {
    const auto catalog = Catalog::builtin();
    const auto p = buildDecodePlan(PlanConfig{*catalog->model("llama3-8b"), 2, 8, 512, Dtype::Bf16});
    const FabricSpec f = *catalog->fabric("pcie4");
    const auto b = allReduceBound(*p, f);
    std::uint64_t wire = 0;
    for (const auto& op : p->ops) wire += op.wireBytesPerGpu;
    EXPECT_EQ(b.wireBytesPerStepPerGpu, wire);
    EXPECT_DOUBLE_EQ(b.perStepAtLinkNs, static_cast<double>(wire) / f.linkBytesPerSec * 1e9);
    EXPECT_DOUBLE_EQ(b.perTokenAtLinkNs, b.perStepAtLinkNs / 8);
    EXPECT_GT(b.perCallAtBusbwNs, b.perCallAtLinkNs) << "busbw is below the link rate";
}

TEST(Roofline, DecodeAtBatchOneIsMemoryBoundAndBoundedByHbmTime) {
    const auto catalog = Catalog::builtin();
    const GpuSpec a100 = *catalog->gpu("a100-sxm");
    const auto p = buildDecodePlan(PlanConfig{*catalog->model("llama3-70b"), 4, 1, 1024, Dtype::Fp16});
    const auto r = roofline(*p, a100);
    ASSERT_TRUE(r.ok());
    EXPECT_TRUE(r->memoryBound);
    const double bytes = static_cast<double>(p->bytesReadPerStep + p->bytesWrittenPerStep);
    EXPECT_DOUBLE_EQ(r->memoryTimeNs, bytes / 2.039e12 * 1e9);
    EXPECT_DOUBLE_EQ(r->stepLowerBoundNs, r->memoryTimeNs);
    // The seed: "a decode step takes roughly 15-20 ms" at TP 4 on A100 (35 GB at ~2 TB/s).
    EXPECT_GT(r->stepLowerBoundNs / 1e6, 15.0);
    EXPECT_LT(r->stepLowerBoundNs / 1e6, 20.0);
}

TEST(Roofline, Fp8OnAmpereIsUnsupported) {
    const auto catalog = Catalog::builtin();
    const auto p = buildDecodePlan(PlanConfig{*catalog->model("llama3-8b"), 1, 1, 128, Dtype::Fp8});
    const auto r = roofline(*p, *catalog->gpu("a100-sxm"));
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, ErrorCode::Unsupported);
}

}  // namespace
}  // namespace tpscope::core
