// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// Captures of a tiny model on real GPUs: kernels, NVTX ranges, attribution, modes, errors.

#include <algorithm>
#include <string>

#include "core/workload/decode_plan.h"
#include "gpu/capture.h"
#include "gpu_test_support.h"

namespace tpscope::gpu {
namespace {

CaptureOptions tinyCapture(int tp, int batch) {
    CaptureOptions o;
    o.model = test::tinyModel();
    o.tp = tp;
    o.batch = batch;
    o.tokens = 3;
    o.warmupSteps = 1;
    o.contextLen = 128;
    o.hangTimeoutMs = 30'000;
    return o;
}

std::size_t rangesAtDepth(const core::Trace& t, const core::Rank& r, int depth, std::string_view prefix) {
    return static_cast<std::size_t>(std::count_if(r.ranges.begin(), r.ranges.end(), [&](const core::NvtxRange& x) {
        return x.depth == depth && t.name(x.name).substr(0, prefix.size()) == prefix;
    }));
}

std::size_t eventsOfKind(const core::Rank& r, core::EventKind kind) {
    std::size_t n = 0;
    for (const auto& s : r.streams) {
        for (std::size_t i = 0; i < s.events.size(); ++i) n += s.events.kind(i) == kind;
    }
    return n;
}

// Ops, not kernels: a plan op may launch several kernels of its kind back to back (split-KV
// attention launches a split kernel and a combine kernel), so an op is a run of consecutive events
// of the kind on one stream; another op's kernel (the GEMMs around attention) ends the run.
std::size_t opsOfKind(const core::Rank& r, core::EventKind kind) {
    std::size_t n = 0;
    for (const auto& s : r.streams) {
        bool inRun = false;
        for (std::size_t i = 0; i < s.events.size(); ++i) {
            const bool match = s.events.kind(i) == kind;
            n += match && !inRun;
            inRun = match;
        }
    }
    return n;
}

TEST(CaptureOneGpu, EagerStepsHaveEveryKernelKindAndNestedRanges) {
    TPSCOPE_REQUIRE_CUDA_DEVICE(1);
    const CaptureOptions o = tinyCapture(1, 2);
    auto rep = runCapture(o);
    ASSERT_TRUE(rep.ok()) << rep.error().describe();
    ASSERT_TRUE(rep->failure.empty()) << rep->failure;
    const core::Trace& t = rep->trace;
    ASSERT_EQ(t.ranks.size(), 1u);
    const core::Rank& r = t.ranks[0];
    auto plan = core::buildDecodePlan({o.model, 1, o.batch, o.contextLen, o.dtype});
    ASSERT_TRUE(plan.ok());
    EXPECT_GE(r.eventCount(), plan->ops.size() * static_cast<std::size_t>(o.tokens));  // >= 1 kernel per op
    EXPECT_GT(eventsOfKind(r, core::EventKind::Gemm), 0u);
    // One attention op per layer per token, of one or two kernels (split-KV: split + combine).
    EXPECT_EQ(opsOfKind(r, core::EventKind::Attention), static_cast<std::size_t>(o.model.layers * o.tokens));
    EXPECT_GE(eventsOfKind(r, core::EventKind::Attention), opsOfKind(r, core::EventKind::Attention));
    EXPECT_LE(eventsOfKind(r, core::EventKind::Attention), 2 * opsOfKind(r, core::EventKind::Attention));
    EXPECT_GT(eventsOfKind(r, core::EventKind::Elementwise), 0u);
    const auto tokens = static_cast<std::size_t>(o.tokens), layers = static_cast<std::size_t>(o.model.layers);
    EXPECT_EQ(rangesAtDepth(t, r, 0, "step "), tokens);
    EXPECT_EQ(rangesAtDepth(t, r, 1, "layer "), layers * tokens);
    EXPECT_EQ(rangesAtDepth(t, r, 2, "attention"), layers * tokens);
    EXPECT_EQ(rangesAtDepth(t, r, 2, "mlp"), layers * tokens);
    EXPECT_EQ(t.metadataValue("cupti.dropped_records"), "0");
    EXPECT_NE(t.metadataValue("cupti.attributed_events"), "0");
    EXPECT_EQ(t.metadataValue("cupti.unattributed_kernels"), "0");  // every kernel has its op tag
    EXPECT_EQ(t.metadataValue("cupti.foreign_markers"), "0");       // TP 1: no NCCL, no NCCL ranges
    EXPECT_EQ(t.origin, core::TraceOrigin::Captured);
    ASSERT_EQ(rep->stepNs.size(), tokens);
    for (const auto ns : rep->stepNs) EXPECT_GT(ns, 0);
}

TEST(CaptureOneGpu, GraphReplayGetsLayerRangesFromItsNodes) {
    TPSCOPE_REQUIRE_CUDA_DEVICE(1);
    CaptureOptions o = tinyCapture(1, 1);
    o.graph = true;
    auto rep = runCapture(o);
    ASSERT_TRUE(rep.ok()) << rep.error().describe();
    ASSERT_TRUE(rep->failure.empty()) << rep->failure;
    const core::Rank& r = rep->trace.ranks.at(0);
    EXPECT_EQ(rangesAtDepth(rep->trace, r, 0, "step "), static_cast<std::size_t>(o.tokens));
    EXPECT_EQ(rangesAtDepth(rep->trace, r, 1, "layer "), static_cast<std::size_t>(o.model.layers * o.tokens));
    EXPECT_EQ(opsOfKind(r, core::EventKind::Attention), static_cast<std::size_t>(o.model.layers * o.tokens));
    // Graph kernels get their op through their (cloned) node: none is left without a tag.
    EXPECT_EQ(rep->trace.metadataValue("cupti.unattributed_kernels"), "0");
}

// Several CUPTI sessions in one process (this binary, the window): a buffer of the first session that
// CUPTI completes during the second must not wrap the second's buffer count (activity_buffers.h),
// which then refused every buffer.
TEST(CaptureOneGpu, TwoCuptiSessionsInOneProcessRefuseNoBuffer) {
    TPSCOPE_REQUIRE_CUDA_DEVICE(1);
    for (int session = 0; session < 2; ++session) {
        auto rep = runCapture(tinyCapture(1, 1));
        ASSERT_TRUE(rep.ok()) << rep.error().describe();
        ASSERT_TRUE(rep->failure.empty()) << rep->failure;
        EXPECT_EQ(rep->trace.metadataValue("cupti.buffers_refused"), "0") << "session " << session;
        EXPECT_EQ(rep->trace.metadataValue("cupti.dropped_records"), "0") << "session " << session;
        EXPECT_GT(rep->trace.eventCount(), 0u) << "session " << session;
    }
}

TEST(CaptureOneGpu, WithoutCuptiOnlyStepTimesAreMeasured) {
    TPSCOPE_REQUIRE_CUDA_DEVICE(1);
    CaptureOptions o = tinyCapture(1, 1);
    o.collect = false;
    auto rep = runCapture(o);
    ASSERT_TRUE(rep.ok()) << rep.error().describe();
    EXPECT_EQ(rep->stepNs.size(), static_cast<std::size_t>(o.tokens));
    EXPECT_EQ(rep->trace.eventCount(), 0u);
}

TEST(CaptureOneGpu, ModelThatDoesNotFitNamesTheMemoryNeeded) {
    TPSCOPE_REQUIRE_CUDA_DEVICE(1);
    CaptureOptions o = tinyCapture(1, 1);
    o.model.hidden = 16384;
    o.model.ffn = 53248;
    o.model.heads = 128;
    o.model.kvHeads = 8;
    o.model.headDim = 128;
    o.model.layers = 126;  // Llama-3 405B: about 800 GB in fp16
    auto rep = runCapture(o);
    ASSERT_TRUE(rep.ok()) << rep.error().describe();
    EXPECT_NE(rep->failure.find("needs"), std::string::npos) << rep->failure;
    EXPECT_NE(rep->failure.find("free"), std::string::npos) << rep->failure;
}

TEST(CaptureOneGpu, MoreRanksThanGpusIsOneClearError) {
    TPSCOPE_REQUIRE_CUDA_DEVICE(1);
    const int count = static_cast<int>(listDevices()->size());
    if (count >= 8) GTEST_SKIP() << "this host has 8 GPUs";
    auto rep = runCapture(tinyCapture(8, 1));
    ASSERT_FALSE(rep.ok());
    EXPECT_NE(rep.error().message.find("needs 8 GPUs"), std::string::npos) << rep.error().message;
}

TEST(CaptureTwoGpus, AllReducesCarryTheirMessageBytesOnEveryRank) {
    TPSCOPE_REQUIRE_CUDA_DEVICE(2);
    CaptureOptions o = tinyCapture(2, 4);
    o.overlap = true;
    auto rep = runCapture(o);
    ASSERT_TRUE(rep.ok()) << rep.error().describe();
    ASSERT_TRUE(rep->failure.empty()) << rep->failure;
    const core::Trace& t = rep->trace;
    ASSERT_EQ(t.ranks.size(), 2u);
    // Blocking communicators: NCCL's kernels are launched from the rank's thread, under its op tag.
    EXPECT_EQ(t.metadataValue("cupti.unattributed_kernels"), "0");
    EXPECT_EQ(t.metadataValue("cupti.foreign_markers"), "0");  // NCCL_NVTX_DISABLE=1
    for (const core::Rank& r : t.ranks) {
        std::size_t withBytes = 0;
        for (const auto& s : r.streams) {
            for (std::size_t i = 0; i < s.events.size(); ++i) {
                if (s.events.kind(i) != core::EventKind::Collective) continue;
                const core::Payload& p = t.payload(s.events.payload(i));
                if (p.kind == core::PayloadKind::Collective && p.collective.groupSize == 2 && p.collective.bytes > 0)
                    ++withBytes;
            }
        }
        EXPECT_GE(withBytes, static_cast<std::size_t>(2 * o.model.layers * o.tokens)) << "rank " << r.id.value;
    }
}

}  // namespace
}  // namespace tpscope::gpu
