// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// A MoE / MLA run's description survives the workspace's key/value spec: makeRunInfo writes the
// model's experts, latent dims and weight formats, readModelExtras reads them back.

#include <gtest/gtest.h>

#include "core/hw/catalog.h"
#include "core/io/workspace/run_info.h"

namespace tpscope::test {
namespace {

TEST(RunInfoMoe, ExpertsLatentAndFormatsRoundTrip) {
    core::PlanConfig plan;
    plan.model = *core::Catalog::builtin()->model("deepseek-v3");
    plan.model.moe.routingSkew = 0.75;
    plan.tp = 8;
    plan.moeParallel = core::MoeParallel::Expert;
    const auto info = core::makeRunInfo(plan, 4, "simulated", "h200-sxm", "nvlink4");
    core::ModelSpec back;  // the dense dimensions are read by the caller; only the extras here
    core::MoeParallel mode = core::MoeParallel::Tensor;
    core::readModelExtras(info, back, &mode);
    EXPECT_EQ(back.moe.experts, 256);
    EXPECT_EQ(back.moe.topK, 8);
    EXPECT_EQ(back.moe.expertFfn, 2048);
    EXPECT_EQ(back.moe.sharedExperts, 1);
    EXPECT_EQ(back.moe.denseLayers, 3);
    EXPECT_DOUBLE_EQ(back.moe.routingSkew, 0.75);
    EXPECT_TRUE(back.isMla());
    EXPECT_EQ(back.mla.kvLoraRank, 512);
    EXPECT_EQ(back.mla.qLoraRank, 1536);
    EXPECT_EQ(back.formats.experts, core::WeightFormat::Fp8);
    EXPECT_EQ(mode, core::MoeParallel::Expert);
}

TEST(RunInfoMoe, ADenseRunStaysDense) {
    core::PlanConfig plan;
    plan.model = *core::Catalog::builtin()->model("llama3-8b");
    const auto info = core::makeRunInfo(plan, 4, "simulated", "h100-sxm", "nvlink4");
    core::ModelSpec back;
    core::readModelExtras(info, back);
    EXPECT_FALSE(back.isMoe());
    EXPECT_FALSE(back.isMla());
    EXPECT_EQ(back.formats.attention, core::WeightFormat::Default);
}

}  // namespace
}  // namespace tpscope::test
