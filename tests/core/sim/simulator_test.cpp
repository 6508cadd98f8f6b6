// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include "core/analysis/exposed_comm.h"
#include "core/sim/kernel_model.h"
#include "core/trace/kernel_classifier.h"
#include "sim_test_support.h"

namespace tpscope::test {
namespace {

using core::EventKind;
using core::sim::SimParams;

core::sim::SimConfig smallConfig(int tp, int batch, int tokens = 2) {
    auto c = simConfig("llama3-8b", "h100-sxm", "nvlink4", tp, batch, tokens);
    c.plan.model = smallModel();
    return c;
}

// Collective kernels of one rank and stream, in order.
std::vector<core::EventRecord> collectives(const core::Trace& t, std::size_t rank, core::StreamId stream) {
    std::vector<core::EventRecord> out;
    const auto* s = t.ranks[rank].findStream(stream);
    if (s == nullptr) return out;
    for (std::size_t i = 0; i < s->events.size(); ++i) {
        if (s->events.kind(i) == EventKind::Collective) out.push_back(s->events.at(i));
    }
    return out;
}

TEST(Simulator, AllReducesPerStepAreTwoPerLayerPlusTheEmbeddingOne) {
    auto c = smallConfig(4, 1, 3);
    auto r = core::sim::simulate(c);
    ASSERT_TRUE(r) << r.error().describe();
    const auto& t = *r->trace;
    int allReduces = 0;
    int allGathers = 0;
    for (const auto& e : collectives(t, 0, core::sim::kComputeStream)) {
        const auto& p = t.payload(e.payload).collective;
        if (p.op == core::CollectiveOp::AllReduce) ++allReduces;
        if (p.op == core::CollectiveOp::AllGather) ++allGathers;
    }
    const int layers = static_cast<int>(c.plan.model.layers);
    EXPECT_EQ(allReduces, c.tokens * (2 * layers + 1));
    EXPECT_EQ(allGathers, c.tokens);
    EXPECT_EQ(r->stats.allreducesPerStep, 2 * layers + 1);
}

TEST(Simulator, WithoutJitterStepTimeIsTheSumOfModelledKernelAndCollectiveTimes) {
    auto c = smallConfig(4, 8, 3);
    c.params = SimParams::deterministic();
    // A host that is always ahead (no host time per launch, no launch latency): the GPU sets the pace.
    core::sim::HostCosts host;
    host.deviceGapNs = 1700;
    host.stepHostNs = 20000;
    c.params.hostCosts = host;
    auto r = core::sim::simulate(c);
    ASSERT_TRUE(r) << r.error().describe();

    auto plan = core::buildDecodePlan(c.plan);
    auto model = core::sim::CollectiveModel::create(c.cluster.intraFabric, std::nullopt, 4, 8);
    ASSERT_TRUE(plan && model);
    // The device gap separates consecutive kernels: ops - 1 of them per step.
    double expected = host.stepHostNs - host.deviceGapNs;
    for (const auto& op : plan->ops) {
        expected += host.deviceGapNs;
        if (!op.isCollective()) {
            expected += core::sim::kernelCost(op, c.cluster.gpu, c.plan.dtype, c.params).timeNs();
        } else if (op.collective == core::CollectiveOp::AllGather) {
            expected += model->allGather(op.messageBytes).timeNs();
        } else {
            expected += model->allReduce(op.messageBytes).timeNs();
        }
    }
    EXPECT_NEAR(r->stats.meanStepNs, expected, 1e-6 * expected);
    EXPECT_DOUBLE_EQ(r->stats.allreduceWaitNsPerStep, 0.0);
    // Without overlap every collective is exposed.
    EXPECT_NEAR(r->stats.exposedCommNsPerStep, r->stats.collectiveKernelNsPerStep,
                1e-3 * r->stats.collectiveKernelNsPerStep + 2.0 * plan->collectivesPerStep);
}

TEST(Simulator, WithJitterEarlyRanksWaitAndEveryRanksAllReduceEndsTogether) {
    auto c = smallConfig(8, 1, 2);
    c.params.jitter = 0.05;
    c.params.loadImbalance = 0.02;
    auto r = core::sim::simulate(c);
    ASSERT_TRUE(r) << r.error().describe();
    const auto& t = *r->trace;
    const auto first = collectives(t, 0, core::sim::kComputeStream);
    ASSERT_FALSE(first.empty());
    bool durationsDiffer = false;
    for (std::size_t rank = 1; rank < t.ranks.size(); ++rank) {
        const auto other = collectives(t, rank, core::sim::kComputeStream);
        ASSERT_EQ(other.size(), first.size());
        for (std::size_t k = 0; k < first.size(); ++k) {
            EXPECT_EQ(other[k].endNs(), first[k].endNs()) << "collective " << k << " rank " << rank;
            durationsDiffer = durationsDiffer || other[k].durNs != first[k].durNs;
        }
    }
    EXPECT_TRUE(durationsDiffer);
    EXPECT_GT(r->stats.allreduceWaitNsPerStep, 0.0);
    EXPECT_NEAR(r->stats.allreduceKernelNsPerStep,
                r->stats.allreduceWaitNsPerStep + r->stats.allreduceTransferNsPerStep,
                1e-6 * r->stats.allreduceKernelNsPerStep);
}

TEST(Simulator, SameSeedGivesTheSameTraceAndAnotherSeedAnother) {
    auto c = smallConfig(4, 4, 2);
    c.params.seed = 42;
    auto a = core::sim::simulate(c);
    auto b = core::sim::simulate(c);
    c.params.seed = 43;
    auto d = core::sim::simulate(c);
    ASSERT_TRUE(a && b && d);
    EXPECT_TRUE(a->trace->sameEvents(*b->trace));
    EXPECT_FALSE(a->trace->sameEvents(*d->trace));
}

TEST(Simulator, TpOneHasNoCollectives) {
    auto c = smallConfig(1, 1, 2);
    auto r = core::sim::simulate(c);
    ASSERT_TRUE(r) << r.error().describe();
    EXPECT_EQ(r->trace->ranks.size(), 1u);
    EXPECT_TRUE(collectives(*r->trace, 0, core::sim::kComputeStream).empty());
    EXPECT_EQ(r->stats.allreducesPerStep, 0);
    EXPECT_EQ(r->stats.exposedCommShare, 0.0);
}

TEST(Simulator, TraceHasTheShapeOfACapture) {
    auto c = smallConfig(8, 2, 2);
    c.cluster.gpusPerNode = 4;
    c.cluster.nodes = 2;
    c.cluster.interFabric = *catalog().fabric("ib-ndr");
    auto r = core::sim::simulate(c);
    ASSERT_TRUE(r) << r.error().describe();
    const auto& t = *r->trace;
    EXPECT_EQ(t.origin, core::TraceOrigin::Simulated);
    ASSERT_EQ(t.ranks.size(), 8u);
    for (std::size_t i = 0; i < 8; ++i) {
        const auto& rank = t.ranks[i];
        EXPECT_EQ(rank.id.value, i);
        EXPECT_EQ(rank.host, i < 4 ? "node0" : "node1");
        EXPECT_EQ(rank.deviceIndex, static_cast<int>(i % 4));
        EXPECT_EQ(rank.deviceName, c.cluster.gpu.name);
        ASSERT_EQ(rank.streams.size(), 1u);
        EXPECT_EQ(rank.streams[0].id, core::sim::kComputeStream);
        EXPECT_EQ(rank.streams[0].label, "compute");
    }
    for (const char* key : {"model", "gpu", "fabric", "tp", "batch", "tokens", "context", "dtype", "seed", "overlap"}) {
        EXPECT_FALSE(t.metadataValue(key).empty()) << key;
    }
    EXPECT_EQ(t.metadataValue("tp"), "8");
    EXPECT_EQ(t.metadataValue("vocab_parallel"), "");  // said only for the replicated layout
    {
        core::sim::SimConfig whole = c;
        whole.plan.vocabParallel = false;
        auto w = core::sim::simulate(whole);
        ASSERT_TRUE(w) << w.error().describe();
        EXPECT_EQ(w->trace->metadataValue("vocab_parallel"), "false");
    }
    // NVTX: per step one "step N", per layer "layer i" with "attention" then "mlp" nested inside.
    const auto& ranges = t.ranks[3].ranges;
    const int layers = static_cast<int>(c.plan.model.layers);
    ASSERT_EQ(ranges.size(), static_cast<std::size_t>(c.tokens * (1 + 3 * layers)));
    std::map<int, int> perDepth;
    std::optional<core::NvtxRange> step;
    std::optional<core::NvtxRange> layer;
    for (const auto& range : ranges) {
        ++perDepth[range.depth];
        EXPECT_LE(range.startNs, range.endNs);
        const auto name = t.name(range.name);
        if (range.depth == 0) {
            EXPECT_EQ(name.substr(0, 5), "step ");
            step = range;
        } else if (range.depth == 1) {
            EXPECT_EQ(name.substr(0, 6), "layer ");
            ASSERT_TRUE(step);
            EXPECT_GE(range.startNs, step->startNs);
            EXPECT_LE(range.endNs, step->endNs);
            layer = range;
        } else {
            EXPECT_TRUE(name == "attention" || name == "mlp") << name;
            ASSERT_TRUE(layer);
            EXPECT_GE(range.startNs, layer->startNs);
            EXPECT_LE(range.endNs, layer->endNs);
        }
    }
    EXPECT_EQ(perDepth[0], c.tokens);
    EXPECT_EQ(perDepth[1], c.tokens * layers);
}

TEST(Simulator, EveryKernelNameClassifiesToTheKindTheSimulatorGaveIt) {
    for (const char* gpu : {"h100-sxm", "a100-sxm", "b200", "l40s"}) {
        for (const auto dtype : {core::Dtype::Fp16, core::Dtype::Bf16}) {
            for (const int batch : {1, 64}) {
                auto c = smallConfig(2, batch, 1);
                c.cluster.gpu = *catalog().gpu(gpu);
                c.plan.dtype = dtype;
                auto r = core::sim::simulate(c);
                ASSERT_TRUE(r) << r.error().describe();
                const auto& t = *r->trace;
                const auto& events = t.ranks[0].streams[0].events;
                std::set<std::uint32_t> seen;
                for (std::size_t i = 0; i < events.size(); ++i) {
                    if (!seen.insert(events.name(i).value).second) continue;
                    const auto name = t.name(events.name(i));
                    const auto cls = core::KernelClassifier::builtin().classify(name);
                    EXPECT_EQ(cls.kind, events.kind(i)) << gpu << ": " << name;
                    if (events.kind(i) == EventKind::Collective) {
                        const auto& p = t.payload(events.payload(i)).collective;
                        EXPECT_EQ(cls.collective.op, p.op) << name;
                        EXPECT_EQ(cls.collective.algo, p.algo) << name;
                        EXPECT_EQ(cls.collective.proto, p.proto) << name;
                        EXPECT_EQ(p.groupSize, 2u);
                    }
                    if (events.kind(i) == EventKind::Gemm) {
                        EXPECT_EQ(t.payload(events.payload(i)).gemm.m, static_cast<std::uint32_t>(batch));
                    }
                }
            }
        }
    }
}

TEST(Simulator, OverlapRunsCollectivesOnTheNcclStreamBesideComputeOfTheOtherHalfBatch) {
    auto c = smallConfig(4, 8, 2);
    c.params.overlap = true;
    c.params.setRuntime(core::sim::Runtime::CudaGraphs);  // a host that keeps up: overlap is the GPU's
    auto r = core::sim::simulate(c);
    ASSERT_TRUE(r) << r.error().describe();
    const auto& rank = r->trace->ranks[0];
    ASSERT_EQ(rank.streams.size(), 2u);
    const auto* nccl = rank.findStream(core::sim::kNcclStream);
    ASSERT_NE(nccl, nullptr);
    EXPECT_EQ(nccl->label, "nccl");
    const auto comm = collectives(*r->trace, 0, core::sim::kNcclStream);
    EXPECT_TRUE(collectives(*r->trace, 0, core::sim::kComputeStream).empty());
    const int layers = static_cast<int>(c.plan.model.layers);
    // Each layer's two all-reduces run once per half batch; embedding and logits stay whole.
    EXPECT_EQ(comm.size(), static_cast<std::size_t>(c.tokens * (4 * layers + 2)));
    const auto summary = core::analysis::summarizeComm(rank);
    EXPECT_LT(summary.exposedNs, summary.commNs);
}

TEST(Simulator, OverlapWithOneSequenceCannotHideTheAllReduce) {
    auto c = smallConfig(4, 1, 2);
    c.params = SimParams::deterministic();
    c.params.overlap = true;
    auto r = core::sim::simulate(c);
    ASSERT_TRUE(r) << r.error().describe();
    const auto summary = core::analysis::summarizeComm(r->trace->ranks[0]);
    EXPECT_DOUBLE_EQ(summary.exposedNs, summary.commNs);
}

// A compute kernel's [start, end) overlaps a collective of its rank.
bool overlapsAny(std::int64_t start, std::int64_t end, const std::vector<core::EventRecord>& comm) {
    for (const auto& c : comm) {
        if (c.startNs < end && start < c.startNs + c.durNs) return true;
    }
    return false;
}

TEST(Simulator, OverlapSlowsMemoryBoundKernelsOnlyWhileACollectiveMovesBytes) {
    auto c = smallConfig(4, 8, 2);
    c.params = SimParams::deterministic();
    c.params.overlap = true;
    c.params.setRuntime(core::sim::Runtime::CudaGraphs);  // a host that keeps up: overlap is the GPU's
    auto contended = core::sim::simulate(c);
    c.params.ncclHbmBytesPerWireByte = 0;  // collectives take no HBM: the same program, unslowed
    auto free = core::sim::simulate(c);
    ASSERT_TRUE(contended) << contended.error().describe();
    ASSERT_TRUE(free) << free.error().describe();
    const auto comm = collectives(*contended->trace, 0, core::sim::kNcclStream);
    const auto& a = contended->trace->ranks[0].findStream(core::sim::kComputeStream)->events;
    const auto& b = free->trace->ranks[0].findStream(core::sim::kComputeStream)->events;
    ASSERT_EQ(a.size(), b.size());
    std::size_t slowed = 0;
    for (std::size_t i = 0; i < a.size(); ++i) {
        // Deterministic: kernel i has the same work in both runs, so only contention can lengthen it,
        // and only a kernel that overlaps a collective (±1 ns of rounding).
        if (overlapsAny(a.startNs(i), a.endNs(i), comm)) {
            EXPECT_GE(a.durNs(i) + 1, b.durNs(i)) << "kernel " << i;
            slowed += a.durNs(i) > b.durNs(i) + 1 ? 1 : 0;
        } else {
            EXPECT_NEAR(a.durNs(i), b.durNs(i), 1) << "kernel " << i;
        }
    }
    EXPECT_GT(slowed, 0u);
    EXPECT_GT(contended->trace->endNs(), free->trace->endNs());
}

TEST(Simulator, TpLargerThanTheClusterIsOneClearError) {
    auto c = smallConfig(16, 1);
    auto r = core::sim::simulate(c);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().code, core::ErrorCode::InvalidArgument);
    EXPECT_NE(r.error().message.find("needs 16 GPUs"), std::string::npos) << r.error().message;
}

TEST(Simulator, ModelThatDoesNotFitNamesTheShortfallUnlessIgnored) {
    auto c = simConfig("llama3-70b", "h100-sxm", "nvlink4", 1, 1, 1);
    auto r = core::sim::simulate(c);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().code, core::ErrorCode::DoesNotFit);
    EXPECT_NE(r.error().message.find("short by"), std::string::npos) << r.error().message;
    c.ignoreMemory = true;
    auto forced = core::sim::simulate(c);
    ASSERT_TRUE(forced) << forced.error().describe();
    EXPECT_FALSE(forced->fit.fits);
}

