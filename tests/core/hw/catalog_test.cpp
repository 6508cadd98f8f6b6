// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/hw/catalog.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>

#include "core/hw/memory_fit.h"

namespace tpscope::core {
namespace {

TEST(Catalog, BuiltinHasEveryRequiredPresetId) {
    const auto c = Catalog::builtin();
    ASSERT_TRUE(c.ok()) << c.error().describe();
    for (const char* id : {"llama2-7b", "llama2-13b", "llama2-70b", "llama3-8b", "llama3-70b", "llama3-405b"}) {
        EXPECT_TRUE(c->model(id).ok()) << id;
    }
    for (const char* id :
         {"a100-sxm", "a100-sxm-40gb", "a100-pcie", "h100-sxm", "h100-pcie", "h200-sxm", "b200", "l40s"}) {
        EXPECT_TRUE(c->gpu(id).ok()) << id;
    }
    for (const char* id : {"nvlink3", "nvlink4", "nvlink5", "nvls", "pcie4", "pcie5", "ib-hdr", "ib-ndr"}) {
        EXPECT_TRUE(c->fabric(id).ok()) << id;
    }
}

TEST(Catalog, EveryGpuAndFabricValueHasASource) {
    const auto c = Catalog::builtin();
    for (const auto& g : c->gpus()) {
        for (const char* field : {"memory_bytes", "hbm_bytes_per_sec", "fp16_flops", "sms"}) {
            EXPECT_TRUE(g.sources.count(field)) << g.id << " lacks a source for " << field;
        }
    }
    for (const auto& f : c->fabrics()) {
        for (const char* field : {"link_bytes_per_sec", "busbw_bytes_per_sec", "hop_latency_ns", "base_latency_ns"}) {
            EXPECT_TRUE(f.sources.count(field)) << f.id << " lacks a source for " << field;
        }
    }
}

TEST(Catalog, PresetParameterCountsMatchTheModelNames) {
    const auto c = Catalog::builtin();
    EXPECT_NEAR(static_cast<double>(c->model("llama3-70b")->parameterCount()) / 1e9, 70.6, 0.1);
    EXPECT_NEAR(static_cast<double>(c->model("llama3-8b")->parameterCount()) / 1e9, 8.03, 0.02);
    EXPECT_NEAR(static_cast<double>(c->model("llama2-7b")->parameterCount()) / 1e9, 6.74, 0.02);
    EXPECT_NEAR(static_cast<double>(c->model("llama3-405b")->parameterCount()) / 1e9, 405.8, 0.5);
}

TEST(Catalog, UnknownIdListsTheKnownOnes) {
    const auto c = Catalog::builtin();
    const auto m = c->model("llama4-400b");
    ASSERT_FALSE(m.ok());
    EXPECT_EQ(m.error().code, ErrorCode::NotFound);
    EXPECT_NE(m.error().message.find("llama3-70b"), std::string::npos);
    EXPECT_NE(c->gpu("h300").error().message.find("h200-sxm"), std::string::npos);
    EXPECT_NE(c->fabric("nvlink9").error().message.find("ib-ndr"), std::string::npos);
}

TEST(Catalog, UserFileAddsAndOverridesEntries) {
    auto c = Catalog::builtin();
    const auto status = c->addJson(R"({"gpus": [
        {"id": "h100-sxm", "memory_bytes": 1e9, "hbm_bytes_per_sec": 1e12, "fp16_flops": 1e14},
        {"id": "my-gpu", "memory_bytes": 2e9, "hbm_bytes_per_sec": 2e12, "fp16_flops": 2e14}]})",
                                   "user.json");
    ASSERT_TRUE(status.ok()) << status.error().describe();
    EXPECT_EQ(c->gpu("h100-sxm")->memoryBytes, 1'000'000'000u);
    EXPECT_DOUBLE_EQ(c->gpu("my-gpu")->bf16Flops, 2e14) << "bf16 defaults to the fp16 peak";
}

