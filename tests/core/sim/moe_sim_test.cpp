// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// MoE decode in the simulator: the expert GEMMs' time follows the touched experts' weight bytes (so it
// grows with batch), every simulated kernel name is classified by the built-in rules as the simulator
// labelled it, expert parallelism runs all-to-all kernels, and the all-to-all cost follows its formula.

#include <gtest/gtest.h>

#include <string>

#include "core/sim/all_to_all_model.h"
#include "core/trace/kernel_classifier.h"
#include "core/workload/moe_summary.h"
#include "sim_test_support.h"

namespace tpscope::test {
namespace {

core::sim::SimConfig moeConfig(const char* model, int tp, int batch) {
    auto c = simConfig(model, "h100-sxm", "nvlink4", tp, batch, 2);
    c.plan.model.layers = 4;  // every block kind at a fraction of the events
    c.plan.dtype = core::Dtype::Bf16;
    return c;
}

// Summed duration of the kernels whose name contains `needle`, over rank 0, per decode step.
double nsPerStep(const core::Trace& t, const std::string& needle, int steps) {
    double ns = 0;
    for (const auto& s : t.ranks.at(0).streams) {
        for (std::size_t i = 0; i < s.events.size(); ++i) {
            if (std::string(t.name(s.events.name(i))).find(needle) != std::string::npos) {
                ns += static_cast<double>(s.events.durNs(i));
            }
        }
    }
    return ns / steps;
}

// Every kernel name of the trace, classified by the built-in rules, gets the kind the simulator gave it.
void expectClassifiedAsLabelled(const core::Trace& t) {
    const auto& rules = core::KernelClassifier::builtin();
    for (const auto& s : t.ranks.at(0).streams) {
        for (std::size_t i = 0; i < s.events.size(); ++i) {
            const std::string_view name = t.name(s.events.name(i));
            EXPECT_EQ(rules.classify(name).kind, s.events.kind(i)) << name;
        }
    }
}

TEST(MoeSim, ExpertGemmTimeGrowsWithTheTouchedExpertsAtEveryTp) {
    for (const int tp : {1, 2, 4, 8}) {
        auto b1 = core::sim::simulate(moeConfig("qwen3-30b-a3b", tp, 1));
        auto b64 = core::sim::simulate(moeConfig("qwen3-30b-a3b", tp, 64));
        ASSERT_TRUE(b1 && b64);
        const double t1 = nsPerStep(*b1->trace, "fused_moe_kernel", 2);
        const double t64 = nsPerStep(*b64->trace, "fused_moe_kernel", 2);
        ASSERT_GT(t1, 0) << tp;
        // Memory-bound expert GEMMs: time ~ touched experts (8 at batch 1, 125.9 at batch 64) above
        // a fixed per-kernel overhead, so well above the 1x of a dense model's weight reads.
        EXPECT_GT(t64 / t1, 4.0) << "TP " << tp << ": " << t1 << " ns -> " << t64 << " ns";
        expectClassifiedAsLabelled(*b64->trace);
    }
}

TEST(MoeSim, Mxfp4ExpertsRunMatmulOgsAndMlaRunsFlashMla) {
    auto oss = core::sim::simulate(moeConfig("gpt-oss-20b", 2, 8));
    ASSERT_TRUE(oss) << oss.error().message;
    EXPECT_GT(nsPerStep(*oss->trace, "_matmul_ogs_", 2), 0);
    EXPECT_GT(nsPerStep(*oss->trace, "topkGatingSoftmax", 2), 0);
    expectClassifiedAsLabelled(*oss->trace);
    auto cfg = moeConfig("deepseek-v3", 8, 4);
    cfg.plan.dtype = core::Dtype::Bf16;
    cfg.cluster.gpu = *catalog().gpu("h200-sxm");
    cfg.ignoreMemory = true;  // 4 layers of 61: the point is the kernels, not the fit
    auto ds = core::sim::simulate(cfg);
    ASSERT_TRUE(ds) << ds.error().message;
    EXPECT_GT(nsPerStep(*ds->trace, "flash_fwd_splitkv_mla_kernel", 2), 0);
    expectClassifiedAsLabelled(*ds->trace);
}

TEST(MoeSim, ExpertParallelRunsAllToAllKernelsTheRulesCallAllToAll) {
    auto c = moeConfig("qwen3-30b-a3b", 4, 16);
    c.plan.moeParallel = core::MoeParallel::Expert;
    auto r = core::sim::simulate(c);
    ASSERT_TRUE(r) << r.error().message;
    const auto& rules = core::KernelClassifier::builtin();
    int allToAll = 0;
    for (const auto& s : r->trace->ranks.at(0).streams) {
        for (std::size_t i = 0; i < s.events.size(); ++i) {
            const auto cls = rules.classify(r->trace->name(s.events.name(i)));
            if (cls.kind == core::EventKind::Collective && cls.collective.op == core::CollectiveOp::AllToAll)
                ++allToAll;
        }
    }
    EXPECT_EQ(allToAll, 2 * 4 * 2);  // dispatch + combine, 4 layers, 2 steps
    expectClassifiedAsLabelled(*r->trace);
}

TEST(AllToAllModel, DirectSendsOfTheOffRankShareAtTheFittedShareOfTheBusBandwidth) {
    const auto nvlink = *catalog().fabric("nvlink4");
    auto one = core::sim::CollectiveModel::create(nvlink, std::nullopt, 4, 8);
    ASSERT_TRUE(one);
    const std::uint64_t bytes = 1 << 20;
    const auto e = core::sim::allToAll(*one, bytes);
    EXPECT_DOUBLE_EQ(e.latencyNs, nvlink.baseLatencyNs + nvlink.hopLatencyNs);
    EXPECT_NEAR(e.bandwidthNs,
                static_cast<double>(bytes) * 3 / 4 / (nvlink.busbwBytesPerSec * core::sim::kAllToAllShareOfBusbw) * 1e9,
                1e-6);
    // Two nodes of 8: half of every rank's buffer crosses the network, which is the slower path.
    const auto ib = *catalog().fabric("ib-ndr");
    auto two = core::sim::CollectiveModel::create(nvlink, ib, 16, 8);
    ASSERT_TRUE(two);
    const auto e2 = core::sim::allToAll(*two, bytes);
    EXPECT_NEAR(e2.bandwidthNs, static_cast<double>(bytes) * 8 / 16 / ib.busbwBytesPerSec * 1e9, 1e-6);
    EXPECT_EQ(core::sim::allToAll(*core::sim::CollectiveModel::create(nvlink, std::nullopt, 1, 8), bytes).timeNs(),
              0.0);
}

TEST(MoeSummary, SaysInWordsThatTheWeightTrafficGrowsWithBatch) {
    std::vector<core::PlanConfig> configs;
    for (const int tp : {1, 8}) {
        for (const int b : {1, 64}) {
            core::PlanConfig p;
            p.model = *catalog().model("qwen3-30b-a3b");
            p.tp = tp;
            p.batch = b;
            configs.push_back(p);
        }
    }
    const auto notes = core::moeTrafficNotes(configs);
    ASSERT_EQ(notes.size(), 3u);
    EXPECT_NE(notes[0].find("8.0 at batch 1 (6 %)"), std::string::npos) << notes[0];
    EXPECT_NE(notes[0].find("125.9 at batch 64 (98 %)"), std::string::npos) << notes[0];
    EXPECT_NE(notes[1].find("TP 8"), std::string::npos) << notes[1];
    EXPECT_NE(notes[2].find("grows with batch"), std::string::npos) << notes[2];
    configs.front().model = *catalog().model("llama3-8b");
    EXPECT_TRUE(core::moeTrafficNotes({configs.front()}).empty());
}

}  // namespace
}  // namespace tpscope::test
