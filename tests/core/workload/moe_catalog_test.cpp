// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// The MoE / MLA catalog entries against their public configs (resources/models.json cites each
// config.json) and the parameter totals their publishers state.

#include <gtest/gtest.h>

#include "core/hw/catalog.h"

namespace tpscope::test {
namespace {

struct Expected {
    const char* id;
    std::int64_t hidden, layers, experts, topK, expertFfn, shared, dense;
    double totalParamsB;  // the publisher's stated total
    const char* totalSource;
};

// Values as in each model's config.json on the Hugging Face hub; totals from the model cards.
const Expected kModels[] = {
    {"gpt-oss-20b", 2880, 24, 32, 4, 2880, 0, 0, 20.9, "openai/gpt-oss-20b model card: 21B (20.9B) parameters"},
    {"gpt-oss-120b", 2880, 36, 128, 4, 2880, 0, 0, 116.8, "OpenAI gpt-oss model card: 116.8B total"},
    {"qwen3-30b-a3b", 2048, 48, 128, 8, 768, 0, 0, 30.5, "Qwen/Qwen3-30B-A3B model card: 30.5B"},
    {"qwen3-235b-a22b", 4096, 94, 128, 8, 1536, 0, 0, 235.0, "Qwen/Qwen3-235B-A22B model card: 235B"},
    {"mixtral-8x7b", 4096, 32, 8, 2, 14336, 0, 0, 46.7, "Mistral AI, Mixtral of experts: 46.7B total"},
    {"deepseek-v3", 7168, 61, 256, 8, 2048, 1, 3, 671.0, "deepseek-ai/DeepSeek-V3 README: 671B main model"},
    // 109B includes the vision encoder the text model here leaves out.
    {"llama4-scout", 5120, 48, 16, 1, 8192, 1, 0, 109.0, "meta-llama/Llama-4-Scout-17B-16E model card: 109B"},
};

TEST(MoeCatalog, EntriesCarryTheirConfigValues) {
    const auto catalog = core::Catalog::builtin();
    ASSERT_TRUE(catalog);
    for (const auto& e : kModels) {
        auto m = catalog->model(e.id);
        ASSERT_TRUE(m) << e.id;
        EXPECT_TRUE(m->isMoe()) << e.id;
        EXPECT_EQ(m->hidden, e.hidden) << e.id;
        EXPECT_EQ(m->layers, e.layers) << e.id;
        EXPECT_EQ(m->moe.experts, e.experts) << e.id;
        EXPECT_EQ(m->moe.topK, e.topK) << e.id;
        EXPECT_EQ(m->moe.expertFfn, e.expertFfn) << e.id;
        EXPECT_EQ(m->moe.sharedExperts, e.shared) << e.id;
        EXPECT_EQ(m->moe.denseLayers, e.dense) << e.id;
        EXPECT_FALSE(m->source.empty()) << e.id;
        // The dimensions add up to the published total (biases, MTP and vision parts left out).
        const double billions = static_cast<double>(m->parameterCount()) / 1e9;
        EXPECT_NEAR(billions, e.totalParamsB, 0.02 * e.totalParamsB) << e.id << ": " << e.totalSource;
    }
}

TEST(MoeCatalog, DeepSeekV3IsMlaAndGptOssExpertsAreMxfp4) {
    const auto catalog = core::Catalog::builtin();
    auto ds = catalog->model("deepseek-v3");
    ASSERT_TRUE(ds);
    EXPECT_TRUE(ds->isMla());
    EXPECT_EQ(ds->mla.qLoraRank, 1536);
    EXPECT_EQ(ds->mla.kvLoraRank, 512);
    EXPECT_EQ(ds->mla.qkNopeDim, 128);
    EXPECT_EQ(ds->mla.qkRopeDim, 64);
    EXPECT_EQ(ds->mla.vHeadDim, 128);
    EXPECT_EQ(ds->formats.experts, core::WeightFormat::Fp8);
    auto oss = catalog->model("gpt-oss-120b");
    ASSERT_TRUE(oss);
    EXPECT_EQ(oss->formats.experts, core::WeightFormat::Mxfp4);
    EXPECT_EQ(oss->formats.attention, core::WeightFormat::Bf16);
    EXPECT_EQ(oss->kindLabel(), "MoE 128x top-4 GQA");
    // Active parameters: the total less the (E - k) routed experts each MoE layer leaves idle.
    const std::int64_t expert = 3 * oss->hidden * oss->moe.expertFfn;
    EXPECT_EQ(oss->activeParameterCount(), oss->parameterCount() - 36 * (128 - 4) * expert);
}

TEST(MoeCatalog, BadMoeFieldsGetOneClearError) {
    core::Catalog c;
    auto s = c.addJson(R"({"models": [{"id": "bad-moe", "hidden": 64, "ffn": 128, "heads": 4, "kv_heads": 4,
        "layers": 2, "vocab": 100, "moe": {"experts": 4, "experts_per_token": 8, "expert_ffn": 32}}]})",
                       "test");
    ASSERT_FALSE(s);
    EXPECT_NE(s.error().message.find("exceeds the 4 experts"), std::string::npos) << s.error().message;
    s = c.addJson(R"({"models": [{"id": "bad-fmt", "hidden": 64, "ffn": 128, "heads": 4, "kv_heads": 4,
        "layers": 2, "vocab": 100, "weights": {"experts": "int3"}}]})",
                  "test");
    ASSERT_FALSE(s);
    EXPECT_NE(s.error().message.find("int3"), std::string::npos);
    s = c.addJson(R"({"models": [{"id": "bad-mla", "hidden": 64, "ffn": 128, "heads": 4, "kv_heads": 4,
        "layers": 2, "vocab": 100, "attention": "mla"}]})",
                  "test");
    ASSERT_FALSE(s);
    EXPECT_NE(s.error().message.find("'mla' object"), std::string::npos);
}

}  // namespace
}  // namespace tpscope::test
