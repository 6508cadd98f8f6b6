// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// CUDA-graph replay removes the host's per-kernel launches: at TP 8, batch 1 the idle share of
// the step (core::analysis's loss breakdown, measured on the simulated trace) drops.

#include <gtest/gtest.h>

#include "core/analysis/analysis.h"
#include "sim_test_support.h"

namespace tpscope::test {
namespace {

double idleShare(bool graphs) {
    auto c = simConfig("llama3-8b", "h100-sxm", "nvlink4", 8, 1, 3);
    c.plan.model = smallModel();
    c.params = core::sim::SimParams::deterministic();
    c.params.setRuntime(graphs ? core::sim::Runtime::CudaGraphs : core::sim::Runtime::PytorchEager);
    auto r = core::sim::simulate(c);
    EXPECT_TRUE(r) << r.error().describe();
    const auto a = core::analysis::analyzeTrace(*r->trace);
    return a.summary.loss.idle;
}

TEST(CudaGraphs, LowerTheIdleShareAtTp8Batch1) {
    const double eager = idleShare(false);
    const double graphs = idleShare(true);
    EXPECT_GT(eager, 0.05);
    // Eager launches each kernel after the runtime profile's host time per launch; a graph is one
    // launch per step with 0.6 us node gaps (resources/runtime_profiles.json): idle falls by more
    // than half of its eager share.
    EXPECT_LT(graphs, eager * 0.6);
    EXPECT_GT(graphs, 0.0);
}

}  // namespace
}  // namespace tpscope::test
