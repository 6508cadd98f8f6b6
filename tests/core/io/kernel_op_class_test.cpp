// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// Kernel classes from the launching CPU op (issue 27 §3): a kernel's "External id" names the innermost
// op around its launch, and a cpu_op rule on that op wins over the name, except for collective names.
// Inline Kineto fixtures; the public traces' "other" share is checked in public_kernel_classes_test.

#include <gtest/gtest.h>

#include <string>

#include "core/io/import/kineto_reader.h"
#include "core/io/import/trace_part.h"

namespace tpscope::test {
namespace {

std::string op(const std::string& name, int externalId, int ts) {
    return R"({"ph": "X", "cat": "cpu_op", "name": ")" + name + R"(", "pid": 1, "tid": 1, "ts": )" +
           std::to_string(ts) + R"(, "dur": 5, "args": {"External id": )" + std::to_string(externalId) + "}}";
}

std::string kernel(const std::string& name, int externalId, int ts) {
    return R"({"ph": "X", "cat": "kernel", "name": ")" + name + R"(", "pid": 0, "tid": 7, "ts": )" +
           std::to_string(ts) + R"(, "dur": 3, "args": {"device": 0, "stream": 7, "correlation": )" +
           std::to_string(externalId + 100) + R"(, "External id": )" + std::to_string(externalId) + "}}";
}

struct Read {
    core::TracePart part;
    std::vector<core::EventKind> kinds;
};

Read read(const std::string& events, const core::KernelClassifier& classifier = core::KernelClassifier::builtin()) {
    auto part = core::readKinetoBuffer(R"({"traceEvents": [)" + events + "]}", "op.json", classifier);
    EXPECT_TRUE(part) << part.error().describe();
    Read r;
    if (!part) return r;
    r.part = std::move(*part);
    for (const auto& e : r.part.devices.at(0).streams.at(0).events) r.kinds.push_back(e.kind);
    return r;
}

// Names no built-in rule knows, so that only the op can class them.
constexpr const char* kUnknownA = "my_vendor_kernel_a";
constexpr const char* kUnknownB = "my_vendor_kernel_b";

TEST(KernelOpClass, GemmAndAttentionOpsClassTheirKernelsWhateverTheName) {
    ASSERT_EQ(core::KernelClassifier::builtin().classify(kUnknownA).kind, core::EventKind::Other);
    const auto r =
        read(op("aten::mm", 1, 10) + "," + op("aten::_flash_attention_forward", 2, 20) + "," + op("aten::mul", 3, 30) +
             "," + kernel(kUnknownA, 1, 40) + "," + kernel(kUnknownB, 2, 50) + "," + kernel(kUnknownA, 3, 60));
    ASSERT_EQ(r.kinds.size(), 3u);
    EXPECT_EQ(r.kinds[0], core::EventKind::Gemm);
    EXPECT_EQ(r.kinds[1], core::EventKind::Attention);
    EXPECT_EQ(r.kinds[2], core::EventKind::Other);  // aten::mul gives no class: the name decides
    EXPECT_EQ(r.part.stats.kernelsClassedByOp, 2u);
}

TEST(KernelOpClass, OpWinsOverTheNameButNotOverACollectiveName) {
    // An elementwise-named kernel inside aten::addmm belongs to the GEMM; an NCCL kernel stays a collective.
    const auto r =
        read(op("aten::addmm", 1, 10) + "," + kernel("void at::native::vectorized_elementwise_kernel<4>", 1, 20) + "," +
             kernel("ncclDevKernel_AllReduce_Sum_f16_RING_LL", 1, 30));
    ASSERT_EQ(r.kinds.size(), 2u);
    EXPECT_EQ(r.kinds[0], core::EventKind::Gemm);
    EXPECT_EQ(r.kinds[1], core::EventKind::Collective);
    EXPECT_EQ(r.part.stats.kernelsClassedByOp, 1u);
}

TEST(KernelOpClass, CollectiveOpMakesAnUnknownKernelACollective) {
    const auto r = read(op("vllm::all_reduce", 4, 10) + "," + kernel(kUnknownA, 4, 20));
    ASSERT_EQ(r.kinds.size(), 1u);
    EXPECT_EQ(r.kinds[0], core::EventKind::Collective);
    const auto& e = r.part.devices.at(0).streams.at(0).events.at(0);
    EXPECT_EQ(r.part.payloads.get(e.payload).kind, core::PayloadKind::Collective);
}

TEST(KernelOpClass, KernelsBeforeTheirOpAreClassedAtTheEnd) {
    const auto r = read(kernel(kUnknownA, 1, 40) + "," + kernel(kUnknownB, 2, 50) + "," + op("aten::bmm", 1, 10) + "," +
                        op("aten::copy_", 2, 20));
    ASSERT_EQ(r.kinds.size(), 2u);
    EXPECT_EQ(r.kinds[0], core::EventKind::Gemm);
    EXPECT_EQ(r.kinds[1], core::EventKind::Other);
}

TEST(KernelOpClass, UserCpuOpRulesExtendTheBuiltInOnes) {
    core::KernelClassifier c = core::KernelClassifier::builtin();
    const std::size_t before = c.cpuOpRuleCount();
    ASSERT_TRUE(c.addRulesJson(
        R"({"rules": [], "cpu_op_rules": [{"kind": "attention", "prefix": ["myengine::attn"]}]})", "user rules"));
    EXPECT_EQ(c.cpuOpRuleCount(), before + 1);
    EXPECT_EQ(c.classifyCpuOp("myengine::attn_decode"), core::EventKind::Attention);
    const auto r = read(op("myengine::attn_decode", 1, 10) + "," + kernel(kUnknownA, 1, 20), c);
    ASSERT_EQ(r.kinds.size(), 1u);
    EXPECT_EQ(r.kinds[0], core::EventKind::Attention);
    // The built-in classifier does not know the op: the name decides.
    EXPECT_EQ(core::KernelClassifier::builtin().classifyCpuOp("myengine::attn_decode"), std::nullopt);
}

TEST(KernelOpClass, CpuOpRulesMustBeAnArrayOfValidRules) {
    core::KernelClassifier c;
    const auto notArray = c.addRulesJson(R"({"rules": [], "cpu_op_rules": {}})", "user rules");
    ASSERT_FALSE(notArray);
    EXPECT_NE(notArray.error().message.find("cpu_op_rules"), std::string::npos);
    EXPECT_FALSE(c.addRulesJson(R"({"rules": [], "cpu_op_rules": [{"kind": "gemm"}]})", "user rules"));
    EXPECT_FALSE(c.addRulesJson(R"({"rules": [], "cpu_op_rules": [{"kind": "teapot", "prefix": ["x"]}]})", "u"));
}

}  // namespace
}  // namespace tpscope::test
