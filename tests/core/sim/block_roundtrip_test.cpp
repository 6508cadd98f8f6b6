// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// Issue 27 §1: inside layers found without NVTX, the attention and MLP blocks split by kernel kinds
// (layer_blocks.h) are the simulator's own NVTX "attention" / "mlp" ranges: same windows, and every
// kernel in the same (step, layer, block), at TP 1 and TP 8, eager and CUDA-graph replay, dense and
// MoE. Not the overlap mode (half batches pipelined against the all-reduce): there the repeat rule
// finds the half-batch segment as its period, not the layer, so there are no layers to split.

#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <tuple>

#include "core/analysis/analysis.h"
#include "core/analysis/layer_segmentation.h"
#include "sim_test_support.h"

namespace tpscope::test {
namespace {

using core::analysis::BlockKind;
using core::analysis::BlockWindow;
using core::analysis::RankSegmentation;

struct Case {
    int tp;
    bool graphs;
    int batch;
    const char* model;
};

std::shared_ptr<core::Trace> simulated(const Case& c, int layers) {
    return simulatedLayers(c.model, c.tp, c.batch, c.graphs, layers);
}

using BlockKey = std::tuple<std::int64_t, int, BlockKind>;

// The block holding t (blocks sorted by start), if any.
std::optional<BlockKey> blockAt(const core::analysis::BlockWindows& blocks, std::int64_t t) {
    std::size_t lo = 0;  // the first block starting after t, by bisection
    std::size_t hi = blocks.size();
    while (lo < hi) {
        const std::size_t mid = lo + (hi - lo) / 2;
        if (t < blocks[mid].startNs) {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    if (lo == 0) return std::nullopt;
    const BlockWindow b = blocks[lo - 1];
    if (t >= b.endNs) return std::nullopt;
    return BlockKey{b.step, b.layer, b.kind};
}

class BlockRoundTrip : public ::testing::TestWithParam<Case> {};

TEST_P(BlockRoundTrip, BlocksWithoutNvtxEqualTheSimulatorsBlocks) {
    for (const int layers : {2, 5}) {
        const auto trace = simulated(GetParam(), layers);
        ASSERT_TRUE(trace);
        const auto withNvtx = core::analysis::segmentLayers(*trace);
        const core::Trace stripped = withoutNvtx(*trace);
        const auto found = core::analysis::segmentLayers(stripped);
        ASSERT_EQ(found.ranks.size(), withNvtx.ranks.size());
        for (std::size_t r = 0; r < found.ranks.size(); ++r) {
            const RankSegmentation& want = withNvtx.ranks[r];
            const RankSegmentation& got = found.ranks[r];
            EXPECT_FALSE(want.blocksDerived);
            EXPECT_TRUE(got.blocksDerived);
            EXPECT_EQ(got.unsplitLayers, 0U);
            // Two blocks a layer: the simulator's ranges, and the split of every derived layer.
            ASSERT_EQ(want.blocks.size(), 2 * want.layers.size());
            ASSERT_EQ(got.blocks.size(), want.blocks.size()) << "rank " << r << ", " << layers << " layers";
            for (std::size_t i = 0; i < want.blocks.size(); ++i) {
                const BlockWindow& w = want.blocks[i];
                const BlockWindow& g = got.blocks[i];
                EXPECT_EQ(std::tie(g.step, g.layer, g.kind), std::tie(w.step, w.layer, w.kind)) << "block " << i;
                EXPECT_EQ(g.startNs, w.startNs) << "rank " << r << " block " << i;
                EXPECT_EQ(g.endNs, w.endNs) << "rank " << r << " block " << i;
            }
            // Kernel membership, every stream: the same block, or outside blocks in both.
            std::size_t inBlocks = 0;
            for (const auto& stream : stripped.ranks[r].streams) {
                for (std::size_t k = 0; k < stream.events.size(); ++k) {
                    const auto t = stream.events.startNs(k);
                    const auto w = blockAt(want.blocks, t);
                    EXPECT_EQ(blockAt(got.blocks, t), w) << "rank " << r << " kernel at " << t;
                    inBlocks += w ? 1 : 0;
                }
            }
            EXPECT_GT(inBlocks, 0U);
        }
    }
}

INSTANTIATE_TEST_SUITE_P(TpAndReplay, BlockRoundTrip,
                         ::testing::Values(Case{1, false, 1, "llama3-8b"}, Case{1, true, 1, "llama3-8b"},
                                           Case{8, false, 1, "llama3-8b"}, Case{8, true, 1, "llama3-8b"},
                                           Case{8, false, 8, "llama3-8b"}, Case{8, false, 1, "mixtral-8x7b"},
                                           Case{1, false, 1, "qwen3-30b-a3b"}),
                         [](const ::testing::TestParamInfo<Case>& p) {
                             std::string model = p.param.model;
                             std::replace(model.begin(), model.end(), '-', '_');
                             return model + "_tp" + std::to_string(p.param.tp) +
                                    (p.param.graphs ? "_graph" : "_eager") + "_batch" + std::to_string(p.param.batch);
                         });

// The consumer: the breakdown's block sums. Derived blocks give the same per-block times as the
// simulator's NVTX blocks, and the two blocks of a layer index add up to its layer rows, field by field.
TEST(BlockRoundTrip, BlockBreakdownOfStrippedTraceEqualsTheNvtxOneAndSumsToTheLayers) {
    const int layers = 3;
    const auto trace = simulated({8, false, 1, "llama3-8b"}, layers);
    ASSERT_TRUE(trace);
    const core::Trace stripped = withoutNvtx(*trace);
    const auto withNvtx = core::analysis::analyzeTrace(*trace);
    const auto found = core::analysis::analyzeTrace(stripped);
    const auto& want = withNvtx.breakdown.blockSums;
    const auto& got = found.breakdown.blockSums;
    ASSERT_EQ(want.size(), 2 * layers * trace->ranks.size());  // (rank, layer index, block)
    ASSERT_EQ(got.size(), want.size());
    for (std::size_t i = 0; i < want.size(); ++i) {
        EXPECT_EQ(std::tie(got[i].rankIndex, got[i].layer, got[i].block, got[i].samples),
                  std::tie(want[i].rankIndex, want[i].layer, want[i].block, want[i].samples));
        EXPECT_EQ(got[i].time, want[i].time) << "block sum " << i;
    }
    for (const auto& sum : got) {
        if (sum.block != BlockKind::Attention) continue;
        core::analysis::TimeBreakdown blocks;
        core::analysis::TimeBreakdown rows;
        for (const auto& s : got) {
            if (s.rankIndex == sum.rankIndex && s.layer == sum.layer) blocks += s.time;
        }
        for (const auto& row : found.breakdown.rows) {
            if (row.rankIndex == sum.rankIndex && row.layer == sum.layer) rows += row.time;
        }
        EXPECT_EQ(blocks, rows) << "rank " << sum.rankIndex << " layer " << sum.layer;
        EXPECT_GT(sum.time.commNs, 0);  // the attention all-reduce is the attention block's
    }
    EXPECT_EQ(got[0].samples, 3U);  // 3 steps
}

}  // namespace
}  // namespace tpscope::test
