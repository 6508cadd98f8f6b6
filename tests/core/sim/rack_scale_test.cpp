// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// Rack-scale presets: GB200 / B300 / H20 and the NVL72 NVLink domain, per-GPU numbers derived from the
// rack totals their sources state, and TP up to 72 on one NVLink domain in the simulator.

#include <gtest/gtest.h>

#include "core/sim/simulator.h"
#include "sim_test_support.h"

namespace tpscope::test {
namespace {

TEST(RackPresets, Gb200PerGpuNumbersAreTheNvl72TotalsOver72) {
    const auto gb200 = *catalog().gpu("gb200");
    EXPECT_NEAR(static_cast<double>(gb200.memoryBytes), 13.4e12 / 72, 0.001 * 13.4e12 / 72);  // 13.4 TB HBM3e
    EXPECT_DOUBLE_EQ(gb200.hbmBytesPerSec, 576e12 / 72);                                      // 576 TB/s
    EXPECT_DOUBLE_EQ(gb200.fp8Flops, 720e15 / 72 / 2);   // 720 PFLOPS FP8 sparse, halved for dense
    EXPECT_DOUBLE_EQ(gb200.bf16Flops, 360e15 / 72 / 2);  // 360 PFLOPS FP16/BF16 sparse
    const auto nvl72 = *catalog().fabric("nvl72");
    EXPECT_EQ(nvl72.maxGpus, 72);
    EXPECT_NEAR(nvl72.linkBytesPerSec, 130e12 / 72 / 2, 0.01 * 130e12 / 72 / 2);  // 130 TB/s bidirectional
    EXPECT_EQ(catalog().fabric("roce-800g")->linkBytesPerSec, 800e9 / 8);
    EXPECT_EQ(catalog().fabric("roce-400g")->linkBytesPerSec, 400e9 / 8);
    for (const char* id : {"b300", "gb200", "h20"}) {
        const auto g = *catalog().gpu(id);
        EXPECT_FALSE(g.sources.empty()) << id;
        EXPECT_GT(g.fp8Flops, g.bf16Flops) << id;
    }
}

TEST(RackScale, DeepSeekV3SimulatesAtTp64OnOneNvl72Domain) {
    auto c = simConfig("deepseek-v3", "gb200", "nvl72", 64, 8, 1);
    c.plan.model.layers = 5;  // 3 dense + 2 MoE layers: every block kind at a fraction of the events
    c.cluster.gpusPerNode = 72;
    auto r = core::sim::simulate(c);
    ASSERT_TRUE(r) << r.error().message;
    EXPECT_EQ(r->trace->ranks.size(), 64u);
    EXPECT_GT(r->stats.meanStepNs, 0);
}

TEST(RackScale, Tp72NeedsHeadsDivisibleBy72AndReplicatesFewerKvHeads) {
    core::PlanConfig p;
    p.model = *catalog().model("deepseek-v3");
    p.tp = 72;
    auto refused = core::buildDecodePlan(p);
    ASSERT_FALSE(refused);
    EXPECT_NE(refused.error().message.find("does not divide the 128 attention heads"), std::string::npos);

    auto c = simConfig("llama3-8b", "gb200", "nvl72", 72, 4, 1);
    c.plan.model.heads = 144;  // a hypothetical shape whose heads split 72 ways
    c.plan.model.headDim = 32;
    c.plan.model.ffn = std::int64_t{72} * 128;
    c.plan.model.layers = 2;
    c.cluster.gpusPerNode = 72;
    auto plan = core::buildDecodePlan(c.plan);
    ASSERT_TRUE(plan) << plan.error().message;
    EXPECT_TRUE(plan->shard.kvReplicated);  // 8 kv heads for 72 ranks: one replicated per rank
    EXPECT_EQ(plan->shard.kvHeadsPerRank, 1);
    auto r = core::sim::simulate(c);
    ASSERT_TRUE(r) << r.error().message;
    EXPECT_EQ(r->trace->ranks.size(), 72u);
}

}  // namespace
}  // namespace tpscope::test
