// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// The measured all-reduce sweep on the local GPUs (needs a CUDA device).

#include <algorithm>

#include "gpu/allreduce_measure.h"
#include "gpu_test_support.h"

namespace tpscope::gpu {
namespace {

TEST(MeasuredAllReduce, RowsFollowNcclTestsBandwidthDefinitions) {
    TPSCOPE_REQUIRE_CUDA_DEVICE(1);
    const int gpus = std::min<int>(2, static_cast<int>(listDevices()->size()));
    MeasuredAllReduceOptions o;
    o.gpus = gpus;
    o.sizesBytes = {8, 1 << 20, 10};  // 10 bytes of fp32 round down to 2 elements
    o.iterations = 5;
    auto rows = runMeasuredAllReduce(o);
    ASSERT_TRUE(rows.ok()) << rows.error().describe();
    ASSERT_EQ(rows->size(), 3u);
    EXPECT_EQ((*rows)[1].count, (1u << 20) / 4);
    EXPECT_EQ((*rows)[2].bytes, 8u);
    for (const auto& r : *rows) {
        EXPECT_GT(r.timeUs, 0);
        EXPECT_NEAR(r.algbwGBs, static_cast<double>(r.bytes) / (r.timeUs * 1e3), 1e-9 * r.algbwGBs + 1e-12);
        EXPECT_NEAR(r.busbwGBs, r.algbwGBs * 2.0 * (gpus - 1) / gpus, 1e-9 * r.algbwGBs + 1e-12);
    }
}

TEST(MeasuredAllReduce, OneGpuCopiesOutOfPlaceSoItsTimeIsRealAndBusbwZero) {
    TPSCOPE_REQUIRE_CUDA_DEVICE(1);
    MeasuredAllReduceOptions o;
    o.gpus = 1;
    o.sizesBytes = {1 << 20};
    o.iterations = 5;
    auto rows = runMeasuredAllReduce(o);
    ASSERT_TRUE(rows.ok()) << rows.error().describe();
    ASSERT_EQ(rows->size(), 1u);
    EXPECT_GT((*rows)[0].timeUs, 0.0);
    EXPECT_GT((*rows)[0].algbwGBs, 0.0);
    EXPECT_EQ((*rows)[0].busbwGBs, 0.0);
}

TEST(MeasuredAllReduce, MoreGpusThanPresentIsOneClearError) {
    TPSCOPE_REQUIRE_CUDA_DEVICE(1);
    MeasuredAllReduceOptions o;
    o.gpus = 64;
    o.sizesBytes = {8};
    auto rows = runMeasuredAllReduce(o);
    ASSERT_FALSE(rows.ok());
    EXPECT_NE(rows.error().message.find("64 GPUs requested"), std::string::npos);
}

}  // namespace
}  // namespace tpscope::gpu
