// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// GEMM shapes from the launching CPU op's "Input Dims" (issue 27 §4): the kernel of an aten::mm,
// addmm, linear or matmul gets a GemmPayload {M, N, K, weight dtype}; batched operands give none.

#include <gtest/gtest.h>

#include <map>
#include <string>

#include "core/io/import/kineto_reader.h"
#include "core/io/import/trace_part.h"

namespace tpscope::test {
namespace {

std::string op(const std::string& name, int externalId, const std::string& dims, const std::string& types) {
    return R"({"ph": "X", "cat": "cpu_op", "name": ")" + name + R"(", "pid": 1, "tid": 1, "ts": )" +
           std::to_string(externalId * 10) + R"(, "dur": 5, "args": {"External id": )" + std::to_string(externalId) +
           R"(, "Input Dims": )" + dims + R"(, "Input type": )" + types + "}}";
}

std::string kernel(int externalId) {
    return R"({"ph": "X", "cat": "kernel", "name": "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n", "pid": 0, "tid": 7, "ts": )" +
           std::to_string(externalId * 10 + 2) + R"(, "dur": 3, "args": {"device": 0, "stream": 7, "correlation": )" +
           std::to_string(externalId + 100) + R"(, "External id": )" + std::to_string(externalId) + "}}";
}

std::vector<std::optional<core::GemmPayload>> shapes(const std::string& events) {
    auto part = core::readKinetoBuffer(R"({"traceEvents": [)" + events + "]}", "shapes.json",
                                       core::KernelClassifier::builtin());
    EXPECT_TRUE(part) << part.error().describe();
    std::vector<std::optional<core::GemmPayload>> out;
    if (!part) return out;
    for (const auto& e : part->devices.at(0).streams.at(0).events) {
        if (e.payload == core::kNoPayload) {
            out.emplace_back();
        } else {
            const core::Payload& p = part->payloads.get(e.payload);
            out.emplace_back(p.kind == core::PayloadKind::Gemm ? std::optional(p.gemm) : std::nullopt);
        }
    }
    return out;
}

TEST(KinetoGemmShapes, EachGemmOpLayoutGivesMNK) {
    const std::string bf = R"("c10::BFloat16")";
    const auto s =
        shapes(op("aten::mm", 1, "[[8944, 1024], [1024, 2816]]", "[" + bf + ", " + bf + "]") + "," + kernel(1) + "," +
               op("aten::addmm", 2, "[[1024], [8944, 1024], [1024, 1024], [], []]",
                  R"(["c10::BFloat16", "c10::BFloat16", "float", "Scalar", "Scalar"])") +
               "," + kernel(2) + "," +
               op("aten::linear", 3, "[[16, 559, 2816], [1024, 2816], []]", "[" + bf + ", " + bf + ", \"\"]") + "," +
               kernel(3) + "," + op("aten::matmul", 4, "[[4, 1, 2048], [2048, 151936]]", "[" + bf + ", " + bf + "]") +
               "," + kernel(4));
    ASSERT_EQ(s.size(), 4u);
    for (const auto& g : s) ASSERT_TRUE(g.has_value());
    EXPECT_EQ(*s[0], (core::GemmPayload{8944, 2816, 1024, core::Dtype::Bf16}));
    // addmm(bias, a, b): the bias is skipped; the weight's type ("float" here) is the dtype.
    EXPECT_EQ(*s[1], (core::GemmPayload{8944, 1024, 1024, core::Dtype::Fp32}));
    // linear(x[16, 559, 2816], w[1024, 2816]): M = 16 x 559, N from the weight's rows.
    EXPECT_EQ(*s[2], (core::GemmPayload{16 * 559, 1024, 2816, core::Dtype::Bf16}));
    EXPECT_EQ(*s[3], (core::GemmPayload{4, 151936, 2048, core::Dtype::Bf16}));
}

TEST(KinetoGemmShapes, BatchedOrMismatchedOperandsAndMissingDimsGiveNoShape) {
    const std::string t = R"(["c10::BFloat16", "c10::BFloat16"])";
    const auto s = shapes(op("aten::bmm", 1, "[[32, 1, 128], [32, 128, 559]]", t) + "," + kernel(1) + "," +
                          op("aten::mm", 2, "[[8, 1024], [512, 2816]]", t) + "," + kernel(2) + "," +
                          op("aten::mm", 3, "[[8, 1024], [1024, -1]]", t) + "," + kernel(3) + "," +
                          R"({"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": 40, "dur": 5,)"
                          R"( "args": {"External id": 4}},)" +
                          kernel(4));
    ASSERT_EQ(s.size(), 4u);
    for (const auto& g : s) EXPECT_FALSE(g.has_value());
}

// The first attention op with shapes names the heads (SDPA's q, k, v are [B, H, S, D]; flash's
// [B, S, H, D]); a GQA op gives fewer kv heads than query heads.
TEST(KinetoGemmShapes, AttentionOpsGiveHeadsKvHeadsAndHeadDim) {
    const auto metadataOf = [](const std::string& events) {
        auto part = core::readKinetoBuffer(R"({"traceEvents": [)" + events + "]}", "attn.json",
                                           core::KernelClassifier::builtin());
        EXPECT_TRUE(part) << part.error().describe();
        std::map<std::string, std::string> m;
        if (part) m.insert(part->metadata.begin(), part->metadata.end());
        return m;
    };
    const std::string t = R"(["c10::BFloat16", "c10::BFloat16", "c10::BFloat16"])";
    auto m = metadataOf(
        op("aten::_scaled_dot_product_flash_attention", 1,
           "[[16, 16, 559, 64], [16, 16, 559, 64], [16, 16, 559, 64], []]", t) +
        "," + op("aten::_flash_attention_forward", 2, "[[16, 559, 32, 128], [16, 559, 8, 128], [16, 559, 8, 128]]", t));
    EXPECT_EQ(m["attention_heads"], "16");  // the first op with shapes wins
    EXPECT_EQ(m["attention_kv_heads"], "16");
    EXPECT_EQ(m["attention_head_dim"], "64");
    m = metadataOf(op("aten::_flash_attention_forward", 2, "[[4, 1, 32, 128], [4, 900, 8, 128], [4, 900, 8, 128]]", t));
    EXPECT_EQ(m["attention_heads"], "32");
    EXPECT_EQ(m["attention_kv_heads"], "8");
    EXPECT_EQ(m["attention_head_dim"], "128");
    // Heads that do not divide (a layout this reader does not know) give nothing.
    m = metadataOf(op("aten::_flash_attention_forward", 3, "[[4, 1, 12, 128], [4, 900, 8, 128], [4, 900, 8, 128]]", t));
    EXPECT_EQ(m.count("attention_heads"), 0u);
}

}  // namespace
}  // namespace tpscope::test
