// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// Calibration from a trace: all-reduce samples come from the matched calls with the transfer the
// analysis measures; kernel efficiencies fitted to a run simulated with other ("true") parameters
// reproduce its step time within 10 % and find its memory efficiency.

#include <gtest/gtest.h>

#include "core/sim/calibration.h"
#include "core/sim/trace_calibration.h"
#include "sim_test_support.h"

namespace tpscope::core::sim {
namespace {

SimConfig smallRun(int tp, int batch) {
    SimConfig c = test::simConfig("llama3-8b", "h100-sxm", "pcie4", tp, batch, 3);
    c.plan.model = test::smallModel();
    return c;
}

TEST(TraceCalibration, AllReduceSamplesAreTheMatchedCallsTransfers) {
    auto r = simulate(smallRun(4, 16));
    ASSERT_TRUE(r.ok());
    const auto a = analysis::analyzeTrace(*r->trace);
    const TraceSamples s = allReduceSamples(*r->trace, a.matching);
    std::size_t allReduces = 0;
    for (const auto& call : a.matching.calls) allReduces += call.op == CollectiveOp::AllReduce ? 1 : 0;
    EXPECT_EQ(s.allReduceCalls, allReduces);
    ASSERT_EQ(s.samples.size(), allReduces);  // every call complete and sized in a simulation
    const std::uint64_t message =
        16ull * static_cast<std::uint64_t>(test::smallModel().hidden) * 2;  // batch x hidden x fp16
    for (const auto& sample : s.samples) {
        EXPECT_EQ(sample.bytes, message);
        EXPECT_EQ(sample.ranks, 4);
        EXPECT_EQ(sample.nodes, 1);
        EXPECT_GT(sample.timeNs, 0);
    }
    // The transfer the model was asked for, within the simulator's 3 % jitter.
    const double model =
        CollectiveModel::create(*test::catalog().fabric("pcie4"), std::nullopt, 4, 8)->allReduce(message).timeNs();
    EXPECT_NEAR(s.samples.front().timeNs / model, 1.0, 0.15);
}

TEST(TraceCalibration, KernelFitReproducesTheStepTimeOfARunWithOtherEfficiencies) {
    // The fit scales the roofline's efficiencies: the truth and the start are roofline runs (the
    // built-in per-op times off), as calibrateKernels' own predictions are.
    SimConfig truth = smallRun(2, 8);
    truth.params.fittedOpTimes = false;
    truth.params.gemm = {0.45, 0.55};
    truth.params.attention = {0.30, 0.40};
    HostCosts host = truth.params.host();
    host.deviceGapNs = 3000;
    truth.params.hostCosts = host;
    auto measured = simulate(truth);
    ASSERT_TRUE(measured.ok());
    const auto a = analysis::analyzeTrace(*measured->trace);
    SimConfig start = smallRun(2, 8);  // default efficiencies: what the fit starts from
    start.params.fittedOpTimes = false;
    auto fit = calibrateKernels(*measured->trace, a, start);
    ASSERT_TRUE(fit.ok()) << fit.error().describe();
    EXPECT_NEAR(fit->predictedStepNs / fit->measuredStepNs, 1.0, 0.10);
    EXPECT_DOUBLE_EQ(fit->measuredStepNs, a.summary.latencyMeanNs);
    // Decode GEMMs are memory-bound: the fitted memory efficiency lands near the truth.
    EXPECT_NEAR(fit->params.gemm.memory, 0.55, 0.05);
    // Without the fit the default parameters miss the run by more than the fit does.
    auto unfitted = simulate(start);
    ASSERT_TRUE(unfitted.ok());
    const double before = analysis::analyzeTrace(*unfitted->trace).summary.latencyMeanNs / fit->measuredStepNs - 1.0;
    EXPECT_GT(std::abs(before), std::abs(fit->predictedStepNs / fit->measuredStepNs - 1.0));
}

TEST(TraceCalibration, TraceWithoutStepsIsOneClearError) {
    Trace empty;
    empty.finalize();
    const auto a = analysis::analyzeTrace(empty);
    auto fit = calibrateKernels(empty, a, smallRun(1, 1));
    ASSERT_FALSE(fit.ok());
    EXPECT_NE(fit.error().message.find("no decode step"), std::string::npos);
}

}  // namespace
}  // namespace tpscope::core::sim
