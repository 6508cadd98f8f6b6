// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "core/analysis/block_windows.h"

namespace tpscope::core::analysis {
namespace {

void expectSameBlock(const BlockWindow& got, const BlockWindow& want, std::size_t i) {
    EXPECT_EQ(got.step, want.step) << "block " << i;
    EXPECT_EQ(got.layer, want.layer) << "block " << i;
    EXPECT_EQ(got.kind, want.kind) << "block " << i;
    EXPECT_EQ(got.startNs, want.startNs) << "block " << i;
    EXPECT_EQ(got.endNs, want.endNs) << "block " << i;
}

// Whether a block fits the 8-byte form, from its definition: start at most 2^32 - 2 ns after its
// run's first start, length below 2^31 - 1 ns.
bool narrowByDefinition(const BlockWindow& b, std::int64_t runStart) {
    return b.startNs >= runStart && b.startNs - runStart < 0xFFFFFFFFLL && b.endNs >= b.startNs &&
           b.endNs - b.startNs < 0x7FFFFFFFLL;
}

TEST(BlockWindows, EveryBlockReadsBackExactlyNarrowOrWide) {
    std::mt19937_64 rng(27);
    std::uniform_int_distribution<std::int64_t> len(0, 3'000'000);
    std::uniform_int_distribution<int> pick(0, 11);
    std::vector<BlockWindow> want;
    std::size_t wide = 0;
    std::int64_t t = -7'000'000'000LL;  // times before the trace's zero happen (clock offsets)
    for (std::int64_t step = 0; step < 3; ++step) {
        for (int layer = 0; layer < 40; ++layer) {
            std::int64_t runStart = 0;  // the run's first block's start: the base of the others
            for (const BlockKind kind : {BlockKind::Attention, BlockKind::Mlp}) {
                const bool first = kind == BlockKind::Attention;
                BlockWindow b{step * 1000 + 5, layer, kind, t, t + len(rng)};
                switch (pick(rng)) {
                    case 0:  // 2.1 s or more
                        b.endNs = b.startNs + 0x7FFFFFFFLL + len(rng);
                        break;
                    case 1:  // the longest narrow block
                        b.endNs = b.startNs + 0x7FFFFFFELL;
                        break;
                    case 2:  // 4.29 s or more after the run's first start
                        if (!first) b.startNs = runStart + 0xFFFFFFFFLL + len(rng);
                        b.endNs = b.startNs + 10;
                        break;
                    case 3:  // ends before it starts
                        b.endNs = b.startNs - 1;
                        break;
                    case 4:  // starts before its run's first block (out of order)
                        if (!first) b.startNs = runStart - 1;
                        break;
                    default:
                        break;
                }
                if (first) runStart = b.startNs;
                wide += narrowByDefinition(b, runStart) ? 0 : 1;
                want.push_back(b);
                t = std::max(t, b.endNs) + len(rng) % 1000;
            }
        }
    }
    const BlockWindows blocks(want);
    ASSERT_GT(wide, 0u);
    ASSERT_LT(wide, want.size());
    EXPECT_EQ(blocks.wideCount(), wide);
    ASSERT_EQ(blocks.size(), want.size());
    EXPECT_EQ(blocks.runCount(), 3u * 40u);
    for (std::size_t i = 0; i < want.size(); ++i) expectSameBlock(blocks[i], want[i], i);
    std::size_t i = 0;
    for (const BlockWindow b : blocks) {
        expectSameBlock(b, want[i], i);
        ++i;
    }
    EXPECT_EQ(i, want.size());
}

TEST(BlockWindows, HoldEightBytesABlockAndTwentyFourARun) {
    std::vector<BlockWindow> list;
    for (int layer = 0; layer < 500; ++layer) {
        list.push_back({0, layer, BlockKind::Attention, layer * 100, layer * 100 + 60});
        list.push_back({0, layer, BlockKind::Mlp, layer * 100 + 60, layer * 100 + 100});
    }
    const BlockWindows blocks(list);
    EXPECT_EQ(blocks.wideCount(), 0u);
    // 32 bytes a block as BlockWindow values; two blocks a layer come to 20 each.
    EXPECT_EQ(sizeof(BlockWindow), 32u);
    EXPECT_EQ(blocks.residentBytes(), list.size() * 8 + 500 * 24);
    EXPECT_TRUE(BlockWindows().empty());
    EXPECT_TRUE(BlockWindows().begin() == BlockWindows().end());
}

}  // namespace
}  // namespace tpscope::core::analysis
