// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// Issue 43 §3 on hand-built kernel sequences: layers that alternate kinds make a repeating unit of two
// layers. Without a second attention kernel run the unit is split at every second all-reduce; where
// it cannot be split, the pattern rule's layer count (from the all-reduces) is kept, never halved.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/analysis/layer_segmentation.h"

namespace tpscope::test {
namespace {

using core::EventKind;
using core::analysis::SegmentationSource;

struct K {
    const char* name;
    EventKind kind;
};

// One rank, one stream: `layers` layers, layer i running kernels `kinds[i % 2]`, 1 µs each, back to back.
core::Trace trace(const std::vector<K>& even, const std::vector<K>& odd, int layers) {
    core::Trace t;
    auto& stream = t.rank(core::RankId{0}).stream(core::StreamId{7});
    std::int64_t at = 0;
    for (int l = 0; l < layers; ++l) {
        for (const K& k : l % 2 == 0 ? even : odd) {
            core::EventRecord e;
            e.name = t.intern(k.name);
            e.kind = k.kind;
            e.startNs = at;
            e.durNs = 1000;
            at += 1000;
            stream.events.append(e);
        }
    }
    t.finalize();
    return t;
}

const std::vector<K> kFullLayer{{"rms_norm_kernel", EventKind::Elementwise},
                                {"sm90_xmma_gemm_qkv", EventKind::Gemm},
                                {"flash_fwd_kernel", EventKind::Attention},
                                {"sm90_xmma_gemm_o", EventKind::Gemm},
                                {"ncclDevKernel_AllReduce_Sum_bf16_RING_LL", EventKind::Collective},
                                {"rms_norm_kernel", EventKind::Elementwise},
                                {"sm90_xmma_gemm_up", EventKind::Gemm},
                                {"silu_kernel", EventKind::Elementwise},
                                {"sm90_xmma_gemm_down", EventKind::Gemm},
                                {"ncclDevKernel_AllReduce_Sum_bf16_RING_LL", EventKind::Collective}};

// A linear-attention layer (Qwen3-Next's gated delta rule): no attention-class kernel.
std::vector<K> linearLayer() {
    auto l = kFullLayer;
    l[2] = {"chunk_gated_delta_rule_kernel", EventKind::Other};
    return l;
}

TEST(AlternatingRepeat, AUnitWithOneAttentionRunIsSplitAtEverySecondAllReduce) {
    const int layers = 8;
    const auto seg = core::analysis::segmentLayers(trace(kFullLayer, linearLayer(), layers));
    const auto& r = seg.ranks.at(0);
    EXPECT_EQ(r.repeatLayerCount, static_cast<std::size_t>(layers));
    EXPECT_EQ(r.repeatLayersPerUnit, 2u);
    EXPECT_EQ(r.repeatSplitBy, core::analysis::UnitSplit::Collectives);
    EXPECT_EQ(r.patternLayerCount, static_cast<std::size_t>(layers));  // two all-reduces per layer
    EXPECT_EQ(r.layers.size(), static_cast<std::size_t>(layers));
    EXPECT_EQ(r.source, SegmentationSource::Pattern);  // the two rules agree: the collectives' blocks kept
}

TEST(AlternatingRepeat, APatternCountTheRepeatCannotSplitIsKeptNotHalved) {
    // The odd layer's two all-reduces run back to back (one collective run): the unit's 3 runs cannot
    // be paired into layers, so the repeat rule sees one layer per unit, half the all-reduce count.
    auto odd = linearLayer();
    odd.erase(odd.begin() + 4);
    odd.push_back({"ncclDevKernel_AllReduce_Sum_bf16_RING_LL", EventKind::Collective});
    const int layers = 8;
    const auto seg = core::analysis::segmentLayers(trace(kFullLayer, odd, layers));
    const auto& r = seg.ranks.at(0);
    EXPECT_EQ(r.repeatLayerCount, static_cast<std::size_t>(layers / 2));
    EXPECT_EQ(r.patternLayerCount, static_cast<std::size_t>(layers));
    EXPECT_TRUE(r.patternKeptAsMultiple);
    EXPECT_EQ(r.source, SegmentationSource::Pattern);
    EXPECT_EQ(r.layers.size(), static_cast<std::size_t>(layers));
    bool said = false;
    for (const auto& n : seg.notes) said = said || n.find("never divided") != std::string::npos;
    EXPECT_TRUE(said);
}

TEST(AlternatingRepeat, TwoAttentionKindsWithoutCollectivesSplitTheUnitByAttention) {
    auto sliding = kFullLayer;
    sliding[2] = {"flash_fwd_kernel_local", EventKind::Attention};
    std::erase_if(sliding, [](const K& k) { return k.kind == EventKind::Collective; });
    auto full = kFullLayer;
    std::erase_if(full, [](const K& k) { return k.kind == EventKind::Collective; });
    const int layers = 6;
    const auto seg = core::analysis::segmentLayers(trace(sliding, full, layers));
    const auto& r = seg.ranks.at(0);
    EXPECT_EQ(r.source, SegmentationSource::Repeat);
    EXPECT_EQ(r.repeatPeriod, 2 * full.size());
    EXPECT_EQ(r.repeatSplitBy, core::analysis::UnitSplit::Attention);
    ASSERT_EQ(r.layers.size(), static_cast<std::size_t>(layers));
    for (std::size_t i = 0; i < r.layers.size(); ++i) {
        EXPECT_EQ(r.layers[i].layer, static_cast<int>(i));
        // Each layer starts at its input norm: i x (kernels per layer) µs.
        EXPECT_EQ(r.layers[i].startNs, static_cast<std::int64_t>(i * full.size()) * 1000);
    }
}

}  // namespace
}  // namespace tpscope::test