TEST(Simulator, ZeroTokensIsRejected) {
    auto c = smallConfig(2, 1, 0);
    auto r = core::sim::simulate(c);
    ASSERT_FALSE(r);
    EXPECT_NE(r.error().message.find("tokens"), std::string::npos);
}

TEST(Simulator, RaisedCancelFlagStopsTheRun) {
    auto c = smallConfig(2, 1, 4);
    core::CancelFlag cancel{true};
    auto r = core::sim::simulate(c, {{}, &cancel});
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().code, core::ErrorCode::Cancelled);
}

TEST(Simulator, ReportsEveryDecodeStepAndStopsAtTheStepAfterACancel) {
    const int tokens = 5;
    auto c = smallConfig(2, 1, tokens);
    std::vector<double> fractions;
    ASSERT_TRUE(core::sim::simulate(c, {[&](double f) { fractions.push_back(f); }}));
    ASSERT_EQ(fractions.size(), static_cast<std::size_t>(tokens));
    for (int i = 0; i < tokens; ++i) EXPECT_DOUBLE_EQ(fractions[i], (i + 1.0) / tokens);

    // Raised during step 2's report: step 3 never starts.
    core::CancelFlag cancel{false};
    fractions.clear();
    auto r = core::sim::simulate(c, {[&](double f) {
                                         fractions.push_back(f);
                                         if (fractions.size() == 2) cancel.store(true);
                                     },
                                     &cancel});
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().code, core::ErrorCode::Cancelled);
    EXPECT_EQ(fractions.size(), 2u);
    EXPECT_NE(r.error().context.find("step 2"), std::string::npos) << r.error().describe();
}

}  // namespace
}  // namespace tpscope::test
