// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// Message size, op and count of every collective in `analyze --calls --json`, for each launcher
// kind: hand-written Kineto fixtures (tests/data/kineto_launchers, written from the public trace
// format, not copied from a real trace). Expected sizes are the fixture's element counts times the
// dtype's size, computed here.

#include <gtest/gtest.h>
#include <simdjson.h>

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "test_support.h"

namespace tpscope::test {
namespace {

struct Call {
    std::string op;
    std::uint64_t bytes = 0;
    std::string kernel;
};

std::string fixture(const std::string& name) {
    return (std::filesystem::path(TPSCOPE_SOURCE_DIR) / "tests" / "data" / "kineto_launchers" / name).string();
}

std::vector<Call> callsOf(const std::string& name) {
    const auto r = runCli("analyze " + fixture(name) + " --calls --json 2>/dev/null");
    EXPECT_EQ(r.exitCode, 0) << r.out;
    std::vector<Call> out;
    simdjson::dom::parser parser;
    simdjson::dom::element root;
    if (parser.parse(r.out).get(root) != simdjson::SUCCESS) {
        ADD_FAILURE() << "not JSON: " << r.out;
        return out;
    }
    for (auto c : root["calls"].get_array()) {
        Call call;
        call.op = std::string(c["op"].get_string().value());
        call.bytes = c["bytes"].get_uint64().value();
        call.kernel = std::string(c["kernel"].get_string().value());
        out.push_back(call);
    }
    return out;
}

constexpr std::uint64_t kBf16 = 2, kFp16 = 2, kFp32 = 4;

TEST(LauncherSizes, VllmCustomAllReduceTakesTheSizeOfTheLaunchingOp) {
    const auto calls = callsOf("vllm_custom_ar.json");
    ASSERT_EQ(calls.size(), 2u);
    EXPECT_EQ(calls[0].op, "all_reduce");
    // Through the kernel's External id: _C_custom_ar::all_reduce's first tensor, [4, 4096] bf16.
    EXPECT_EQ(calls[0].bytes, 4u * 4096u * kBf16);
    // No External id on the kernel: through its correlation to the launch, then the launch's op.
    EXPECT_EQ(calls[1].op, "all_reduce");
    EXPECT_EQ(calls[1].bytes, 64u * 4096u * kBf16);
    EXPECT_NE(calls[1].kernel.find("cross_device_reduce_2stage"), std::string::npos);
}

TEST(LauncherSizes, SymmetricMemoryAllReduce) {
    const auto calls = callsOf("symm_mem.json");
    ASSERT_EQ(calls.size(), 2u);
    for (const auto& c : calls) {
        EXPECT_EQ(c.op, "all_reduce");
        EXPECT_EQ(c.bytes, 8u * 8192u * kFp32);
    }
}

TEST(LauncherSizes, TensorRtLlmAllReduce) {
    const auto calls = callsOf("trtllm.json");
    ASSERT_EQ(calls.size(), 1u);
    EXPECT_EQ(calls[0].op, "all_reduce");
    EXPECT_EQ(calls[0].bytes, 2u * 5120u * kFp16);
}

TEST(LauncherSizes, OldNcclKernelTakesTheSizeOfItsNcclAnnotation) {
    const auto calls = callsOf("nccl_annotation.json");
    ASSERT_EQ(calls.size(), 1u);
    EXPECT_EQ(calls[0].op, "all_reduce");
    EXPECT_EQ(calls[0].bytes, 1024u * kFp32);
}

TEST(LauncherSizes, NcclKernelArgsGiveInMsgForAllReduceAndOutMsgForAllGather) {
    const auto calls = callsOf("nccl_record_param_comms.json");
    ASSERT_EQ(calls.size(), 3u);
    EXPECT_EQ(calls[0].op, "all_reduce");
    EXPECT_EQ(calls[0].bytes, 4096u * kFp32);
    EXPECT_EQ(calls[1].op, "all_gather");
    EXPECT_EQ(calls[1].bytes, 8192u * kBf16);  // nccl-tests size of an all-gather: the gathered output
    EXPECT_EQ(calls[2].op, "reduce_scatter");
    EXPECT_EQ(calls[2].bytes, 8192u * kBf16);  // and of a reduce-scatter: its input
}

TEST(LauncherSizes, CollectiveSizesSummaryCountsCallsPerOpAndSize) {
    const auto r = runCli("analyze " + fixture("vllm_custom_ar.json") + " --calls --json 2>/dev/null");
    simdjson::dom::parser parser;
    simdjson::dom::element root;
    ASSERT_EQ(parser.parse(r.out).get(root), simdjson::SUCCESS) << r.out;
    std::size_t total = 0;
    for (auto s : root["collective_sizes"].get_array()) {
        EXPECT_EQ(s["calls"].get_uint64().value(), 1u);
        total += s["calls"].get_uint64().value();
    }
    EXPECT_EQ(total, 2u);
}

}  // namespace
}  // namespace tpscope::test
