// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// The behaviour the seed articles describe, checked as it falls out of the simulator with the
// shipped (calibrated) presets: nothing here is fed into the model.

#include <gtest/gtest.h>

#include <map>

#include "core/sim/sweep.h"
#include "sim_test_support.h"

namespace tpscope::test {
namespace {

// tokens/s per TP for one batch size; a full-size Llama-3 8B (fits one GPU, so TP 1 is the base).
std::map<int, double> throughput(const std::string& gpu, const std::string& fabric, int batch) {
    core::sim::SweepSpec spec;
    spec.model = *catalog().model("llama3-8b");
    spec.cluster.gpu = *catalog().gpu(gpu);
    spec.cluster.intraFabric = *catalog().fabric(fabric);
    spec.cluster.gpusPerNode = 8;
    spec.tps = {1, 2, 4, 8};
    spec.batches = {batch};
    spec.tokens = 2;
    // The GPU side the seed articles describe: graph replay, as serving engines decode (an eager
    // host would hide it; tests/core/sim/host_timeline_test.cpp covers that regime).
    spec.params.setRuntime(core::sim::Runtime::CudaGraphs);
    auto r = core::sim::runSweep(spec);
    EXPECT_TRUE(r) << r.error().describe();
    std::map<int, double> out;
    if (!r) return out;
    for (const auto& run : r->runs) out[run.config.plan.tp] = run.stats.tokensPerSec;
    return out;
}

TEST(ScalingShape, SpeedupAtBatchOneIsSublinearAndFlattens) {
    auto t = throughput("h100-sxm", "nvlink4", 1);
    ASSERT_EQ(t.size(), 4u);
    const double s2 = t[2] / t[1], s4 = t[4] / t[1], s8 = t[8] / t[1];
    EXPECT_GT(s2, 1.0);
    EXPECT_GT(s8, s4);
    EXPECT_LT(s2, 2.0);
    EXPECT_LT(s4, 4.0);
    EXPECT_LT(s8, 8.0);
    // Efficiency falls with every doubling, and each doubling gains less than the one before.
    EXPECT_GT(s2 / 2, s4 / 4);
    EXPECT_GT(s4 / 4, s8 / 8);
    EXPECT_LT(s8 / s4, s4 / s2);
}

TEST(ScalingShape, PcieScalesWorseThanNvlink) {
    auto nvlink = throughput("h100-sxm", "nvlink4", 1);
    auto pcie = throughput("h100-sxm", "pcie5", 1);
    ASSERT_EQ(nvlink.size(), 4u);
    ASSERT_EQ(pcie.size(), 4u);
    EXPECT_LT(pcie[8] / pcie[1], nvlink[8] / nvlink[1]);
    EXPECT_LT(pcie[8] / pcie[4], nvlink[8] / nvlink[4]);
}

TEST(ScalingShape, LargerBatchesScaleBetterOnNvlink) {
    auto small = throughput("h100-sxm", "nvlink4", 1);
    auto large = throughput("h100-sxm", "nvlink4", 32);
    ASSERT_EQ(small.size(), 4u);
    ASSERT_EQ(large.size(), 4u);
    EXPECT_GT(large[8] / large[1], small[8] / small[1]);
    EXPECT_GT(large[4] / large[1], small[4] / small[1]);
}

TEST(ScalingShape, AllReduceShareOfTheStepGrowsWithTp) {
    core::sim::SweepSpec spec;
    spec.model = *catalog().model("llama3-70b");
    spec.cluster.gpu = *catalog().gpu("h100-sxm");
    spec.cluster.intraFabric = *catalog().fabric("nvlink4");
    spec.tps = {2, 4, 8};
    spec.tokens = 2;
    auto r = core::sim::runSweep(spec);
    ASSERT_TRUE(r) << r.error().describe();
    ASSERT_EQ(r->runs.size(), 3u);
    EXPECT_LT(r->runs[0].stats.exposedCommShare, r->runs[1].stats.exposedCommShare);
    EXPECT_LT(r->runs[1].stats.exposedCommShare, r->runs[2].stats.exposedCommShare);
}

}  // namespace
}  // namespace tpscope::test