TEST(Catalog, BadUserFilesAreRejectedAndLeaveTheCatalogUnchanged) {
    auto c = Catalog::builtin();
    const std::size_t before = c->gpus().size();
    struct Case {
        const char* json;
        const char* fragment;
    };
    for (
        const Case& k : std::vector<Case>{
            {"{not json", "not valid JSON"},
            {"[1,2]", "expected a JSON object"},
            {R"({"hello": 1})", "not a tpscope catalog"},
            {R"({"gpus": [{"id": "Bad Id", "memory_bytes": 1, "hbm_bytes_per_sec": 1, "fp16_flops": 1}]})",
             "kebab-case"},
            {R"({"gpus": [{"id": "ok-1", "memory_bytes": 1, "hbm_bytes_per_sec": 1, "fp16_flops": 1},
                           {"id": "x", "memory_bytes": -1, "hbm_bytes_per_sec": 1, "fp16_flops": 1}]})",
             "must be > 0"},
            {R"({"models": [{"id": "m", "hidden": 48, "ffn": 128, "heads": 6, "kv_heads": 4, "layers": 2, "vocab": 10}]})",
             "multiple of kv_heads"},
            {R"({"models": [{"id": "m", "hidden": 64, "ffn": 128, "heads": 6, "kv_heads": 6, "layers": 2, "vocab": 10}]})",
             "no 'head_dim' given"},
            {R"({"fabrics": [{"id": "f", "link_bytes_per_sec": 1, "busbw_bytes_per_sec": 1, "hop_latency_ns": 1,
                               "base_latency_ns": 1, "scope": "galactic"}]})",
             "scope"},
            {R"({"fabrics": [{"id": "f", "link_bytes_per_sec": 1}]})", "busbw_bytes_per_sec"}}) {
        const auto s = c->addJson(k.json, "user.json");
        ASSERT_FALSE(s.ok()) << k.json;
        EXPECT_NE(s.error().describe().find(k.fragment), std::string::npos) << k.json << " -> " << s.error().describe();
        EXPECT_NE(s.error().describe().find("user.json"), std::string::npos);
    }
    EXPECT_EQ(c->gpus().size(), before);
    EXPECT_FALSE(c->gpu("ok-1").ok()) << "a file with one bad entry adds nothing";
}

TEST(Catalog, LoadReadsFilesNamedOnTheCommandLine) {
    const std::string path = ::testing::TempDir() + "/tpscope_catalog_test.json";
    std::ofstream(path) << R"({"models": [{"id": "tiny", "hidden": 64, "ffn": 128, "heads": 4, "kv_heads": 2,
                                           "layers": 2, "vocab": 100}]})";
    const auto c = Catalog::load({path});
    ASSERT_TRUE(c.ok()) << c.error().describe();
    EXPECT_EQ(c->model("tiny")->headDim, 16) << "head_dim defaults to hidden / heads";
    EXPECT_FALSE(Catalog::load({path + ".missing"}).ok());
    std::remove(path.c_str());
}

TEST(MemoryFit, Llama70bNeedsTwoH100sAndTheShortfallIsExact) {
    const auto c = Catalog::builtin();
    const GpuSpec h100 = *c->gpu("h100-sxm");
    const ModelSpec m = *c->model("llama3-70b");
    const auto p1 = buildDecodePlan(PlanConfig{m, 1, 1, 1024, Dtype::Fp16});
    const auto fit1 = checkFit(p1->memory, h100);
    EXPECT_FALSE(fit1.fits);
    const auto usable = static_cast<std::uint64_t>(static_cast<double>(h100.memoryBytes) * 0.9);
    EXPECT_EQ(fit1.shortfallBytes, p1->memory.totalBytesPerGpu() - usable);
    EXPECT_NE(fit1.describe(h100.name).find("short by"), std::string::npos);
    EXPECT_EQ(minimumTpThatFits(PlanConfig{m, 1, 1, 1024, Dtype::Fp16}, h100, {1, 2, 4, 8}), 2);
    EXPECT_EQ(minimumTpThatFits(PlanConfig{m, 1, 1, 1024, Dtype::Fp16}, *c->gpu("l40s"), {1, 2, 4, 8}), 4);
}

TEST(GpuSpec, RooflineCrossoverIsPeakOverBandwidth) {
    const auto c = Catalog::builtin();
    const GpuSpec a100 = *c->gpu("a100-sxm");
    // Seed article: 312 TFLOPS / 2 TB/s = 156; with the datasheet's 2.039 TB/s it is 153.
    EXPECT_DOUBLE_EQ(a100.rooflineCrossover(Dtype::Fp16), 312e12 / 2.039e12);
    EXPECT_EQ(a100.peakFlops(Dtype::Fp8), 0.0) << "Ampere has no FP8 tensor cores";
}

}  // namespace
}  // namespace tpscope::core
