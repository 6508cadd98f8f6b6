// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// What-if replay: a simulated run replayed on its own fabric reproduces its step times (self-check,
// 2 %); replayed on another fabric it lands near a direct simulation there; a hand-built trace gives
// the exact last-arrival arithmetic; the result says it is a prediction.

#include <gtest/gtest.h>
#include <cmath>

#include "core/sim/whatif_report.h"
#include "sim_test_support.h"

namespace tpscope::core::sim {
namespace {

SimConfig smallRun(const std::string& fabric, int tp, int batch = 8) {
    SimConfig c = test::simConfig("llama3-8b", "h100-sxm", fabric, tp, batch, 4);
    c.plan.model = test::smallModel();
    // The replay keeps measured gaps: it describes a GPU-bound run (a launch-bound run's gaps would
    // absorb a slower collective, which the replay does not model).
    c.params.setRuntime(Runtime::CudaGraphs);
    return c;
}

std::shared_ptr<const Trace> simulateOrDie(const SimConfig& c) {
    auto r = simulate(c);
    EXPECT_TRUE(r.ok()) << (r ? "" : r.error().describe());
    return r ? r->trace : nullptr;
}

WhatIfOptions onFabric(const std::string& fabric) {
    WhatIfOptions o;
    o.fabric = *test::catalog().fabric(fabric);
    o.gpusPerNode = 8;
    return o;
}

TEST(WhatIfReplay, SimulatedRunReplayedOnItsOwnFabricReproducesEveryStepWithin2Percent) {
    for (const std::string fabric : {"nvlink4", "pcie4"}) {
        auto trace = simulateOrDie(smallRun(fabric, 8));
        ASSERT_TRUE(trace);
        auto run = runWhatIf(*trace, {}, onFabric(fabric));
        ASSERT_TRUE(run.ok()) << run.error().describe();
        const auto& m = run->measured.summary.steps;
        const auto& p = run->predicted.summary.steps;
        ASSERT_EQ(m.size(), 4u);
        ASSERT_EQ(p.size(), m.size());
        for (std::size_t i = 0; i < m.size(); ++i) {
            const double err = static_cast<double>(p[i].latencyNs) / static_cast<double>(m[i].latencyNs) - 1.0;
            EXPECT_LT(std::abs(err), 0.02) << fabric << " step " << i;
        }
        EXPECT_EQ(run->report.collectivesKept, 0u);
        EXPECT_GT(run->report.collectivesRetimed, 0u);
    }
}

TEST(WhatIfReplay, SelfCheckHoldsForAServingEnginesAllReduce) {
    SimConfig c = smallRun("nvlink4", 8);
    c.params.allReduceEngine = AllReduceEngine::VllmCustomAr;
    auto trace = simulateOrDie(c);
    ASSERT_TRUE(trace);
    WhatIfOptions o = onFabric("nvlink4");
    o.engine = AllReduceEngine::VllmCustomAr;
    auto run = runWhatIf(*trace, {}, o);
    ASSERT_TRUE(run.ok()) << run.error().describe();
    EXPECT_NEAR(run->report.predictedStepNs / run->report.measuredStepNs, 1.0, 0.02);
    // The same trace re-timed with NCCL's choice instead differs: the engine is honoured.
    auto nccl = runWhatIf(*trace, {}, onFabric("nvlink4"));
    ASSERT_TRUE(nccl.ok());
    EXPECT_NE(nccl->report.predictedStepNs, run->report.predictedStepNs);
}

TEST(WhatIfReplay, NvlinkRunReplayedOnPcieLandsNearADirectPcieSimulation) {
    auto nvlink = simulateOrDie(smallRun("nvlink4", 8));
    auto pcie = simulateOrDie(smallRun("pcie4", 8));
    ASSERT_TRUE(nvlink && pcie);
    auto run = runWhatIf(*nvlink, {}, onFabric("pcie4"));
    ASSERT_TRUE(run.ok());
    const double direct = analysis::analyzeTrace(*pcie).summary.latencyMeanNs;
    EXPECT_GT(run->report.predictedStepNs, run->report.measuredStepNs);  // PCIe is slower
    EXPECT_NEAR(run->report.predictedStepNs / direct, 1.0, 0.05);
    EXPECT_GT(run->report.deltaNs, 0);
    EXPECT_DOUBLE_EQ(run->report.deltaFraction, run->report.deltaNs / run->report.measuredStepNs);
}

TEST(WhatIfReplay, LowerTpScalesGemmsFromThePlanAndLandsNearADirectSimulation) {
    const SimConfig tp8 = smallRun("nvlink4", 8);
    auto measured = simulateOrDie(tp8);
    auto direct = simulateOrDie(smallRun("nvlink4", 4));
    ASSERT_TRUE(measured && direct);
    WhatIfOptions o = onFabric("nvlink4");
    o.tp = 4;
    auto scaling = tpKernelScaling(tp8.plan, 4, tp8.cluster.gpu);
    ASSERT_TRUE(scaling.ok());
    EXPECT_GT(scaling->gemm, 1.5);  // half the ranks: each streams about twice the weights
    o.scaling = *scaling;
    auto run = runWhatIf(*measured, {}, o);
    ASSERT_TRUE(run.ok()) << run.error().describe();
    EXPECT_EQ(run->report.predictedRanks, 4u);
    const double want = analysis::analyzeTrace(*direct).summary.latencyMeanNs;
    EXPECT_NEAR(run->report.predictedStepNs / want, 1.0, 0.10);
    bool listed = false;
    for (const auto& a : run->report.assumptions) listed = listed || a.find("GEMM kernels scaled by") == 0;
    EXPECT_TRUE(listed);
}

// Two ranks, one all-reduce of 1 MiB: rank 1 computes 500 ns longer and arrives last.
std::shared_ptr<Trace> twoRanks() {
    auto t = std::make_shared<Trace>();
    t->origin = TraceOrigin::Imported;
    t->source = "hand-built";
    CollectivePayload c;
    c.op = CollectiveOp::AllReduce;
    c.bytes = 1 << 20;
    c.groupSize = 2;
    c.communicator = t->intern("tp");
    const PayloadId ar = t->intern(Payload::of(c));
    const NameId gemm = t->intern("gemm"), nccl = t->intern("ncclDevKernel_AllReduce");
    for (std::uint32_t r = 0; r < 2; ++r) {
        auto& s = t->rank(RankId{r}).stream(StreamId{7}, "compute");
        const std::int64_t compute = r == 0 ? 1000 : 1500;
        s.events.append({0, compute, gemm, EventKind::Gemm, 0, kNoPayload});
        s.events.append({compute, 1700 - compute, nccl, EventKind::Collective, 0, ar});
        s.events.append({1700 + 300, 1000, gemm, EventKind::Gemm, 0, kNoPayload});
    }
    t->finalize();
    return t;
}

TEST(WhatIfReplay, EachRankWaitsForTheLastArrivalThenTheModelTime) {
    auto t = twoRanks();
    WhatIfOptions o = onFabric("pcie4");
    auto run = runWhatIf(*t, {}, o);
    ASSERT_TRUE(run.ok()) << run.error().describe();
    const double model = CollectiveModel::create(o.fabric, std::nullopt, 2, 2)->allReduce(1 << 20).timeNs();
    const auto arEnd = 1500 + std::llround(model);
    const Trace& p = *run->replay.trace;
    for (std::uint32_t r = 0; r < 2; ++r) {
        const auto& ev = p.ranks[r].streams[0].events;
        ASSERT_EQ(ev.size(), 3u);
        EXPECT_EQ(ev.startNs(1), r == 0 ? 1000 : 1500);
        EXPECT_EQ(ev.endNs(1), arEnd) << "rank " << r;
        EXPECT_EQ(ev.startNs(2), arEnd + 300);  // the measured gap after the all-reduce
        EXPECT_EQ(ev.durNs(2), 1000);
    }
    EXPECT_EQ(p.origin, TraceOrigin::Predicted);
    EXPECT_EQ(toString(p.origin), "predicted");
    EXPECT_NE(p.source.find("model prediction"), std::string::npos);
    EXPECT_EQ(p.metadataValue("fabric"), "pcie4");
}

TEST(WhatIfReplay, CollectiveWithoutSizeKeepsItsMeasuredTransfer) {
    auto t = twoRanks();
    // Drop the size: the replay cannot re-time it.
    Payload p = t->payload(t->ranks[0].streams[0].events.payload(1));
    p.collective.bytes = 0;
    const PayloadId unsized = t->intern(p);
    for (auto& r : t->ranks) {
        EventColumns cols;
        for (std::size_t i = 0; i < r.streams[0].events.size(); ++i) {
            EventRecord e = r.streams[0].events.at(i);
            if (e.kind == EventKind::Collective) e.payload = unsized;
            cols.append(e);
        }
        cols.finalize();
        r.streams[0].events = std::move(cols);
    }
    auto run = runWhatIf(*t, {}, onFabric("pcie4"));
    ASSERT_TRUE(run.ok());
    EXPECT_EQ(run->report.collectivesKept, 1u);
    EXPECT_EQ(run->replay.trace->ranks[0].streams[0].events.endNs(1), 1700);  // last arrival 1500 + 200 measured
}

TEST(WhatIfReplay, GroupLargerThanTheFabricWithoutANetworkIsOneClearError) {
    auto trace = simulateOrDie(smallRun("nvlink4", 8));
    ASSERT_TRUE(trace);
    WhatIfOptions o;
    o.fabric = *test::catalog().fabric("nvlink4-pair");
    auto run = runWhatIf(*trace, {}, o);
    ASSERT_FALSE(run.ok());
    EXPECT_FALSE(run.error().message.empty());
}

TEST(WhatIfReplay, TpThatWouldHoldTooManyEventsIsRefusedBeforeReplaying) {
    auto t = std::make_shared<Trace>();
    const NameId gemm = t->intern("gemm");
    auto& s = t->rank(RankId{0}).stream(StreamId{7}, "compute");
    for (std::int64_t i = 0; i < 25'000; ++i) s.events.append({i * 10, 5, gemm, EventKind::Gemm, 0, kNoPayload});
    t->finalize();
    WhatIfOptions o = onFabric("nvlink4");
    o.tp = 4096;  // 4096 x 25 000 events: above the 100 M a replay may hold
    auto run = runWhatIf(*t, {}, o);
    ASSERT_FALSE(run.ok());
    EXPECT_NE(run.error().message.find("M events"), std::string::npos) << run.error().message;
}

}  // namespace
}  // namespace tpscope::core::sim
