// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include <gtest/gtest.h>

#include <algorithm>

#include "core/analysis/layer_segmentation.h"
#include "trace_builder_fixtures.h"

namespace tpscope::core::analysis {
namespace {

using test::TraceBuilder;

TEST(LayerSegmentation, LayerNamesParseButLayerNormDoesNot) {
    EXPECT_EQ(parseLayerIndex("layer 12", "layer"), 12);
    EXPECT_EQ(parseLayerIndex("Layer_3", "layer"), 3);
    EXPECT_EQ(parseLayerIndex("layers.7.mlp", "layer"), 7);
    EXPECT_EQ(parseLayerIndex("LayerNorm", "layer"), -1);
    EXPECT_EQ(parseLayerIndex("layer3norm", "layer"), -1);
    EXPECT_EQ(parseLayerIndex("mlp", "layer"), -1);
    EXPECT_EQ(parseTrailingNumber("ProfilerStep#1009"), 1009);
    EXPECT_EQ(parseTrailingNumber("step"), -1);
}

TEST(LayerSegmentation, NvtxStepsAndLayersAreUsedWhenPresent) {
    const auto trace = test::makeDecodeTrace({.ranks = 2, .steps = 2, .layers = 3});
    const auto seg = segmentLayers(*trace);
    ASSERT_EQ(seg.ranks.size(), 2u);
    for (const auto& r : seg.ranks) {
        EXPECT_EQ(r.source, SegmentationSource::Nvtx);
        ASSERT_EQ(r.steps.size(), 2u);
        ASSERT_EQ(r.layers.size(), 6u);
        EXPECT_EQ(r.steps[1].key, 1);
        EXPECT_EQ(r.layers[4].step, 1);
        EXPECT_EQ(r.layers[4].layer, 1);
    }
    EXPECT_TRUE(seg.notes.empty());
}

TEST(LayerSegmentation, PatternRuleSplitsLayersAtEverySecondAllReduce) {
    // No NVTX: 3 layers of 2 blocks, as the fixture builds them.
    const test::DecodeFixture f{.ranks = 2, .steps = 1, .layers = 3, .computeNs = 1000, .arNs = 200, .nvtx = false};
    const auto trace = test::makeDecodeTrace(f);
    const auto seg = segmentLayers(*trace);
    const auto& r = seg.ranks[0];
    EXPECT_EQ(r.source, SegmentationSource::Pattern);
    ASSERT_EQ(r.steps.size(), 1u);
    ASSERT_EQ(r.layers.size(), 3u);
    const std::int64_t layerNs = 2 * (f.computeNs + f.arNs);
    for (int i = 0; i < 3; ++i) {
        EXPECT_EQ(r.layers[i].layer, i);
        EXPECT_EQ(r.layers[i].startNs, 1'000'000 + i * layerNs);
        EXPECT_EQ(r.layers[i].endNs, 1'000'000 + (i + 1) * layerNs);
    }
    ASSERT_FALSE(seg.notes.empty());
    EXPECT_NE(seg.notes[0].find("pattern rule"), std::string::npos);
}

TEST(LayerSegmentation, PatternRuleHonoursLeadingBlocksAndLayersPerStep) {
    // 2 steps x (1 embedding all-reduce + 2 layers x 2 blocks) = 10 all-reduces of 100 ns each.
    TraceBuilder b;
    std::int64_t t = 0;
    for (int i = 0; i < 10; ++i) {
        b.gemm(0, t, t + 50);
        b.allReduce(0, t + 50, t + 100);
        t += 100;
    }
    const auto trace = b.build();
    SegmentationOptions o;
    o.leadingBlocks = 1;
    o.layersPerStep = 2;
    const auto seg = segmentLayers(*trace, o);
    const auto& r = seg.ranks[0];
    ASSERT_EQ(r.steps.size(), 2u);
    ASSERT_EQ(r.layers.size(), 4u);
    EXPECT_EQ(r.layers[0].startNs, 100);  // after the embedding block
    EXPECT_EQ(r.layers[0].endNs, 300);
    EXPECT_EQ(r.layers[2].step, 1);
    EXPECT_EQ(r.layers[2].startNs, 600);
    EXPECT_EQ(r.steps[1].startNs, 500);
    EXPECT_EQ(r.steps[1].endNs, 1000);
    EXPECT_EQ(r.leftoverBlocks, 0u);
}

TEST(LayerSegmentation, PatternRuleCountsLeftoverBlocksAndIgnoresOtherCollectives) {
    TraceBuilder b;
    b.gemm(0, 0, 10).allReduce(0, 10, 20);
    b.collective(0, 20, 30, 0, CollectiveOp::AllGather);  // logits all-gather: not a block end
    b.allReduce(0, 30, 40);
    b.allReduce(0, 40, 50);  // third block: no full layer
    const auto seg = segmentLayers(*b.build());
    ASSERT_EQ(seg.ranks[0].layers.size(), 1u);
    EXPECT_EQ(seg.ranks[0].layers[0].endNs, 40);
    EXPECT_EQ(seg.ranks[0].leftoverBlocks, 1u);
    SegmentationOptions all;
    all.allCollectivesCloseBlocks = true;
    const auto seg2 = segmentLayers(*b.build(), all);
    EXPECT_EQ(seg2.ranks[0].layers.size(), 2u);
}

TEST(LayerSegmentation, PatternRuleRunsInsideNvtxStepsWhenOnlyStepsExist) {
    TraceBuilder b;
    b.step(0, 5, 0, 100).step(0, 6, 100, 200);
    for (const std::int64_t base : {0, 100}) {
        b.gemm(0, base, base + 20).allReduce(0, base + 20, base + 30);
        b.gemm(0, base + 30, base + 50).allReduce(0, base + 50, base + 60);
    }
    const auto seg = segmentLayers(*b.build());
    const auto& r = seg.ranks[0];
    EXPECT_EQ(r.source, SegmentationSource::Pattern);
    ASSERT_EQ(r.layers.size(), 2u);
    EXPECT_EQ(r.layers[0].step, 5);
    EXPECT_EQ(r.layers[1].step, 6);
    EXPECT_EQ(r.layers[1].startNs, 100);  // the step's start
    EXPECT_EQ(r.layers[1].endNs, 160);
}

TEST(LayerSegmentation, LayerRangesWithoutStepsStartANewStepWhenTheIndexDrops) {
    TraceBuilder b;
    b.layer(0, 0, 0, 10).layer(0, 1, 10, 20).layer(0, 0, 30, 40).layer(0, 1, 40, 50);
    b.gemm(0, 0, 50);
    const auto seg = segmentLayers(*b.build());
    const auto& r = seg.ranks[0];
    ASSERT_EQ(r.steps.size(), 2u);
    EXPECT_EQ(r.layers[2].step, 1);
    EXPECT_EQ(r.steps[1].startNs, 30);
    EXPECT_EQ(r.steps[1].endNs, 50);
}

TEST(LayerSegmentation, NestedModuleRangesCountEachLayerOnce) {
    TraceBuilder b;
    b.step(0, 0, 0, 100).range(0, "layers.0", 1, 0, 50).range(0, "layers.0.mlp", 2, 20, 50);
    b.range(0, "layers.1", 1, 50, 100).range(0, "layers.1.mlp", 2, 70, 100).gemm(0, 0, 100);
    const auto seg = segmentLayers(*b.build());
    ASSERT_EQ(seg.ranks[0].layers.size(), 2u);
    EXPECT_EQ(seg.ranks[0].layers[1].layer, 1);
    EXPECT_EQ(seg.ranks[0].layers[1].startNs, 50);
}

TEST(LayerSegmentation, LayerRangesOutsideStepsAreCountedAndReported) {
    TraceBuilder b;
    b.step(0, 0, 0, 100).layer(0, 0, 10, 50).layer(0, 1, 150, 200);
    b.gemm(0, 0, 200);
    const auto seg = segmentLayers(*b.build());
    EXPECT_EQ(seg.ranks[0].layers.size(), 1u);
    EXPECT_EQ(seg.ranks[0].ignoredLayerRanges, 1u);
    ASSERT_FALSE(seg.notes.empty());
}

// Issue 27: a step range around two forward passes (no layer ranges, no collectives: the repeat
// rule) numbers the second pass's layers on from the first's, so (step, layer) stays a key.
TEST(LayerSegmentation, AStepHoldingTwoForwardPassesKeepsItsLayerKeysUnique) {
    constexpr int kLayers = 5;
    TraceBuilder b;
    std::int64_t t = 0;
    const auto k = [&](EventKind kind, std::string_view name) {
        b.kernel(0, kind, t, t + 5, test::kComputeStream, name);
        t += 10;
    };
    for (int pass = 0; pass < 2; ++pass) {
        k(EventKind::Other, "embedding");
        for (int layer = 0; layer < kLayers; ++layer) {
            k(EventKind::Elementwise, layer == 0 ? "rms_norm" : "fused_add_rms_norm");
            k(EventKind::Gemm, "qkv_gemm");
            k(EventKind::Attention, "flash_decode");
            k(EventKind::Gemm, "o_gemm");
            k(EventKind::Elementwise, "fused_add_rms_norm");
            k(EventKind::Gemm, "gate_up_gemm");
            k(EventKind::Elementwise, "silu_mul");
            k(EventKind::Gemm, "down_gemm");
        }
        k(EventKind::Elementwise, "final_norm");
        k(EventKind::Gemm, "lm_head");
        k(EventKind::Other, "sample");
        t += 1000;
    }
    b.step(0, 0, 0, t);
    const auto trace = b.build();
    const auto seg = segmentLayers(*trace);
    const auto& r = seg.ranks.at(0);
    ASSERT_EQ(r.source, SegmentationSource::Repeat);
    ASSERT_EQ(r.layers.size(), 2u * kLayers);
    for (std::size_t i = 0; i < r.layers.size(); ++i) {
        EXPECT_EQ(r.layers[i].step, 0);
        EXPECT_EQ(r.layers[i].layer, static_cast<int>(i)) << "layer " << i;
    }
    EXPECT_TRUE(std::any_of(seg.notes.begin(), seg.notes.end(), [](const std::string& n) {
        return n.find("several forward passes") != std::string::npos;
    }));
}

TEST(LayerSegmentation, RankWithoutEventsIsReportedNotSegmented) {
    TraceBuilder b;
    b.gemm(0, 0, 10).allReduce(0, 10, 20).emptyRank(1);
    const auto seg = segmentLayers(*b.build());
    ASSERT_EQ(seg.ranks.size(), 2u);
    EXPECT_EQ(seg.ranks[1].source, SegmentationSource::None);
    EXPECT_TRUE(seg.ranks[1].layers.empty());
    bool reported = false;
    for (const auto& n : seg.notes) reported = reported || n.find("rank 1 has no kernels") != std::string::npos;
    EXPECT_TRUE(reported);
}

}  // namespace
}  // namespace tpscope::core::analysis
