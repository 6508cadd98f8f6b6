// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// Runs the built tpscope-cli as a user would and checks its JSON against the formulas.

#include <gtest/gtest.h>
#include <simdjson.h>

#include <cstdint>
#include <string>
#include <vector>

#include "test_support.h"

namespace tpscope::test {
namespace {

simdjson::dom::element parseJson(simdjson::dom::parser& parser, const std::string& text,
                                 simdjson::padded_string& storage) {
    storage = simdjson::padded_string(text);
    simdjson::dom::element doc;
    EXPECT_EQ(parser.parse(storage).get(doc), simdjson::SUCCESS) << text.substr(0, 500);
    return doc;
}

TEST(CliPlan, JsonCarriesTheDocumentedFields) {
    const auto r = runCli("plan --model llama3-70b --tp 4 --batch 1 --dtype fp16 --json");
    ASSERT_EQ(r.exitCode, 0) << r.out;
    simdjson::dom::parser parser;
    simdjson::padded_string storage;
    const auto doc = parseJson(parser, r.out, storage);
    EXPECT_EQ(std::uint64_t(doc["allreduce_message_bytes"]), 8192u * 2);
    EXPECT_EQ(std::uint64_t(doc["allreduce_wire_bytes_per_gpu"]), 2u * 3 * 8192 * 2 / 4);
    EXPECT_EQ(std::int64_t(doc["allreduces_per_step"]), 161);
    EXPECT_GT(std::uint64_t(doc["wire_bytes_per_step_per_gpu"]), 160u * 24576);
    EXPECT_GT(std::uint64_t(doc["weight_bytes_per_gpu"]), 35'000'000'000u);
    EXPECT_GT(double(doc["flops_per_step_per_gpu"]), 3.5e10);
    EXPECT_EQ(simdjson::dom::array(doc["ops"]).size(), 1u + 1 + 80 * 10 + 3);
}

TEST(CliAmdahl, JsonGivesSpeedupsAndTheLimit) {
    const auto r = runCli("amdahl --serial 0.1 --gpu-counts 1,2,4,8 --json");
    ASSERT_EQ(r.exitCode, 0) << r.out;
    simdjson::dom::parser parser;
    simdjson::padded_string storage;
    const auto doc = parseJson(parser, r.out, storage);
    EXPECT_DOUBLE_EQ(double(doc["max_speedup"]), 10.0);
    for (auto p : simdjson::dom::array(doc["points"])) {
        const double n = static_cast<double>(std::int64_t(p["gpus"]));
        EXPECT_NEAR(double(p["speedup"]), 1.0 / (0.1 + 0.9 / n), 1e-12);
    }
}

TEST(CliCost, JsonGivesCostPerMillionTokensAndPremium) {
    const auto r = runCli("cost --price-per-gpu-hour 3 --throughput 1=50,2=92,4=170,8=300 --json");
    ASSERT_EQ(r.exitCode, 0) << r.out;
    simdjson::dom::parser parser;
    simdjson::padded_string storage;
    const auto doc = parseJson(parser, r.out, storage);
    for (auto row : simdjson::dom::array(doc["rows"])) {
        const double gpus = static_cast<double>(std::int64_t(row["gpus"]));
        const double tps = double(row["tokens_per_sec"]);
        EXPECT_NEAR(double(row["cost_per_million_tokens"]), gpus * 3 / (tps * 3600 / 1e6), 1e-9);
    }
}

TEST(CliBounds, JsonGivesPerCallAndPerStepTimes) {
    const auto r = runCli("bounds --model llama3-70b --tp 4 --batch 1 --fabric nvlink3 --json");
    ASSERT_EQ(r.exitCode, 0) << r.out;
    simdjson::dom::parser parser;
    simdjson::padded_string storage;
    const auto doc = parseJson(parser, r.out, storage);
    const double link = double(doc["link_bytes_per_sec"]);
    EXPECT_NEAR(double(doc["per_call_us"]), 24576.0 / link * 1e6, 1e-9);
    EXPECT_NEAR(double(doc["per_step_us"]), double(std::uint64_t(doc["wire_bytes_per_step_per_gpu"])) / link * 1e6,
                1e-6);
}

TEST(CliErrors, BadInputGivesOneClearMessageAndExitCodeTwo) {
    struct Case {
        const char* args;
        const char* fragment;
    };
    for (const Case& c : std::vector<Case>{{"plan --model llama9", "unknown model 'llama9'; known: llama2-7b"},
                                           {"plan --model llama3-70b --tp 3", "does not divide the 64 attention heads"},
                                           {"plan --model llama3-70b --batch 0", "batch must be a positive"},
                                           {"plan --model llama3-70b --dtype int4", "unknown dtype"},
                                           {"bounds --model llama3-70b --fabric warp", "unknown fabric 'warp'"},
                                           {"amdahl --serial 2", "between 0 and 1"},
                                           {"cost --price-per-gpu-hour 3 --throughput 1:50", "GPUS=TOKENS_PER_SEC"},
                                           {"plan --model custom --hidden 64", "must all be positive"}}) {
        const auto r = runCli(c.args);
        EXPECT_EQ(r.exitCode, 2) << c.args << "\n" << r.out;
        EXPECT_NE(r.out.find(c.fragment), std::string::npos) << c.args << "\n" << r.out;
    }
}

TEST(CliCatalog, ModelsAndHardwareListThePresets) {
    const auto models = runCli("models --json");
    ASSERT_EQ(models.exitCode, 0);
    EXPECT_NE(models.out.find("\"llama3-405b\""), std::string::npos);
    const auto hw = runCli("hardware");
    ASSERT_EQ(hw.exitCode, 0);
    EXPECT_NE(hw.out.find("ib-ndr"), std::string::npos);
    EXPECT_NE(hw.out.find("l40s"), std::string::npos);
}

TEST(CliPlan, CustomModelDimensionsAreAccepted) {
    const auto r = runCli(
        "plan --model custom --hidden 1024 --ffn 4096 --heads 16 --kv-heads 4 --layers 2 "
        "--vocab 1000 --tp 2 --json");
    ASSERT_EQ(r.exitCode, 0) << r.out;
    EXPECT_NE(r.out.find("\"head_dim\": 64"), std::string::npos);
}

}  // namespace
}  // namespace tpscope::test
