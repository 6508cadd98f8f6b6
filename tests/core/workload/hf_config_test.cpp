// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/workload/hf_config.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <tuple>

#include "core/hw/catalog.h"
#include "core/workload/decode_plan.h"

namespace tpscope::test {
namespace {

std::string fixture(const std::string& name) {
    return (std::filesystem::path(TPSCOPE_SOURCE_DIR) / "tests" / "data" / "hf_configs" / name).string();
}

std::string readText(const std::string& path) {
    std::ifstream in(path);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

const core::Catalog& catalog() {
    static const core::Catalog c = *core::Catalog::builtin();
    return c;
}

// Every dimension the plan reads, field by field (ids, names and sources differ by design).
void expectSameModel(const core::ModelSpec& a, const core::ModelSpec& b) {
    EXPECT_EQ(a.hidden, b.hidden);
    EXPECT_EQ(a.ffn, b.ffn);
    EXPECT_EQ(a.heads, b.heads);
    EXPECT_EQ(a.kvHeads, b.kvHeads);
    EXPECT_EQ(a.headDim, b.headDim);
    EXPECT_EQ(a.layers, b.layers);
    EXPECT_EQ(a.vocab, b.vocab);
    EXPECT_EQ(a.attention, b.attention);
    EXPECT_EQ(a.mla.qLoraRank, b.mla.qLoraRank);
    EXPECT_EQ(a.mla.kvLoraRank, b.mla.kvLoraRank);
    EXPECT_EQ(a.mla.qkNopeDim, b.mla.qkNopeDim);
    EXPECT_EQ(a.mla.qkRopeDim, b.mla.qkRopeDim);
    EXPECT_EQ(a.mla.vHeadDim, b.mla.vHeadDim);
    EXPECT_EQ(a.moe.experts, b.moe.experts);
    EXPECT_EQ(a.moe.topK, b.moe.topK);
    EXPECT_EQ(a.moe.sharedExperts, b.moe.sharedExperts);
    EXPECT_EQ(a.moe.expertFfn, b.moe.expertFfn);
    EXPECT_EQ(a.moe.denseLayers, b.moe.denseLayers);
    EXPECT_EQ(a.moe.routingSkew, b.moe.routingSkew);
    EXPECT_EQ(a.formats.attention, b.formats.attention);
    EXPECT_EQ(a.formats.mlp, b.formats.mlp);
    EXPECT_EQ(a.formats.experts, b.formats.experts);
}

// The same plan: every op with the same kind, shape, FLOPs and bytes.
void expectSamePlan(const core::ModelSpec& a, const core::ModelSpec& b, int tp) {
    auto pa = core::buildDecodePlan({a, tp, 8, 1024, core::Dtype::Bf16});
    auto pb = core::buildDecodePlan({b, tp, 8, 1024, core::Dtype::Bf16});
    ASSERT_TRUE(pa && pb);
    ASSERT_EQ(pa->ops.size(), pb->ops.size());
    for (std::size_t i = 0; i < pa->ops.size(); ++i) {
        const auto& x = pa->ops[i];
        const auto& y = pb->ops[i];
        EXPECT_EQ(x.kind, y.kind) << i;
        EXPECT_EQ(x.gemm.m, y.gemm.m) << i;
        EXPECT_EQ(x.gemm.n, y.gemm.n) << i;
        EXPECT_EQ(x.gemm.k, y.gemm.k) << i;
        EXPECT_EQ(x.flops, y.flops) << i;
        EXPECT_EQ(x.bytesRead, y.bytesRead) << i;
        EXPECT_EQ(x.bytesWritten, y.bytesWritten) << i;
    }
    EXPECT_EQ(pa->memory.weightBytesPerGpu, pb->memory.weightBytesPerGpu);
}

TEST(HfConfig, EachFamilyReadsIntoTheSamePlanAsItsPreset) {
    for (const auto& [file, preset, tp] :
         {std::tuple{"llama2-7b.json", "llama2-7b", 8}, std::tuple{"qwen2.5-72b.json", "qwen2-5-72b", 8},
          std::tuple{"mixtral-8x7b.json", "mixtral-8x7b", 8}, std::tuple{"deepseek-v3.json", "deepseek-v3", 8}}) {
        SCOPED_TRACE(file);
        auto read = core::loadHfConfig(fixture(file));
        ASSERT_TRUE(read) << read.error().describe();
        const auto expected = *catalog().model(preset);
        expectSameModel(*read, expected);
        expectSamePlan(*read, expected, tp);
        EXPECT_EQ(read->id, std::string("config:") + file);
    }
}

TEST(HfConfig, GptOssSlidingLayersBecomeTheAttentionPatternAndTheRestMatchesThePreset) {
    const std::string text = readText(fixture("gpt-oss-120b.json"));
    auto sliding = core::modelFromHfConfig(text, "gpt-oss-120b.json");
    ASSERT_TRUE(sliding) << sliding.error().describe();
    // The published config alternates sliding (128 tokens) and full attention, starting with sliding.
    EXPECT_EQ(sliding->slidingWindow, 128);
    ASSERT_EQ(static_cast<std::int64_t>(sliding->attentionPattern.size()), sliding->layers);
    for (std::int64_t layer = 0; layer < sliding->layers; ++layer) {
        EXPECT_EQ(sliding->layerAttention(layer),
                  layer % 2 == 0 ? core::LayerAttention::Sliding : core::LayerAttention::Full)
            << "layer " << layer;
    }
    // A layer kind the plan does not model is refused by name.
    std::string chunked = text;
    chunked.replace(chunked.find("\"full_attention\""), 16, "\"chunked_attention\"");
    auto refused = core::modelFromHfConfig(chunked, "gpt-oss-120b.json");
    ASSERT_FALSE(refused);
    EXPECT_NE(refused.error().message.find("chunked_attention"), std::string::npos) << refused.error().describe();
    // Without the sliding-window fields the config is the preset's model (the preset has full attention).
    std::string full = text;
    const auto cut = [&full](const std::string& key) {
        const auto at = full.find("\"" + key + "\"");
        ASSERT_NE(at, std::string::npos) << key;
        const auto end = full.find(key == "layer_types" ? "]," : ",", at);
        full.erase(at, end + (key == "layer_types" ? 2 : 1) - at);
    };
    cut("layer_types");
    cut("sliding_window");
    auto read = core::modelFromHfConfig(full, "gpt-oss-120b.json");
    ASSERT_TRUE(read) << read.error().describe();
    const auto expected = *catalog().model("gpt-oss-120b");
    expectSameModel(*read, expected);
    expectSamePlan(*read, expected, 8);
}

TEST(HfConfig, MissingFieldsAreNamedTogether) {
    std::string text = readText(fixture("llama2-7b.json"));
    for (const std::string key : {"\n  \"hidden_size\": 4096,", ",\n  \"vocab_size\": 32000"}) {
        ASSERT_NE(text.find(key), std::string::npos) << key;
        text.erase(text.find(key), key.size());
    }
    auto r = core::modelFromHfConfig(text, "config.json");
    ASSERT_FALSE(r);
    EXPECT_NE(r.error().message.find("hidden_size"), std::string::npos) << r.error().describe();
    EXPECT_NE(r.error().message.find("vocab_size"), std::string::npos) << r.error().describe();
    EXPECT_EQ(r.error().context, "config.json");
}

TEST(HfConfig, UnsupportedFamiliesQuantisationAndBadValuesAreOneErrorEach) {
    const std::string llama = readText(fixture("llama2-7b.json"));
    auto with = [&](const std::string& from, const std::string& to) {
        std::string t = llama;
        t.replace(t.find(from), from.size(), to);
        return core::modelFromHfConfig(t, "config.json");
    };
    auto family = with("\"model_type\": \"llama\"", "\"model_type\": \"gemma2\"");
    ASSERT_FALSE(family);
    EXPECT_NE(family.error().message.find("'gemma2' is not supported"), std::string::npos) << family.error().message;
    auto quant = with("\"use_cache\": true,", "\"quantization_config\": {\"quant_method\": \"awq\"},");
    ASSERT_FALSE(quant);
    EXPECT_NE(quant.error().message.find("awq"), std::string::npos) << quant.error().message;
    auto text = with("\"num_hidden_layers\": 32", "\"num_hidden_layers\": \"32\"");
    ASSERT_FALSE(text);
    EXPECT_NE(text.error().message.find("num_hidden_layers (not an integer)"), std::string::npos)
        << text.error().message;
    auto dtype = with("\"torch_dtype\": \"float16\"", "\"torch_dtype\": \"int4\"");
    ASSERT_FALSE(dtype);
    EXPECT_NE(dtype.error().message.find("torch_dtype"), std::string::npos);
    auto heads = with("\"num_key_value_heads\": 32", "\"num_key_value_heads\": 5");
    ASSERT_FALSE(heads);  // 32 heads are not a multiple of 5 kv heads: validateModel says so
    EXPECT_FALSE(core::modelFromHfConfig("[1, 2]", "config.json"));
    EXPECT_FALSE(core::loadHfConfig(fixture("no-such-config.json")));
}

TEST(HfConfig, DefaultsFollowTransformers) {
    // No num_key_value_heads: multi-head attention; no head_dim: hidden / heads; a Mistral v0.3-style
    // null sliding_window is full attention.
    const std::string text = R"({"model_type": "mistral", "hidden_size": 4096, "intermediate_size": 14336,
        "num_attention_heads": 32, "num_hidden_layers": 32, "vocab_size": 32768, "sliding_window": null,
        "tie_word_embeddings": true})";
    auto r = core::modelFromHfConfig(text, "config.json");
    ASSERT_TRUE(r) << r.error().describe();
    EXPECT_EQ(r->kvHeads, 32);
    EXPECT_EQ(r->headDim, 128);
    EXPECT_NE(r->source.find("tied embeddings"), std::string::npos);
    std::string v01 = text;
    v01.replace(v01.find("null"), 4, "4096");
    // Mistral v0.1: a bare sliding_window slides on every layer.
    auto sliding = core::modelFromHfConfig(v01, "config.json");
    ASSERT_TRUE(sliding) << sliding.error().describe();
    EXPECT_EQ(sliding->slidingWindow, 4096);
    EXPECT_EQ(sliding->layerAttention(0), core::LayerAttention::Sliding);
    EXPECT_EQ(sliding->layerAttention(31), core::LayerAttention::Sliding);
}

}  // namespace
}  // namespace tpscope::test
