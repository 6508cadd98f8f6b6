// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// The model behind a trace that does not name it (issue 27 §4, issue 32 §3): simulated traces of catalog
// models, exported as Chrome JSON with the model's name stripped from their metadata and read back,
// are recognised as the model simulated; a model outside the catalog comes back as a custom model with
// its own dimensions; the public Qwen1.5-0.5B trace gives that model's dimensions; a trace without GEMM
// shapes says so instead of guessing.

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "core/analysis/analysis.h"
#include "core/analysis/model_inference.h"
#include "core/io/export/chrome_writer.h"
#include "core/io/import/kineto_reader.h"
#include "core/io/import/trace_part.h"
#include "core/io/import/trace_reader.h"
#include "sim_test_support.h"
#include "support/moe_kineto_fixture.h"
#include "test_support.h"

namespace tpscope::test {
namespace {

namespace fs = std::filesystem;
using core::analysis::inferModel;
using core::analysis::ModelInference;

// Simulates the model, strips "model" from the metadata, writes Chrome JSON, reads it back.
std::shared_ptr<core::Trace> unnamedRoundTrip(const core::ModelSpec& model, int tp, int batch) {
    auto config = simConfig("llama3-8b", "h100-sxm", "nvlink4", tp, batch, 2);
    config.plan.model = model;
    config.params = core::sim::SimParams::deterministic();
    auto r = core::sim::simulate(config);
    EXPECT_TRUE(r) << r.error().describe();
    if (!r) return nullptr;
    core::Trace stripped = *r->trace;
    std::erase_if(stripped.metadata, [](const auto& kv) { return kv.first == "model"; });
    const fs::path dir = fs::temp_directory_path() / ("tpscope-infer-" + std::to_string(::getpid()));
    fs::create_directories(dir);
    const std::string path = (dir / (model.id + "-tp" + std::to_string(tp) + ".json")).string();
    EXPECT_TRUE(core::writeChromeJson(stripped, path));
    auto back = core::readTrace(path);
    fs::remove_all(dir);
    EXPECT_TRUE(back) << back.error().describe();
    if (!back) return nullptr;
    EXPECT_EQ((*back)->metadataValue("model"), "");
    return *back;
}

ModelInference infer(const core::Trace& trace) {
    const auto analysis = core::analysis::analyzeTrace(trace);
    return inferModel(trace, catalog().models(), &analysis.segmentation);
}

struct Case {
    const char* model;
    int tp;
    int batch;
};

class UnnamedSimulatedTrace : public ::testing::TestWithParam<Case> {};

TEST_P(UnnamedSimulatedTrace, IsRecognisedAsTheSimulatedCatalogModel) {
    const Case c = GetParam();
    const core::ModelSpec model = *catalog().model(c.model);
    const auto trace = unnamedRoundTrip(model, c.tp, c.batch);
    ASSERT_TRUE(trace);
    const ModelInference inf = infer(*trace);
    ASSERT_TRUE(inf.model.has_value()) << inf.evidence;
    EXPECT_TRUE(inf.fromCatalog) << inf.evidence;
    EXPECT_EQ(inf.model->id, model.id) << inf.evidence;
    // The dimensions behind the choice are the model's own.
    EXPECT_EQ(inf.dims.tp, c.tp);
    EXPECT_EQ(inf.dims.hidden, model.hidden);
    EXPECT_EQ(inf.dims.layers, model.layers);
    EXPECT_EQ(inf.dims.qWidth, model.heads * model.headDim);
    EXPECT_EQ(inf.dims.moe, model.isMoe());
    if (model.isMoe()) {
        EXPECT_EQ(inf.dims.experts, model.moe.experts);
        EXPECT_EQ(inf.dims.topK, model.moe.topK);
        EXPECT_EQ(inf.dims.expertFfn, model.moe.expertFfn);
        EXPECT_NE(inf.evidence.find("MoE from expert GEMM kernels"), std::string::npos) << inf.evidence;
    } else {
        EXPECT_EQ(inf.dims.ffn, model.ffn);
        EXPECT_EQ(inf.dims.kvWidth, model.kvHeads * model.headDim);
    }
    EXPECT_NE(inf.evidence.find("hidden " + std::to_string(model.hidden)), std::string::npos) << inf.evidence;
    EXPECT_NE(inf.evidence.find(std::to_string(model.layers) + " layers"), std::string::npos) << inf.evidence;
}

INSTANTIATE_TEST_SUITE_P(Catalog, UnnamedSimulatedTrace,
                         ::testing::Values(Case{"llama3-8b", 1, 1}, Case{"llama3-8b", 2, 8}, Case{"llama3-70b", 4, 4},
                                           Case{"qwen3-30b-a3b", 2, 8}, Case{"gpt-oss-20b", 1, 1}),
                         [](const auto& param) {
                             std::string n = std::string(param.param.model) + "_tp" + std::to_string(param.param.tp);
                             std::replace(n.begin(), n.end(), '-', '_');
                             return n;
                         });

// Split-KV decode attention (tpscope's own runner, FlashAttention's split-KV kernels) launches a split
// kernel and a combine kernel per attention op: without a segmentation the layers are counted from
// attention ops (runs of attention kernels), not kernels, which counted twice the layers.
TEST(ModelInference, SplitKvAttentionCountsOneOpPerLayerNotTwoKernels) {
    auto config = simConfig("llama3-8b", "h100-sxm", "nvlink4", 1, 1, 1);  // one step
    config.params = core::sim::SimParams::deterministic();
    auto r = core::sim::simulate(config);
    ASSERT_TRUE(r) << r.error().describe();
    core::Trace split = *r->trace;
    std::erase_if(split.metadata, [](const auto& kv) { return kv.first == "model"; });
    const core::NameId combine = split.intern("decode_attention_combine_kernel<__half>");
    std::size_t attention = 0;
    for (core::Rank& rank : split.ranks) {
        for (core::Stream& stream : rank.streams) {
            core::EventColumns events;
            for (std::size_t i = 0; i < stream.events.size(); ++i) {
                core::EventRecord e = stream.events.at(i);
                if (e.kind != core::EventKind::Attention) {
                    events.append(e);
                    continue;
                }
                ++attention;
                core::EventRecord second = e;  // the first half splits, the second combines
                e.durNs /= 2;
                second.startNs = e.endNs();
                second.durNs -= e.durNs;
                second.name = combine;
                events.append(e);
                events.append(second);
            }
            events.finalize();
            stream.events = std::move(events);
        }
    }
    ASSERT_GT(attention, 0u);
    const ModelInference inf = inferModel(split, catalog().models(), nullptr);
    EXPECT_EQ(inf.dims.layers, catalog().model("llama3-8b")->layers) << inf.evidence;
    EXPECT_NE(inf.evidence.find("attention ops per step"), std::string::npos) << inf.evidence;
}

TEST(ModelInference, GptOssTellsItsMxfp4ExpertsFromTheKernelNames) {
    const auto trace = unnamedRoundTrip(*catalog().model("gpt-oss-20b"), 1, 4);
    ASSERT_TRUE(trace);
    const ModelInference inf = infer(*trace);
    EXPECT_EQ(inf.dims.expertFormat, core::WeightFormat::Mxfp4) << inf.evidence;
    EXPECT_NE(inf.evidence.find("experts mxfp4 (kernel name)"), std::string::npos) << inf.evidence;
}

// A dense model outside the catalog: a custom model with the simulated dimensions.
TEST(ModelInference, ADenseModelOutsideTheCatalogBecomesACustomModel) {
    core::ModelSpec m = *catalog().model("llama3-8b");
    m.id = "not-in-catalog";
    m.hidden = 3072;
    m.ffn = 8192;
    m.heads = 24;
    m.kvHeads = 8;
    m.layers = 6;
    m.vocab = 100352;
    const auto trace = unnamedRoundTrip(m, 2, 2);
    ASSERT_TRUE(trace);
    const ModelInference inf = infer(*trace);
    ASSERT_TRUE(inf.model.has_value()) << inf.evidence;
    EXPECT_FALSE(inf.fromCatalog);
    EXPECT_NE(inf.evidence.find("no catalog model has these dimensions"), std::string::npos) << inf.evidence;
    EXPECT_EQ(inf.model->hidden, m.hidden);
    EXPECT_EQ(inf.model->ffn, m.ffn);
    EXPECT_EQ(inf.model->layers, m.layers);
    EXPECT_EQ(inf.model->heads * inf.model->headDim, m.heads * m.headDim);
    EXPECT_EQ(inf.model->kvHeads * inf.model->headDim, m.kvHeads * m.headDim);
    EXPECT_EQ(inf.model->vocab, m.vocab);
    EXPECT_FALSE(inf.model->isMoe());
}

TEST(ModelInference, TheMetadataNameDecidesWhenItIsACatalogModel) {
    auto config = simConfig("llama3-8b", "h100-sxm", "nvlink4", 1, 1, 2);
    config.plan.model = smallModel();  // 4 layers: the shapes alone would not say llama3-8b
    config.plan.model.id = "llama3-8b";
    auto r = core::sim::simulate(config);
    ASSERT_TRUE(r) << r.error().describe();
    const ModelInference inf = infer(*r->trace);
    ASSERT_TRUE(inf.model.has_value());
    EXPECT_EQ(inf.model->id, "llama3-8b");
    EXPECT_EQ(inf.evidence, "the trace's metadata names llama3-8b");
}

TEST(ModelInference, ATraceWithoutGemmShapesSaysSoInsteadOfGuessing) {
    // A Kineto trace whose GEMM kernels have no launching op with shapes (recorded without record_shapes).
    std::string events;
    for (int i = 0; i < 8; ++i) {
        events +=
            std::string(i > 0 ? "," : "") +
            R"({"ph": "X", "cat": "kernel", "name": "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n", "pid": 0, "tid": 7, "ts": )" +
            std::to_string(10 * i) + R"(, "dur": 5, "args": {"device": 0, "stream": 7}})";
    }
    auto part =
        core::readKinetoBuffer(R"({"traceEvents": [)" + events + "]}", "plain.json", core::KernelClassifier::builtin());
    ASSERT_TRUE(part) << part.error().describe();
    std::vector<core::TracePart> parts;
    parts.push_back(std::move(*part));
    auto trace = core::mergeParts(std::move(parts), nullptr);
    ASSERT_TRUE(trace) << trace.error().describe();
    ASSERT_EQ((*trace)->eventCount(), 8u);
    const ModelInference inf = infer(**trace);
    EXPECT_FALSE(inf.model.has_value());
    EXPECT_NE(inf.evidence.find("no GEMM shapes in this trace"), std::string::npos) << inf.evidence;
}

// A PyTorch trace of gpt-oss-20b with shapes on its aten::mm ops only and MXFP4 matmul_ogs expert
// kernels (tests/support/moe_kineto_fixture.h): the MoE model, told from gpt-oss-120b by its 24 layers
// and 32 experts.
TEST(ModelInference, KinetoTraceWithMatmulOgsExpertsOffersGptOss20b) {
    const fs::path dir = fs::temp_directory_path() / ("tpscope-infer-kineto-" + std::to_string(::getpid()));
    fs::create_directories(dir);
    const fs::path path = dir / "gpt_oss_decode.json";
    { std::ofstream(path) << gptOss20bKinetoJson(); }
    auto trace = core::readTrace(path.string());
    fs::remove_all(dir);
    ASSERT_TRUE(trace) << trace.error().describe();
    const ModelInference inf = infer(**trace);
    ASSERT_TRUE(inf.model.has_value()) << inf.evidence;
    EXPECT_TRUE(inf.fromCatalog);
    EXPECT_EQ(inf.model->id, "gpt-oss-20b") << inf.evidence;
    EXPECT_TRUE(inf.dims.moe);
    EXPECT_EQ(inf.dims.hidden, 2880);
    EXPECT_EQ(inf.dims.layers, 24) << inf.evidence;
    EXPECT_EQ(inf.dims.experts, 32);
    EXPECT_EQ(inf.dims.vocab, 201088);
    EXPECT_EQ(inf.dims.expertFormat, core::WeightFormat::Mxfp4);
    EXPECT_NE(inf.evidence.find("_matmul_ogs_"), std::string::npos) << inf.evidence;
}

// Qwen1.5-0.5B-Chat's config.json ("_name_or_path": "Qwen/Qwen1.5-0.5B-Chat"), read from the copy at
// huggingface.co/Xenova/Qwen1.5-0.5B-Chat/blob/59d179b9a48f44cddd73760e2f65ef56b827d94b/config.json (the
// Qwen organisation's own page was not reachable from here): hidden_size 1024, intermediate_size 2816,
// num_hidden_layers 24, num_attention_heads 16, num_key_value_heads 16 (head dim 1024 / 16 = 64). The trace is a
// prefill of the HF model (separate q/k/v and gate/up projections, no LM head GEMM in the profiled window); the catalog
// does not hold it.
TEST(ModelInference, PublicQwenTraceGivesQwen15HalfBDimensions) {
    const char* file = "tracelens-h100-qwen/Qwen_Qwen1.5-0.5B-Chat__1016005.json.gz";
    TPSCOPE_REQUIRE_PUBLIC(file);
    auto trace = core::readTrace((publicTraces() / file).string());
    ASSERT_TRUE(trace) << trace.error().describe();
    const ModelInference inf = infer(**trace);
    EXPECT_EQ(inf.dims.hidden, 1024) << inf.evidence;
    EXPECT_EQ(inf.dims.layers, 24) << inf.evidence;
    EXPECT_EQ(inf.dims.ffn, 2816) << inf.evidence;
    EXPECT_EQ(inf.dims.heads, 16) << inf.evidence;
    EXPECT_EQ(inf.dims.kvHeads, 16) << inf.evidence;
    EXPECT_EQ(inf.dims.headDim, 64) << inf.evidence;
    EXPECT_EQ(inf.dims.qWidth, 16 * 64) << inf.evidence;
    EXPECT_EQ(inf.dims.kvWidth, 16 * 64) << inf.evidence;
    EXPECT_FALSE(inf.dims.moe);
    ASSERT_TRUE(inf.model.has_value()) << inf.evidence;
    EXPECT_FALSE(inf.fromCatalog);
    EXPECT_EQ(inf.model->heads, 16);
    EXPECT_EQ(inf.model->headDim, 64);
    EXPECT_NE(inf.evidence.find("vocabulary 32000 assumed"), std::string::npos) << inf.evidence;
}

}  // namespace
}  // namespace tpscope::test
