// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// Attention and MLP blocks inside layers (layer_blocks.h): the kernel-kind split on hand-built kernel
// sequences, NVTX block ranges, and the public TP 1 Qwen trace (skipped when absent).

#include <gtest/gtest.h>

#include <array>
#include <vector>

#include "core/analysis/layer_blocks.h"
#include "core/io/import/trace_reader.h"
#include "test_support.h"
#include "trace_builder_fixtures.h"

namespace tpscope::test {
namespace {

using core::EventKind;
using core::analysis::BlockKind;
using core::analysis::BlockWindow;
using core::analysis::LayerWindow;
using core::analysis::RepeatKernel;

// Back-to-back kernels of 10 ns from t = 0, one per kind.
std::vector<RepeatKernel> sequence(std::initializer_list<EventKind> kinds) {
    std::vector<RepeatKernel> out;
    std::int64_t t = 0;
    for (const EventKind k : kinds) {
        out.push_back({t, t + 10, 0, k});
        t += 10;
    }
    return out;
}

constexpr auto E = EventKind::Elementwise;
constexpr auto G = EventKind::Gemm;
constexpr auto A = EventKind::Attention;
constexpr auto C = EventKind::Collective;

TEST(LayerBlocks, TpOneSplitsAfterTheOutputProjection) {
    // norm, QKV, rope, attention, O-proj | residual add + norm, gate-up, act, down
    const auto k = sequence({E, G, E, A, G, E, G, E, G});
    const std::array<LayerWindow, 1> layer{LayerWindow{3, 5, 0, 90}};
    const auto d = core::analysis::splitLayersByKernelKind(k, layer);
    ASSERT_EQ(d.blocks.size(), 2U);
    EXPECT_EQ(d.unsplitLayers, 0U);
    const std::int64_t split = k[5].startNs;  // the kernel after the fifth (the O-proj GEMM)
    EXPECT_EQ(d.blocks[0].kind, BlockKind::Attention);
    EXPECT_EQ(d.blocks[0].startNs, 0);
    EXPECT_EQ(d.blocks[0].endNs, split);
    EXPECT_EQ(d.blocks[1].kind, BlockKind::Mlp);
    EXPECT_EQ(d.blocks[1].startNs, split);
    EXPECT_EQ(d.blocks[1].endNs, 90);
    for (const auto& b : d.blocks) EXPECT_EQ(b.step * 100 + b.layer, 305);
}

TEST(LayerBlocks, TheAllReduceAfterTheOutputProjectionClosesTheAttentionBlock) {
    // At TP > 1: O-proj, all-reduce | norm ... down, all-reduce.
    const auto k = sequence({E, G, A, G, C, E, G, E, G, C});
    const std::array<LayerWindow, 1> layer{LayerWindow{0, 0, 0, 100}};
    const auto d = core::analysis::splitLayersByKernelKind(k, layer);
    ASSERT_EQ(d.blocks.size(), 2U);
    EXPECT_EQ(d.blocks[0].endNs, k[5].startNs);
    EXPECT_EQ(d.blocks[1].startNs, k[5].startNs);
    EXPECT_EQ(d.blocks[1].endNs, 100);
}

TEST(LayerBlocks, TheLastAttentionKernelCountsNotTheFirst) {
    // Split-KV attention and its combine kernel both class as attention: the O-proj follows the second.
    const auto k = sequence({E, G, A, E, A, G, E, G});
    const std::array<LayerWindow, 1> layer{LayerWindow{0, 0, 0, 80}};
    const auto d = core::analysis::splitLayersByKernelKind(k, layer);
    ASSERT_EQ(d.blocks.size(), 2U);
    EXPECT_EQ(d.blocks[0].endNs, k[6].startNs);
}

TEST(LayerBlocks, LayersWithoutAnAttentionKernelOrAGemmAfterItAreNotSplit) {
    const auto noAttention = sequence({E, G, E, G, E, G});
    const auto noProjection = sequence({E, G, A, E, E});
    const auto nothingAfter = sequence({E, G, A, G, C});
    for (const auto* k : {&noAttention, &noProjection, &nothingAfter}) {
        const std::array<LayerWindow, 1> layer{LayerWindow{0, 0, 0, k->back().endNs}};
        const auto d = core::analysis::splitLayersByKernelKind(*k, layer);
        EXPECT_TRUE(d.blocks.empty());
        EXPECT_EQ(d.unsplitLayers, 1U);
    }
}

TEST(LayerBlocks, EachLayerIsSplitFromItsOwnKernels) {
    // Two layers of one sequence: the second layer's split is found inside its window only.
    const auto k = sequence({E, G, A, G, E, G, E, G, A, G, E, G});
    const std::array<LayerWindow, 2> layers{LayerWindow{0, 0, 0, 60}, LayerWindow{0, 1, 60, 120}};
    const auto d = core::analysis::splitLayersByKernelKind(k, layers);
    ASSERT_EQ(d.blocks.size(), 4U);
    EXPECT_EQ(d.blocks[1].startNs, k[4].startNs);
    EXPECT_EQ(d.blocks[2].startNs, 60);
    EXPECT_EQ(d.blocks[2].layer, 1);
    EXPECT_EQ(d.blocks[3].startNs, k[10].startNs);
}

TEST(LayerBlocks, BlockNamesOfNvtxRanges) {
    EXPECT_EQ(core::analysis::blockKindOfName("attention"), BlockKind::Attention);
    EXPECT_EQ(core::analysis::blockKindOfName("layers.3.self_attn"), BlockKind::Attention);
    EXPECT_EQ(core::analysis::blockKindOfName("MLP"), BlockKind::Mlp);
    EXPECT_EQ(core::analysis::blockKindOfName("layers.3.block_sparse_moe"), BlockKind::Mlp);
    EXPECT_EQ(core::analysis::blockKindOfName("feed_forward"), BlockKind::Mlp);
    EXPECT_FALSE(core::analysis::blockKindOfName("post_attention_layernorm"));
    EXPECT_FALSE(core::analysis::blockKindOfName("rotary_emb"));
}

TEST(LayerBlocks, NvtxBlockRangesInsideLayersAreTheBlocks) {
    TraceBuilder b;
    b.step(0, 0, 0, 1000).layer(0, 0, 0, 500).layer(0, 1, 500, 1000);
    b.range(0, "attention", 2, 0, 200).range(0, "mlp", 2, 200, 500);
    b.range(0, "self_attn", 2, 500, 700).range(0, "input_layernorm", 2, 700, 720);
    b.range(0, "mlp", 3, 800, 900);  // deeper than the blocks: not one
    b.gemm(0, 10, 400).gemm(0, 510, 900);
    const auto trace = b.build();
    const auto seg = core::analysis::segmentLayers(*trace);
    const auto& r = seg.ranks.at(0);
    ASSERT_EQ(r.source, core::analysis::SegmentationSource::Nvtx);
    EXPECT_FALSE(r.blocksDerived);
    ASSERT_EQ(r.blocks.size(), 3U);
    EXPECT_EQ(r.blocks[0].layer, 0);
    EXPECT_EQ(r.blocks[1].kind, BlockKind::Mlp);
    EXPECT_EQ(r.blocks[1].startNs, 200);
    EXPECT_EQ(r.blocks[2].layer, 1);
    EXPECT_EQ(r.blocks[2].kind, BlockKind::Attention);
    EXPECT_EQ(r.blocks[2].endNs, 700);
}

// Public TP 1 trace of Qwen1.5-0.5B (Qwen2 architecture, Hugging Face transformers): every one of its 24
// layers splits into an attention block with the q/k/v/o projections and the flash-attention kernel
// (4 GEMMs, 1 attention kernel) and an MLP block with gate/up/down (3 GEMMs, no attention kernel).
TEST(LayerBlocks, QwenH100TraceSplitsEachOfItsLayers) {
    const char* file = "tracelens-h100-qwen/Qwen_Qwen1.5-0.5B-Chat__1016005.json.gz";
    TPSCOPE_REQUIRE_PUBLIC(file);
    const auto trace = core::readTrace((publicTraces() / file).string());
    ASSERT_TRUE(trace) << trace.error().describe();
    const auto seg = core::analysis::segmentLayers(**trace);
    const auto& r = seg.ranks.at(0);
    ASSERT_EQ(r.layers.size(), 24U);
    EXPECT_TRUE(r.blocksDerived);
    EXPECT_EQ(r.unsplitLayers, 0U);
    ASSERT_EQ(r.blocks.size(), 2 * r.layers.size());
    const auto kernels = core::analysis::repeatKernels(**trace, (*trace)->ranks[0]);
    for (std::size_t i = 0; i < r.blocks.size(); ++i) {
        const BlockWindow& b = r.blocks[i];
        EXPECT_EQ(b.layer, r.layers[i / 2].layer);
        EXPECT_EQ(b.kind, i % 2 == 0 ? BlockKind::Attention : BlockKind::Mlp);
        std::size_t gemms = 0;
        std::size_t attention = 0;
        for (const auto& k : kernels) {
            if (k.startNs < b.startNs || k.startNs >= b.endNs) continue;
            gemms += k.kind == EventKind::Gemm ? 1 : 0;
            attention += k.kind == EventKind::Attention ? 1 : 0;
        }
        EXPECT_EQ(gemms, b.kind == BlockKind::Attention ? 4U : 3U) << "layer " << b.layer;
        EXPECT_EQ(attention, b.kind == BlockKind::Attention ? 1U : 0U) << "layer " << b.layer;
    }
    bool noted = false;
    for (const auto& n : seg.notes) noted = noted || n.find("derived from the kernel sequence") != std::string::npos;
    EXPECT_TRUE(noted);
}

}  // namespace
}  // namespace tpscope::test
