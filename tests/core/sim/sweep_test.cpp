// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include <gtest/gtest.h>

#include <atomic>

#include "core/hw/memory_fit.h"
#include "core/sim/sweep.h"
#include "sim_test_support.h"

namespace tpscope::test {
namespace {

core::sim::SweepSpec smallSweep() {
    core::sim::SweepSpec spec;
    spec.model = smallModel();
    spec.cluster.gpu = *catalog().gpu("h100-sxm");
    spec.cluster.intraFabric = *catalog().fabric("nvlink4");
    spec.tps = {1, 2, 4};
    spec.batches = {1, 8};
    spec.tokens = 2;
    return spec;
}

TEST(Sweep, RunsEveryTpAndBatchInOrderAndReportsProgress) {
    std::vector<int> done;
    std::vector<double> steps;  // per-step reports of the running configuration
    std::vector<const core::Trace*> delivered;
    auto r = core::sim::runSweep(smallSweep(), {[&](const core::sim::SweepProgress& p) {
                                     EXPECT_EQ(p.total, 6);
                                     if (p.run == nullptr && p.skipped == nullptr) {
                                         steps.push_back(p.runFraction);
                                         return;
                                     }
                                     done.push_back(p.done);
                                     if (p.run != nullptr) delivered.push_back(p.run->trace.get());
                                 }});
    ASSERT_TRUE(r) << r.error().describe();
    ASSERT_EQ(r->runs.size(), 6u);
    EXPECT_EQ(done, (std::vector<int>{1, 2, 3, 4, 5, 6}));
    // Each finished run is handed over as it finishes; with 2 tokens each run reports step 1 of 2.
    ASSERT_EQ(delivered.size(), 6u);
    for (std::size_t i = 0; i < 6; ++i) EXPECT_EQ(delivered[i], r->runs[i].trace.get());
    EXPECT_EQ(steps, std::vector<double>(6, 0.5));
    EXPECT_EQ(r->runs[0].config.plan.tp, 1);
    EXPECT_EQ(r->runs[1].config.plan.batch, 8);
    EXPECT_EQ(r->runs[5].config.plan.tp, 4);
    for (const auto& run : r->runs) {
        ASSERT_NE(run.trace, nullptr);
        EXPECT_EQ(run.trace->ranks.size(), static_cast<std::size_t>(run.config.plan.tp));
        EXPECT_GT(run.stats.tokensPerSec, 0);
    }
    EXPECT_FALSE(r->cancelled);
}

TEST(Sweep, ConfigurationThatDoesNotFitIsSkippedWithItsShortfallAndTheRestRun) {
    core::sim::SweepSpec spec;
    spec.model = *catalog().model("llama3-70b");
    spec.cluster.gpu = *catalog().gpu("h100-sxm");
    spec.cluster.intraFabric = *catalog().fabric("nvlink4");
    spec.tps = {1, 8};
    spec.tokens = 1;
    auto r = core::sim::runSweep(spec);
    ASSERT_TRUE(r) << r.error().describe();
    ASSERT_EQ(r->skipped.size(), 1u);
    EXPECT_EQ(r->skipped[0].tp, 1);
    EXPECT_GT(r->skipped[0].fit.shortfallBytes, 0u);
    EXPECT_EQ(r->skipped[0].fit.shortfallBytes, r->skipped[0].fit.requiredBytes - r->skipped[0].fit.usableBytes);
    ASSERT_EQ(r->runs.size(), 1u);
    EXPECT_EQ(r->runs[0].config.plan.tp, 8);
    spec.ignoreMemory = true;
    auto forced = core::sim::runSweep(spec);
    ASSERT_TRUE(forced);
    EXPECT_EQ(forced->runs.size(), 2u);
    EXPECT_TRUE(forced->skipped.empty());
}

TEST(Sweep, BadParametersFailTheWholeSweepBeforeAnythingRuns) {
    auto spec = smallSweep();
    spec.tps = {2, 16};
    int progressCalls = 0;
    auto r = core::sim::runSweep(spec, {[&](const core::sim::SweepProgress&) { ++progressCalls; }});
    ASSERT_FALSE(r);
    EXPECT_EQ(progressCalls, 0);
    EXPECT_NE(r.error().context.find("TP 16"), std::string::npos) << r.error().describe();
    spec.tps = {3};  // does not divide the heads
    EXPECT_FALSE(core::sim::runSweep(spec));
}

TEST(Sweep, CancellingStopsPromptlyAndKeepsTheFinishedRuns) {
    core::CancelFlag cancel{false};
    auto r = core::sim::runSweep(smallSweep(), {[&](const core::sim::SweepProgress& p) {
                                                    if (p.done == 2) cancel.store(true);
                                                },
                                                &cancel});
    ASSERT_TRUE(r) << r.error().describe();
    EXPECT_TRUE(r->cancelled);
    EXPECT_EQ(r->runs.size(), 2u);
}

// Fp16 weights of a Llama-style model, counted here from its dimensions: per layer q/o (hidden x
// heads*headDim each), k/v (hidden x kvHeads*headDim each), gate/up/down (hidden x ffn each) and two
// norms; embedding and LM head (vocab x hidden each) and the final norm.
double fp16WeightBytes(const core::ModelSpec& m) {
    const double attn = 2.0 * m.hidden * m.heads * m.headDim + 2.0 * m.hidden * m.kvHeads * m.headDim;
    const double perLayer = attn + 3.0 * m.hidden * m.ffn + 2.0 * m.hidden;
    return 2.0 * (m.layers * perLayer + 2.0 * m.vocab * m.hidden + m.hidden);
}

TEST(Sweep, DefaultSweepSkipsExactlyTheTpsWhoseWeightsAloneOverflowTheGpu) {
    auto spec = core::sim::defaultSweepSpec(catalog());
    ASSERT_TRUE(spec);
    // Every TP of the sweep fits in the node, and the TPs are powers of two (what TP shards evenly).
    for (const int tp : spec->tps) {
        EXPECT_LE(tp, spec->cluster.gpusPerNode * spec->cluster.nodes);
        EXPECT_EQ(tp & (tp - 1), 0) << tp;
    }
    spec->tokens = 1;
    auto r = core::sim::runSweep(*spec);
    ASSERT_TRUE(r);
    const double weights = fp16WeightBytes(spec->model);
    const double usable = core::kDefaultUsableMemoryFraction * static_cast<double>(spec->cluster.gpu.memoryBytes);
    std::size_t overflowing = 0;
    for (const int tp : spec->tps) overflowing += weights / tp > usable ? 1 : 0;
    EXPECT_GT(overflowing, 0u) << "the default sweep is meant to show a skipped TP";
    ASSERT_EQ(r->skipped.size(), overflowing);
    for (const auto& s : r->skipped) {
        EXPECT_GT(weights / s.tp, usable) << "TP " << s.tp;
        EXPECT_GE(static_cast<double>(s.fit.requiredBytes), weights / s.tp) << "TP " << s.tp;
        EXPECT_EQ(s.reason.code, core::ErrorCode::DoesNotFit);
    }
    EXPECT_EQ(r->runs.size() + r->skipped.size(), spec->tps.size() * spec->batches.size());
}

TEST(Sweep, ContextIsAnAxisAfterBatchAndLongerContextsReadMoreKv) {
    auto spec = smallSweep();
    spec.tps = {2};
    spec.batches = {1, 8};
    spec.contexts = {1024, 32768};
    spec.params = core::sim::SimParams::deterministic();
    spec.params.setRuntime(core::sim::Runtime::CudaGraphs);  // GPU-bound: the KV reads show in the step
    std::vector<int> contexts;
    auto r = core::sim::runSweep(spec, {[&](const core::sim::SweepProgress& p) {
                                     if (p.runFraction >= 1.0) contexts.push_back(p.context);
                                 }});
    ASSERT_TRUE(r) << r.error().describe();
    ASSERT_EQ(r->runs.size(), 4u);
    EXPECT_EQ(contexts, (std::vector<int>{1024, 32768, 1024, 32768}));
    for (std::size_t i = 0; i < 4; i += 2) {
        EXPECT_EQ(r->runs[i].config.plan.batch, r->runs[i + 1].config.plan.batch);
        EXPECT_EQ(r->runs[i].config.plan.contextLen, 1024);
        EXPECT_EQ(r->runs[i + 1].config.plan.contextLen, 32768);
        EXPECT_GT(r->runs[i + 1].stats.meanStepNs, r->runs[i].stats.meanStepNs);
    }
}

}  // namespace
}  // namespace tpscope::test
