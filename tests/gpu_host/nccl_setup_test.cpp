// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// How NCCL is set up (nccl_setup.h), the watchdog that ends hung blocking calls, and the graph
// node tagging by set difference: all checked without a GPU.

#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <thread>

#include "gpu/graph_node_tags.h"
#include "gpu/hang_watchdog.h"
#include "gpu/nccl_setup.h"

namespace tpscope::gpu {
namespace {

using std::chrono::milliseconds;

TEST(NcclSetup, CommunicatorsAreBlocking) {
    const ncclConfig_t config = blockingCommConfig();
    EXPECT_EQ(config.blocking, 1);
    const ncclConfig_t defaults = NCCL_CONFIG_INITIALIZER;
    EXPECT_EQ(config.magic, defaults.magic);  // still a valid, versioned config
    EXPECT_EQ(config.version, defaults.version);
}

TEST(NcclSetup, NcclsOwnNvtxRangesAreSwitchedOffUnlessTheUserChose) {
    ::unsetenv("NCCL_NVTX_DISABLE");
    prepareNcclEnvironment();
    ASSERT_NE(std::getenv("NCCL_NVTX_DISABLE"), nullptr);
    EXPECT_STREQ(std::getenv("NCCL_NVTX_DISABLE"), "1");
    ::setenv("NCCL_NVTX_DISABLE", "0", 1);  // the decoder filters NCCL's domain anyway
    prepareNcclEnvironment();
    EXPECT_STREQ(std::getenv("NCCL_NVTX_DISABLE"), "0");
    ::setenv("NCCL_NVTX_DISABLE", "1", 1);
}

TEST(NcclSetup, PeersConnectInsideInitUnlessTheUserChose) {
    ::unsetenv("NCCL_RUNTIME_CONNECT");
    prepareNcclEnvironment();
    ASSERT_NE(std::getenv("NCCL_RUNTIME_CONNECT"), nullptr);
    EXPECT_STREQ(std::getenv("NCCL_RUNTIME_CONNECT"), "0");
    ::setenv("NCCL_RUNTIME_CONNECT", "1", 1);
    prepareNcclEnvironment();
    EXPECT_STREQ(std::getenv("NCCL_RUNTIME_CONNECT"), "1");
}

TEST(NcclSetup, HeadroomCoversNcclAndNvlsBuffersOnlyWhenThereIsACommunicator) {
    constexpr std::uint64_t MiB = 1 << 20;
    EXPECT_EQ(deviceHeadroomBytes(1), 256 * MiB);
    // NVLS: 32 channels x 2 x 4 MiB SIMPLE buffer per rank of the communicator.
    EXPECT_EQ(deviceHeadroomBytes(2), 256 * MiB + 768 * MiB + 2 * (32 * 2 * 4 * MiB));
    EXPECT_EQ(deviceHeadroomBytes(8), 256 * MiB + 768 * MiB + 8 * (32 * 2 * 4 * MiB));
    EXPECT_GT(deviceHeadroomBytes(8), 4 * 512 * MiB);  // the old fixed 512 MiB was far too little
}

TEST(HangWatchdog, ACallPastItsDeadlineReachesTheLastResortNamed) {
    std::atomic<int> aborts{0};
    std::atomic<bool> unblock{false};
    HangWatchdog dog("rank 1 (GPU 1)", milliseconds(30), [&](const std::string&) {
        ++aborts;
        unblock = true;  // stands in for the process ending
    });
    {
        const auto watch = dog.watch("ncclAllReduce");
        const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(5);
        while (!unblock && std::chrono::steady_clock::now() < until) std::this_thread::sleep_for(milliseconds(1));
    }
    EXPECT_GE(aborts.load(), 1);
    ASSERT_TRUE(dog.fired().has_value());
    EXPECT_NE(dog.fired()->find("rank 1 (GPU 1): ncclAllReduce did not finish within 30 ms"), std::string::npos)
        << *dog.fired();
}

TEST(HangWatchdog, CallsThatFinishInTimeAreNeverAborted) {
    std::atomic<int> aborts{0};
    HangWatchdog dog(
        "rank 0 (GPU 0)", milliseconds(200), [&](const std::string&) { ++aborts; }, nullptr, milliseconds(1));
    for (int i = 0; i < 20; ++i) {
        const auto watch = dog.watch("ncclAllReduce");
        std::this_thread::sleep_for(milliseconds(1));
    }
    std::this_thread::sleep_for(milliseconds(250));  // disarmed: the deadline passing changes nothing
    EXPECT_EQ(aborts.load(), 0);
    EXPECT_FALSE(dog.fired().has_value());
}

TEST(HangWatchdog, AnotherRanksFailureShortensTheDeadlineToTheGracePeriod) {
    std::atomic<bool> otherFailed{false};
    std::atomic<bool> unblock{false};
    const auto grace = milliseconds(40);
    HangWatchdog dog(
        "rank 0 (GPU 0)", std::chrono::minutes(2), [&](const std::string&) { unblock = true; }, &otherFailed,
        milliseconds(1), grace);
    const auto start = std::chrono::steady_clock::now();
    {
        const auto watch = dog.watch("ncclCommInitRankConfig");
        otherFailed = true;
        const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(5);
        while (!unblock && std::chrono::steady_clock::now() < until) std::this_thread::sleep_for(milliseconds(1));
    }
    EXPECT_GE(std::chrono::steady_clock::now() - start, grace);  // not at once: the call may still return
    ASSERT_TRUE(dog.fired().has_value());
    EXPECT_NE(dog.fired()->find("ncclCommInitRankConfig did not finish within 40 ms after another rank failed"),
              std::string::npos)
        << *dog.fired();
}

TEST(GraphNodeTags, NewNodesAreTheSetDifferenceWhateverTheListingOrder) {
    std::unordered_set<int> seen;
    EXPECT_EQ(takeNewNodes<int>({3, 1, 2}, seen), (std::vector<int>{3, 1, 2}));
    // The graph lists its nodes in another order after the next op added 7 and 5.
    const auto added = takeNewNodes<int>({5, 2, 3, 7, 1}, seen);
    EXPECT_EQ(added, (std::vector<int>{5, 7}));
    EXPECT_TRUE(takeNewNodes<int>({1, 7, 5, 3, 2}, seen).empty());
}

}  // namespace
}  // namespace tpscope::gpu
