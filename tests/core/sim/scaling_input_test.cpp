// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// Issue 27 §4: scaling over separate traces without NVTX ranges and without a "tp" entry (as measured
// traces come) equals the sweep's efficiencies within 1 %, with TP read from the communicator size;
// runs of different GPUs or models are refused with each run's value named.

#include <gtest/gtest.h>

#include "core/analysis/scaling_input.h"
#include "sim_test_support.h"

namespace tpscope::test {
namespace {

using core::analysis::MeasuredRun;

std::shared_ptr<core::Trace> simulated(int tp) {
    auto config = simConfig("llama3-8b", "h100-sxm", "nvlink4", tp, 1, 4);
    config.plan.model = smallModel();
    config.params = core::sim::SimParams::deterministic();
    // Eager, as this test was written for. Under cuda-graphs (the default since issue 49) the trace
    // without NVTX scales 1.3-1.9 % off the sweep at TP 4 and 8: the steps found without ranges in a
    // graph-replay trace are not yet exactly the simulated ones (open, noted in issue 43).
    config.params.setRuntime(core::sim::Runtime::PytorchEager);
    auto r = core::sim::simulate(config);
    EXPECT_TRUE(r) << r.error().describe();
    return r ? std::make_shared<core::Trace>(*r->trace) : nullptr;
}

// As a measured trace arrives: no NVTX ranges, no tpscope metadata.
std::shared_ptr<core::Trace> asMeasured(const core::Trace& t) {
    auto m = std::make_shared<core::Trace>(withoutNvtx(t));
    m->metadata.clear();
    m->origin = core::TraceOrigin::Imported;
    return m;
}

TEST(ScalingInput, MeasuredTracesScaleLikeTheSimulatedSweep) {
    std::vector<std::shared_ptr<core::Trace>> sweep;
    std::vector<std::shared_ptr<core::Trace>> measured;
    for (const int tp : {1, 2, 4, 8}) {
        sweep.push_back(simulated(tp));
        ASSERT_TRUE(sweep.back());
        measured.push_back(asMeasured(*sweep.back()));
    }
    auto report = [](const std::vector<std::shared_ptr<core::Trace>>& traces, std::vector<std::string>* notes) {
        std::vector<core::analysis::RunAnalysis> analyses;
        analyses.reserve(traces.size());
        for (const auto& t : traces) analyses.push_back(core::analysis::analyzeTrace(*t));
        std::vector<MeasuredRun> runs;
        for (std::size_t i = 0; i < traces.size(); ++i) {
            runs.push_back({traces[i].get(), &analyses[i], "run " + std::to_string(i), 0, 0});
        }
        auto in = core::analysis::buildScalingInput(runs);
        EXPECT_TRUE(in) << in.error().describe();
        if (notes != nullptr) *notes = in->notes;
        auto r = core::analysis::analyzeScaling(in->runs, {});
        EXPECT_TRUE(r);
        return *r;
    };
    std::vector<std::string> notes;
    const auto want = report(sweep, nullptr);
    const auto got = report(measured, &notes);
    ASSERT_EQ(want.batches.size(), 1u);
    ASSERT_EQ(got.batches.size(), 1u);
    ASSERT_EQ(got.batches[0].rows.size(), 4u);
    for (std::size_t i = 0; i < 4; ++i) {
        const auto& w = want.batches[0].rows[i];
        const auto& g = got.batches[0].rows[i];
        EXPECT_EQ(g.gpus, w.gpus);
        EXPECT_NEAR(g.efficiency, w.efficiency, 0.01 * w.efficiency) << "TP " << w.gpus;
    }
    ASSERT_FALSE(notes.empty());
    // TP 1 has no collective: its rank count; the others the all-reduce communicator size.
    EXPECT_NE(notes[0].find("3 from communicator size"), std::string::npos) << notes[0];
    EXPECT_NE(notes[0].find("1 from ranks"), std::string::npos) << notes[0];
}

TEST(ScalingInput, TpComesFromTheCommunicatorOfOneRankFile) {
    auto t = asMeasured(*simulated(4));
    t->ranks.resize(1);  // one rank file of a TP 4 job
    const auto tp = core::analysis::traceTp(*t);
    EXPECT_EQ(tp.tp, 4);
    EXPECT_EQ(tp.source, "communicator size");
}

TEST(ScalingInput, RunsOfDifferentGpusAreRefusedNamingEachRun) {
    auto a = asMeasured(*simulated(1));
    auto b = asMeasured(*simulated(2));
    for (auto& r : b->ranks) r.deviceName = "NVIDIA A100-SXM4-80GB";
    for (auto& r : a->ranks) r.deviceName = "NVIDIA H100 80GB HBM3";
    const auto aa = core::analysis::analyzeTrace(*a);
    const auto ab = core::analysis::analyzeTrace(*b);
    const auto in =
        core::analysis::buildScalingInput({{a.get(), &aa, "h100.json", 0, 0}, {b.get(), &ab, "a100.json", 0, 0}});
    ASSERT_FALSE(in);
    EXPECT_NE(in.error().message.find("different GPUs"), std::string::npos);
    EXPECT_NE(in.error().message.find("a100.json: NVIDIA A100-SXM4-80GB"), std::string::npos);
    b->metadata = {{"model", "llama3-70b"}};
    a->metadata = {{"model", "llama3-8b"}};
    for (auto& r : b->ranks) r.deviceName = "NVIDIA H100 80GB HBM3";
    const auto models = core::analysis::buildScalingInput({{a.get(), &aa, "a", 0, 0}, {b.get(), &ab, "b", 0, 0}});
    ASSERT_FALSE(models);
    EXPECT_NE(models.error().message.find("different models"), std::string::npos);
}

}  // namespace
}  // namespace tpscope::test
