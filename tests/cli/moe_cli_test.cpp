// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// MoE and MLA models through tpscope-cli: plan over several batches, plan-capacity's per-rank MoE
// columns, models --json's kinds and --model-file. Expected values from E (1 - (1 - k/E)^B).

#include <gtest/gtest.h>
#include <simdjson.h>

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string_view>

#include "test_support.h"

namespace tpscope::test {
namespace {

double touched(double e, double k, double b) {
    return e * (1.0 - std::pow(1.0 - k / e, b));
}

TEST(CliMoe, PlanGivesTouchedExpertsWeightBytesAndFitPerBatch) {
    const auto r = runCli("plan --model gpt-oss-120b --tp 8 --batch 1,64 --gpu h100-sxm --json");
    ASSERT_EQ(r.exitCode, 0) << r.out;
    simdjson::dom::parser parser;
    simdjson::dom::element root;
    ASSERT_EQ(parser.parse(r.out).get(root), simdjson::SUCCESS) << r.out;
    simdjson::dom::array plans;
    ASSERT_EQ(root["plans"].get_array().get(plans), simdjson::SUCCESS);
    ASSERT_EQ(plans.size(), 2u);
    std::uint64_t previous = 0;
    for (auto p : plans) {
        const auto batch = static_cast<double>(std::int64_t(p["batch"]));
        EXPECT_EQ(std::string_view(p["model"]["kind"]), "moe");
        EXPECT_NEAR(double(p["moe_step"]["touched_experts_per_layer"]), touched(128, 4, batch), 1e-9);
        EXPECT_EQ(std::int64_t(p["moe_step"]["half_experts_batch"]), 22);
        const std::uint64_t read = std::uint64_t(p["weight_bytes_read_per_step_per_gpu"]);
        EXPECT_GT(read, previous);
        previous = read;
        EXPECT_TRUE(bool(p["fit"]["fits"]));
        EXPECT_EQ(std::int64_t(p["layer_allreduces_per_step"]), 2 * 36);
    }
    const auto text = runCli("plan --model gpt-oss-120b --tp 8 --batch 1,64");
    ASSERT_EQ(text.exitCode, 0);
    EXPECT_NE(text.out.find("experts touched    4.0 of 128"), std::string::npos) << text.out;
    EXPECT_NE(text.out.find("experts touched    111.2 of 128"), std::string::npos) << text.out;
}

TEST(CliMoe, PlanCapacityListsTouchedExpertsWeightsAndMemoryPerRank) {
    const auto r =
        runCli("plan-capacity --model qwen3-30b-a3b --target-itl-ms 1000 --tp 1,2 --batch 1,64 --tokens 1 --json");
    ASSERT_EQ(r.exitCode, 0) << r.out;
    simdjson::dom::parser parser;
    simdjson::dom::element root;
    ASSERT_EQ(parser.parse(r.out).get(root), simdjson::SUCCESS) << r.out;
    simdjson::dom::array configs;
    ASSERT_EQ(root["configs"].get_array().get(configs), simdjson::SUCCESS);
    ASSERT_EQ(configs.size(), 4u);
    for (auto c : configs) {
        const auto batch = static_cast<double>(std::int64_t(c["batch"]));
        EXPECT_NEAR(double(c["touched_experts_per_rank"]), touched(128, 8, batch), 1e-9);
        EXPECT_GT(std::uint64_t(c["weight_bytes_read_per_step_per_gpu"]), 0u);
        EXPECT_LE(std::uint64_t(c["required_bytes_per_gpu"]), std::uint64_t(c["usable_bytes_per_gpu"]));
    }
}

TEST(CliMoe, ModelsJsonGivesEachModelsKindAndAttention) {
    const auto r = runCli("models --json");
    ASSERT_EQ(r.exitCode, 0);
    simdjson::dom::parser parser;
    simdjson::dom::element root;
    ASSERT_EQ(parser.parse(r.out).get(root), simdjson::SUCCESS);
    int moe = 0;
    for (auto m : root["models"].get_array()) {
        const std::string_view id = m["id"];
        const std::string_view kind = m["kind"];
        EXPECT_TRUE(kind == "dense" || kind == "moe") << id;
        moe += kind == "moe";
        EXPECT_EQ(std::string_view(m["attention"]), id == "deepseek-v3" ? "mla" : "gqa") << id;
    }
    EXPECT_EQ(moe, 7);
}

TEST(CliMoe, ModelFileTakesTheCatalogFields) {
    const auto path = (std::filesystem::temp_directory_path() / "tpscope_moe_model.json").string();
    {
        std::ofstream f(path);
        f << R"({"models": [{"id": "tiny-moe", "hidden": 256, "ffn": 512, "heads": 8, "kv_heads": 2, "layers": 4,
            "vocab": 1000, "moe": {"experts": 16, "experts_per_token": 2, "expert_ffn": 128, "shared_experts": 1},
            "weights": {"experts": "nvfp4"}}]})";
    }
    const auto r = runCli("plan --model-file " + path + " --model tiny-moe --tp 2 --batch 4 --json");
    std::filesystem::remove(path);
    ASSERT_EQ(r.exitCode, 0) << r.out;
    simdjson::dom::parser parser;
    simdjson::dom::element root;
    ASSERT_EQ(parser.parse(r.out).get(root), simdjson::SUCCESS) << r.out;
    EXPECT_EQ(std::string_view(root["model"]["weights"]["experts"]), "nvfp4");
    EXPECT_NEAR(double(root["moe_step"]["touched_experts_per_layer"]), touched(16, 2, 4), 1e-9);
    EXPECT_EQ(std::int64_t(root["moe_step"]["expert_ffn_per_rank"]), 64);
}

TEST(CliMoe, CaptureRefusesAMoeModelNamingTheClosestDenseOne) {
    const auto r = runCli("capture --model gpt-oss-120b --tp 8 --out /nonexistent-folder/x.json");
    EXPECT_NE(r.exitCode, 0);
    // A CLI built without the CUDA backend (a machine without the toolkit) stops at that, before the model.
    if (r.out.find("built without the CUDA backend") != std::string::npos) {
        GTEST_SKIP() << "this tpscope-cli has no CUDA backend: capture refuses before it reads the model";
    }
    // One line: what is refused, why, and the dense preset nearest its 5.7 B active parameters.
    EXPECT_NE(r.out.find("dense models only and gpt-oss-120b is MoE 128x top-4 GQA"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("closest dense preset by active parameters is llama2-7b"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("cudaGetDeviceCount"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace tpscope::test
