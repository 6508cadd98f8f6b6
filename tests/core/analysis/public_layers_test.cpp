// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// Issue 27 §1 on the public traces: the TP 1 Qwen1.5-0.5B trace (no NVTX layer range, no collective)
// gets its 24 decoder layers (model card: num_hidden_layers 24) from the repeating kernel sequence;
// the V100 and param traces keep their pattern-rule layers. Skipped when the traces are absent.

#include <gtest/gtest.h>

#include <filesystem>
#include <set>

#include "core/analysis/layer_segmentation.h"
#include "core/io/import/trace_reader.h"
#include "test_support.h"

namespace tpscope::test {
namespace {

using core::analysis::SegmentationSource;

std::shared_ptr<core::Trace> load(const std::string& relpath) {
    auto t = core::readTrace((publicTraces() / relpath).string());
    EXPECT_TRUE(t) << t.error().describe();
    return t ? *t : nullptr;
}

// Closing collectives of the pattern rule: all-reduces and collectives of unknown op.
std::size_t closers(const core::Trace& t, const core::Rank& r) {
    std::size_t n = 0;
    for (const auto& s : r.streams) {
        for (std::size_t i = 0; i < s.events.size(); ++i) {
            if (s.events.kind(i) != core::EventKind::Collective) continue;
            const auto op = t.payload(s.events.payload(i)).collective.op;
            n += op == core::CollectiveOp::AllReduce || op == core::CollectiveOp::Unknown ? 1 : 0;
        }
    }
    return n;
}

TEST(PublicLayers, QwenH100TraceHasItsTwentyFourLayersFromTheRepeat) {
    const char* file = "tracelens-h100-qwen/Qwen_Qwen1.5-0.5B-Chat__1016005.json.gz";
    TPSCOPE_REQUIRE_PUBLIC(file);
    const auto trace = load(file);
    ASSERT_TRUE(trace);
    const auto seg = core::analysis::segmentLayers(*trace);
    ASSERT_EQ(seg.ranks.size(), 1u);
    const auto& r = seg.ranks[0];
    EXPECT_EQ(r.source, SegmentationSource::Repeat);
    std::set<int> indices;
    for (const auto& l : r.layers) indices.insert(l.layer);
    EXPECT_EQ(indices.size(), 24u);
    EXPECT_EQ(*indices.rbegin(), 23);
    EXPECT_EQ(r.layers.size(), 24u);  // the ProfilerStep#6 window holds one whole forward pass
    for (std::size_t i = 1; i < r.layers.size(); ++i) EXPECT_LE(r.layers[i - 1].endNs, r.layers[i].startNs);
    ASSERT_FALSE(seg.notes.empty());
    EXPECT_NE(seg.notes[0].find("repeating kernel sequence"), std::string::npos);
}

std::size_t kernelsOf(const core::Trace& t, core::EventKind kind) {
    std::size_t n = 0;
    for (const auto& r : t.ranks) {
        for (const auto& s : r.streams) {
            for (const auto k : s.events.kinds()) n += static_cast<core::EventKind>(k) == kind ? 1 : 0;
        }
    }
    return n;
}

// Issue 43 §1: the MI300X twin of the H100 trace (same model, same workload, ROCm: every kernel
// carries args.kind "Dispatch Kernel") gives the same 24 layers and the same GEMMs within 2.
TEST(PublicLayers, Mi300xAndH100QwenTracesAgreeOnLayersAndGemms) {
    const char* h100File = "tracelens-h100-qwen/Qwen_Qwen1.5-0.5B-Chat__1016005.json.gz";
    const char* mi300File = "tracelens-mi300-qwen/Qwen_Qwen1.5-0.5B-Chat__1016005.json.gz";
    TPSCOPE_REQUIRE_PUBLIC(h100File);
    TPSCOPE_REQUIRE_PUBLIC(mi300File);
    const auto h100 = load(h100File);
    const auto mi300 = load(mi300File);
    ASSERT_TRUE(h100 && mi300);
    const auto segH = core::analysis::segmentLayers(*h100);
    const auto segM = core::analysis::segmentLayers(*mi300);
    ASSERT_EQ(segM.ranks.size(), 1u);
    EXPECT_EQ(segM.ranks[0].layers.size(), 24u);
    EXPECT_EQ(segM.ranks[0].layers.size(), segH.ranks.at(0).layers.size());
    const std::size_t gemmH = kernelsOf(*h100, core::EventKind::Gemm);
    const std::size_t gemmM = kernelsOf(*mi300, core::EventKind::Gemm);
    EXPECT_GE(gemmM, 240u);  // SOURCES.md: 243 Cijk_ hipBLASLt/Tensile kernels
    EXPECT_LE(gemmM > gemmH ? gemmM - gemmH : gemmH - gemmM, 2u) << gemmH << " vs " << gemmM;
    EXPECT_GT(kernelsOf(*mi300, core::EventKind::Attention), 0u);
}

TEST(PublicLayers, CollectiveTracesKeepThePatternRule) {
    for (const char* file : {"hta-df_index_resolver/df_index_resolver.json.gz", "param-dlrm_kineto-8rank"}) {
        if (!std::filesystem::exists(publicTraces() / file)) GTEST_SKIP() << file << " not found";
        const auto trace = load(file);
        ASSERT_TRUE(trace);
        const auto seg = core::analysis::segmentLayers(*trace);
        ASSERT_EQ(seg.ranks.size(), trace->ranks.size());
        for (std::size_t i = 0; i < seg.ranks.size(); ++i) {
            const auto& r = seg.ranks[i];
            EXPECT_EQ(r.source, SegmentationSource::Pattern) << file << " rank " << i;
            // One step's closers, 2 blocks per layer (no step ranges here: one step per rank, or the
            // profiler steps of df_index_resolver, each with an even number of all-reduces).
            EXPECT_EQ(r.layers.size() + r.leftoverBlocks / 2, closers(*trace, trace->ranks[i]) / 2)
                << file << " rank " << i;
        }
    }
}

}  // namespace
}  // namespace tpscope::test
