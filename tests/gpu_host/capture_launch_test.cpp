// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// The launch decisions of a capture that need no GPU: which GPUs a process drives, and that a TP 1
// capture makes no NCCL call. ncclGetUniqueId is replaced in this test binary by a counting spy
// (a definition in the executable takes precedence over libnccl's).

#include <gtest/gtest.h>
#include <nccl.h>

#include <atomic>
#include <cstring>

#include "gpu/allreduce_measure.h"
#include "gpu/capture.h"

namespace {
std::atomic<int> g_uniqueIdCalls{0};
}  // namespace

extern "C" ncclResult_t ncclGetUniqueId(ncclUniqueId* out) {
    ++g_uniqueIdCalls;
    std::memset(out->internal, 0x5a, NCCL_UNIQUE_ID_BYTES);
    return ncclSuccess;
}

namespace tpscope::gpu {
namespace {

TEST(CaptureLaunch, TpOneMakesNoNcclCallTpTwoAsksNcclForTheId) {
    CaptureOptions o;
    o.tp = 1;
    g_uniqueIdCalls = 0;
    auto id = makeLaunchId(o);
    ASSERT_TRUE(id.ok()) << id.error().describe();
    EXPECT_TRUE(id->empty());
    EXPECT_EQ(g_uniqueIdCalls.load(), 0);

    o.tp = 2;
    id = makeLaunchId(o);
    ASSERT_TRUE(id.ok()) << id.error().describe();
    EXPECT_EQ(g_uniqueIdCalls.load(), 1);
    ASSERT_EQ(id->size(), static_cast<std::size_t>(NCCL_UNIQUE_ID_BYTES));
    EXPECT_EQ((*id)[0], 0x5a);
}

TEST(CaptureLaunch, TheCpuTestNeverCallsNcclEither) {
    CaptureOptions o;
    o.cpuTest = true;
    o.tp = 2;
    g_uniqueIdCalls = 0;
    auto id = makeLaunchId(o);
    ASSERT_TRUE(id.ok());
    EXPECT_EQ(id->size(), static_cast<std::size_t>(NCCL_UNIQUE_ID_BYTES));
    EXPECT_EQ(g_uniqueIdCalls.load(), 0);
}

TEST(CaptureLaunch, OneProcessDrivesAllTpGpusFromZero) {
    auto local = assignLocalGpus(4, 1, 0, 0, 8);
    ASSERT_TRUE(local.ok());
    EXPECT_EQ(local->devices, (std::vector<int>{0, 1, 2, 3}));
    EXPECT_EQ(local->firstRank, 0);
}

TEST(CaptureLaunch, ProcessesSharingAHostTakeConsecutiveGpusByLocalRank) {
    auto local = assignLocalGpus(8, 2, 1, 1, 8);
    ASSERT_TRUE(local.ok());
    EXPECT_EQ(local->devices, (std::vector<int>{4, 5, 6, 7}));
    EXPECT_EQ(local->firstRank, 4);
}

TEST(CaptureLaunch, AProcessThatSeesOnlyItsOwnGpuUsesDeviceZero) {
    // srun --gpus-per-task=1: every process sees one GPU, numbered 0, whatever its local rank.
    auto local = assignLocalGpus(2, 2, 1, 1, 1);
    ASSERT_TRUE(local.ok()) << local.error().describe();
    EXPECT_EQ(local->devices, (std::vector<int>{0}));
    EXPECT_EQ(local->firstRank, 1);
}

TEST(CaptureLaunch, TooFewGpusOrAnUnevenSplitIsOneClearError) {
    auto few = assignLocalGpus(4, 2, 1, 1, 3);
    ASSERT_FALSE(few.ok());
    EXPECT_NE(few.error().message.find("needs 4 GPUs on this host"), std::string::npos) << few.error().message;
    auto uneven = assignLocalGpus(3, 2, 0, 0, 8);
    ASSERT_FALSE(uneven.ok());
    EXPECT_NE(uneven.error().message.find("not a multiple"), std::string::npos);
}

TEST(MeasuredAllReduceRow, MedianAndNcclTestsBandwidths) {
    // 1 MiB of fp32 on 4 GPUs, iterations of 10, 30 and 20 µs: median 20 µs.
    auto row = measuredRow(1 << 18, core::Dtype::Fp32, 4, {10.0, 30.0, 20.0});
    ASSERT_TRUE(row.ok());
    EXPECT_EQ(row->bytes, 1u << 20);
    EXPECT_DOUBLE_EQ(row->timeUs, 20.0);
    const double algbw = (1 << 20) / (20.0 * 1e-6) / 1e9;
    EXPECT_DOUBLE_EQ(row->algbwGBs, algbw);
    EXPECT_DOUBLE_EQ(row->busbwGBs, algbw * 2.0 * 3 / 4);
}

TEST(MeasuredAllReduceRow, OneGpuHasNoBusBandwidthAndAZeroTimeIsAnError) {
    auto one = measuredRow(256, core::Dtype::Fp16, 1, {2.0, 4.0});
    ASSERT_TRUE(one.ok());
    EXPECT_DOUBLE_EQ(one->timeUs, 3.0);
    EXPECT_DOUBLE_EQ(one->busbwGBs, 0.0);
    auto zero = measuredRow(256, core::Dtype::Fp16, 1, {0.0, 0.0, 0.0});
    ASSERT_FALSE(zero.ok());
    EXPECT_NE(zero.error().message.find("timed 0 us"), std::string::npos) << zero.error().message;
}

}  // namespace
}  // namespace tpscope::gpu
