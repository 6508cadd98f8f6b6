// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// Each serving engine's all-reduce dispatch follows its source's rule (cited at each test), and
// falls back to NCCL, with a reason, where the engine cannot run its kernels.

#include <gtest/gtest.h>

#include "core/sim/allreduce_engine.h"
#include "sim_test_support.h"

namespace tpscope::test {
namespace {

using core::CollectiveAlgo;
using core::sim::AllReduceEngine;
using core::sim::CollectiveModel;
using core::sim::engineAllReduce;

constexpr std::uint64_t kKiB = 1024;
constexpr std::uint64_t kMiB = 1024 * kKiB;

CollectiveModel on(const char* fabric, int gpus) {
    return *CollectiveModel::create(*catalog().fabric(fabric), std::nullopt, gpus, gpus);
}

CollectiveAlgo algo(const CollectiveModel& m, std::uint64_t bytes, AllReduceEngine e) {
    return engineAllReduce(m, bytes, e).estimate.algo;
}

TEST(AllReduceEngine, NamesRoundTrip) {
    for (auto e : core::sim::allReduceEngines()) EXPECT_EQ(core::sim::parseAllReduceEngine(core::sim::toString(e)), e);
    EXPECT_FALSE(core::sim::parseAllReduceEngine("mpi"));
}

TEST(AllReduceEngine, NcclIsTheModelsTunerChoice) {
    const auto m = on("nvlink4", 8);
    for (std::uint64_t b : {8 * kKiB, 1 * kMiB, 256 * kMiB}) {
        const auto c = engineAllReduce(m, b, AllReduceEngine::Nccl);
        EXPECT_EQ(c.estimate.algo, m.allReduce(b).algo);
        EXPECT_DOUBLE_EQ(c.estimate.timeNs(), m.allReduce(b).timeNs());
        EXPECT_TRUE(c.fallback.empty());
    }
}

// vLLM csrc/custom_all_reduce.cuh REDUCE_CASE: world size 2 -> 1-stage always; full NVLink:
// (ws <= 4 && bytes < 512 KiB) || (ws <= 8 && bytes < 256 KiB) -> 1-stage, else 2-stage.
// custom_all_reduce.py: world sizes 2, 4, 6, 8; max_size 8 MiB (inp_size < max_size).
TEST(AllReduceEngine, VllmCustomArFollowsVllmsSizeRule) {
    const auto e = AllReduceEngine::VllmCustomAr;
    EXPECT_EQ(algo(on("nvlink4", 2), 4 * kMiB, e), CollectiveAlgo::OneShot);
    const auto four = on("nvlink4", 4);
    EXPECT_EQ(algo(four, 512 * kKiB - 1, e), CollectiveAlgo::OneShot);
    EXPECT_EQ(algo(four, 512 * kKiB, e), CollectiveAlgo::TwoShot);
    const auto eight = on("nvlink4", 8);
    EXPECT_EQ(algo(eight, 256 * kKiB - 1, e), CollectiveAlgo::OneShot);
    EXPECT_EQ(algo(eight, 256 * kKiB, e), CollectiveAlgo::TwoShot);
    EXPECT_EQ(algo(eight, 8 * kMiB - 1, e), CollectiveAlgo::TwoShot);
    const auto big = engineAllReduce(eight, 8 * kMiB, e);
    EXPECT_EQ(big.estimate.algo, eight.allReduce(8 * kMiB).algo);
    EXPECT_NE(big.fallback.find("8 MiB"), std::string::npos) << big.fallback;
    const auto three = engineAllReduce(on("nvlink4", 3), 16 * kKiB, e);
    EXPECT_EQ(three.estimate.algo, CollectiveAlgo::Ring);
    EXPECT_NE(three.fallback.find("2, 4, 6 or 8"), std::string::npos) << three.fallback;
}

// Without GPU peer-to-peer (the PCIe presets go through the CPU) vLLM disables custom all-reduce
// (custom_all_reduce.py: "not supported on more than two PCIe-only GPUs", and P2P is checked for
// two) and TensorRT-LLM falls back to NCCL ("Since Peer to Peer not supported, fallback to NCCL").
TEST(AllReduceEngine, CustomKernelsFallBackToNcclWithoutPeerToPeer) {
    for (auto e : {AllReduceEngine::VllmCustomAr, AllReduceEngine::TrtLlm}) {
        const auto m = on("pcie5", 2);
        const auto c = engineAllReduce(m, 16 * kKiB, e);
        EXPECT_EQ(c.estimate.algo, CollectiveAlgo::Ring);
        EXPECT_DOUBLE_EQ(c.estimate.timeNs(), m.allReduce(16 * kKiB).timeNs());
        EXPECT_NE(c.fallback.find("peer-to-peer"), std::string::npos) << c.fallback;
    }
}

// TensorRT-LLM allreducePlugin.cpp selectImplementation (AUTO): NCCL above the workspace
// (customAllReduceUtils.h: 16 MB at <= 2 GPUs, else 8 MB); <= 2 GPUs one-shot; <= 4 GPUs one-shot
// below 1 MB (decimal) else two-shot; more GPUs one-shot below 500 kB else two-shot.
TEST(AllReduceEngine, TrtllmFollowsItsAutoStrategy) {
    const auto e = AllReduceEngine::TrtLlm;
    const auto two = on("nvlink4", 2);
    EXPECT_EQ(algo(two, 16'000'000, e), CollectiveAlgo::OneShot);
    EXPECT_FALSE(engineAllReduce(two, 16'000'001, e).fallback.empty());
    const auto four = on("nvlink4", 4);
    EXPECT_EQ(algo(four, 999'999, e), CollectiveAlgo::OneShot);
    EXPECT_EQ(algo(four, 1'000'000, e), CollectiveAlgo::TwoShot);
    const auto eight = on("nvlink4", 8);
    EXPECT_EQ(algo(eight, 499'999, e), CollectiveAlgo::OneShot);
    EXPECT_EQ(algo(eight, 500'000, e), CollectiveAlgo::TwoShot);
    EXPECT_EQ(algo(eight, 8'000'000, e), CollectiveAlgo::TwoShot);
    // Above the workspace NCCL runs it, with NCCL's own choice (NVLS on a fabric that has it).
    const auto nvls = on("nvls", 8);
    const auto big = engineAllReduce(nvls, 64 * kMiB, e);
    EXPECT_EQ(big.estimate.algo, CollectiveAlgo::Nvls);
    EXPECT_NE(big.fallback.find("workspace"), std::string::npos);
}

// vLLM symm_mem.py SymmMemCommunicator: multimem (NVLS) at 4, 6, 8 GPUs on SM 9.0, two-shot
// otherwise; disabled without a multicast address; all_reduce_utils.py
// SYMM_MEM_ALL_REDUCE_MAX_SIZES["9.0"]: 32 MiB at 4 GPUs, 64 MiB at 2, 6 and 8.
TEST(AllReduceEngine, SymmMemUsesMultimemWhereTheSwitchHasIt) {
    const auto e = AllReduceEngine::SymmMem;
    EXPECT_EQ(algo(on("nvls", 8), 1 * kMiB, e), CollectiveAlgo::Nvls);
    EXPECT_EQ(algo(on("nvls", 4), 32 * kMiB - 1, e), CollectiveAlgo::Nvls);
    EXPECT_FALSE(engineAllReduce(on("nvls", 4), 32 * kMiB, e).fallback.empty());
    EXPECT_EQ(algo(on("nvls", 2), 1 * kMiB, e), CollectiveAlgo::TwoShot);
    const auto noMulticast = engineAllReduce(on("nvlink4", 8), 1 * kMiB, e);
    EXPECT_NE(noMulticast.fallback.find("multicast"), std::string::npos) << noMulticast.fallback;
}

TEST(AllReduceEngine, CollectiveTimeNsIsThePublicEntryPoint) {
    const auto f = *catalog().fabric("nvlink4");
    auto t = core::sim::collectiveTimeNs(f, 8, core::CollectiveOp::AllReduce, 16 * kKiB, AllReduceEngine::VllmCustomAr);
    ASSERT_TRUE(t);
    EXPECT_DOUBLE_EQ(*t, engineAllReduce(on("nvlink4", 8), 16 * kKiB, AllReduceEngine::VllmCustomAr).estimate.timeNs());
    auto g = core::sim::collectiveTimeNs(f, 8, core::CollectiveOp::AllGather, 4 * kKiB);
    ASSERT_TRUE(g);
    EXPECT_DOUBLE_EQ(*g, on("nvlink4", 8).allGather(4 * kKiB).timeNs());
    EXPECT_FALSE(core::sim::collectiveTimeNs(f, 16, core::CollectiveOp::AllReduce, 8));  // above max_gpus
    EXPECT_FALSE(core::sim::collectiveTimeNs(f, 8, core::CollectiveOp::Broadcast, 8));
}

}  // namespace
}  // namespace tpscope::test
