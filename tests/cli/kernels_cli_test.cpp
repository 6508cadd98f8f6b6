// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// tpscope-cli kernels (issue 44 §2) and --model-config (§5), run as a user would.

#include <gtest/gtest.h>
#include <simdjson.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <string_view>

#include "core/hw/catalog.h"
#include "core/sim/kernel_model.h"
#include "test_support.h"

namespace tpscope::test {
namespace {

std::string fixture(const std::string& name) {
    return (std::filesystem::path(TPSCOPE_SOURCE_DIR) / "tests" / "data" / "hf_configs" / name).string();
}

TEST(CliKernels, JsonRowsAreTheSimulatorsTimesWithTheirBandwidthAndSource) {
    const auto r = runCli("kernels --model llama2-7b --gpu a100-sxm --tp 8 --batch 1 --json");
    ASSERT_EQ(r.exitCode, 0) << r.out;
    simdjson::dom::parser parser;
    simdjson::dom::element root;
    ASSERT_EQ(parser.parse(r.out).get(root), simdjson::SUCCESS) << r.out;
    EXPECT_FALSE(bool(root["derived"]));
    EXPECT_EQ(std::string_view(root["op_time_model"]), "a100-sxm fit (Vidur, measured)");
    const auto catalog = *core::Catalog::builtin();
    const auto gpu = *catalog.gpu("a100-sxm");
    auto plan = core::buildDecodePlan({*catalog.model("llama2-7b"), 8, 1, 1024, core::Dtype::Fp16});
    ASSERT_TRUE(plan);
    std::map<std::string, double> expected;  // layer 0 and the epilogue, by op name
    for (const auto& op : plan->ops) {
        if (op.isCollective() || !(op.layer == 0 || op.block == core::OpBlock::Epilogue)) continue;
        expected[std::string(core::toString(op.kind))] =
            core::sim::kernelCost(op, gpu, core::Dtype::Fp16, core::sim::SimParams{}).timeNs();
    }
    double layer = 0;
    std::size_t rows = 0;
    bool lmHead = false;
    for (simdjson::dom::element op : root["ops"].get_array()) {
        ++rows;
        const std::string name{std::string_view(op["op"])};
        const double t = double(op["time_ns"]);
        EXPECT_DOUBLE_EQ(t, expected.at(name)) << name;
        const double bytes = double(op["bytes_read"]) + double(op["bytes_written"]);
        EXPECT_NEAR(double(op["bandwidth_fraction"]), bytes / (t * 1e-9) / gpu.hbmBytesPerSec, 1e-9) << name;
        const std::string source{std::string_view(op["timed_by"])};
        if (name == "qkv_proj" || name == "lm_head") {
            EXPECT_NE(source.find("gemm"), std::string::npos) << source;
        }
        if (name == "attention") {
            EXPECT_EQ(source, "roofline");
        }
        if (int64_t(op["layer"]) == 0) layer += t;
        lmHead = lmHead || name == "lm_head";
    }
    EXPECT_EQ(rows, expected.size());
    EXPECT_TRUE(lmHead);
    EXPECT_NEAR(double(root["layer_time_ns"]), layer, 1e-6 * layer);
}

TEST(CliKernels, DerivedGpusSaySoAndRooflineSwitchesTheFitOff) {
    const auto b200 = runCli("kernels --model llama3-70b --gpu b200 --tp 8");
    ASSERT_EQ(b200.exitCode, 0) << b200.out;
    EXPECT_NE(b200.out.find("derived from the h100-sxm fit"), std::string::npos) << b200.out;
    EXPECT_NE(b200.out.find("not measured"), std::string::npos) << b200.out;
    const auto roofline = runCli("kernels --model llama3-70b --gpu h100-sxm --tp 8 --roofline --json");
    ASSERT_EQ(roofline.exitCode, 0) << roofline.out;
    EXPECT_EQ(roofline.out.find("fit (Vidur"), std::string::npos) << roofline.out;
    const auto sim = runCli("simulate --model llama3-8b --gpu h200-sxm --fabric nvlink4 --tp 2 --tokens 1");
    ASSERT_EQ(sim.exitCode, 0) << sim.out;
    EXPECT_NE(sim.out.find("kernel times on h200-sxm: derived"), std::string::npos) << sim.out;
    const auto bad = runCli("kernels --model llama3-70b --gpu h100-sxm --tp 8 --layer 80");
    EXPECT_EQ(bad.exitCode, 2) << bad.out;
    EXPECT_NE(bad.out.find("80 layers"), std::string::npos) << bad.out;
}

TEST(CliModelConfig, AConfigJsonPlansLikeItsPresetAndReplacesModel) {
    const auto preset = runCli("plan --model mixtral-8x7b --tp 8 --batch 4 --json");
    const auto config = runCli("plan --model-config " + fixture("mixtral-8x7b.json") + " --tp 8 --batch 4 --json");
    ASSERT_EQ(preset.exitCode, 0) << preset.out;
    ASSERT_EQ(config.exitCode, 0) << config.out;
    // Everything after the model object (shard, bytes, ops) is the same.
    const auto tail = [](const std::string& s) { return s.substr(s.find("\"tp\"")); };
    EXPECT_EQ(tail(preset.out), tail(config.out));
    const auto both = runCli("plan --model llama2-7b --model-config " + fixture("llama2-7b.json"));
    EXPECT_EQ(both.exitCode, 2) << both.out;
    const auto none = runCli("simulate --tokens 4");
    EXPECT_EQ(none.exitCode, 2) << none.out;
    EXPECT_NE(none.out.find("simulate: --model is required"), std::string::npos) << none.out;
    const auto gptOss = runCli("plan --model-config " + fixture("gpt-oss-120b.json") + " --tp 8");
    EXPECT_EQ(gptOss.exitCode, 0) << gptOss.out;  // its sliding layers are the attention pattern
}

// gpt-oss alternates sliding (window 128) and full layers: the plan's KV cache, which capture's HBM
// floor reads (docs/cli.md), holds a sliding layer's window only. Every number from the config file.
TEST(CliModelConfig, ASlidingLayersKvCacheIsItsWindowInThePlan) {
    simdjson::dom::parser parser;
    simdjson::dom::element config;
    ASSERT_EQ(parser.load(fixture("gpt-oss-120b.json")).get(config), simdjson::SUCCESS);
    const std::int64_t window = std::int64_t(config["sliding_window"]);
    const std::int64_t kvHeads = std::int64_t(config["num_key_value_heads"]);
    const std::int64_t headDim = std::int64_t(config["head_dim"]);
    const int tp = 4;
    const int batch = 2;
    const std::int64_t context = 8192;
    std::int64_t tokens = 0;
    for (auto kind : config["layer_types"].get_array()) {
        tokens += std::string_view(kind) == "sliding_attention" ? std::min(context, window) : context;
    }
    const auto r = runCli("plan --model-config " + fixture("gpt-oss-120b.json") + " --tp " + std::to_string(tp) +
                          " --batch " + std::to_string(batch) + " --context " + std::to_string(context) + " --json");
    ASSERT_EQ(r.exitCode, 0) << r.out;
    simdjson::dom::parser planParser;
    simdjson::dom::element plan;
    ASSERT_EQ(planParser.parse(r.out).get(plan), simdjson::SUCCESS) << r.out;
    const std::int64_t fp16 = 2;  // --dtype's default, the KV cache's too
    EXPECT_EQ(std::int64_t(plan["kv_cache_bytes_per_gpu"]), tokens * 2 * (kvHeads / tp) * headDim * batch * fp16);
    EXPECT_LT(std::int64_t(plan["kv_cache_bytes_per_gpu"]),
              std::int64_t(config["num_hidden_layers"]) * context * 2 * (kvHeads / tp) * headDim * batch * fp16);
}

}  // namespace
}  // namespace tpscope::test
