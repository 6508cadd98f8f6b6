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
// group's first start (the first block of every 64th run), length below 2^31 - 1 ns.
bool narrowByDefinition(const BlockWindow& b, std::int64_t groupStart) {
    return b.startNs >= groupStart && b.startNs - groupStart < 0xFFFFFFFFLL && b.endNs >= b.startNs &&
           b.endNs - b.startNs < 0x7FFFFFFFLL;
}

// Whether a run's (step, layer) fits its 8-byte form: layer in [0, 65535], step at most 65,534
// above its group's first run's.
bool runNarrowByDefinition(const BlockWindow& b, std::int64_t groupStep) {
    return b.layer >= 0 && b.layer <= 65535 && b.step >= groupStep && b.step - groupStep < 65535;
}

TEST(BlockWindows, EveryBlockReadsBackExactlyNarrowOrWide) {
    std::mt19937_64 rng(27);
    std::uniform_int_distribution<std::int64_t> len(0, 3'000'000);
    std::uniform_int_distribution<int> pick(0, 11);
    std::uniform_int_distribution<int> pickRun(0, 15);
    std::vector<BlockWindow> want;
    std::size_t wide = 0;
    std::size_t wideRuns = 0;
    std::size_t runs = 0;
    std::int64_t t = -7'000'000'000LL;  // times before the trace's zero happen (clock offsets)
    std::int64_t groupStart = 0;        // the first block's start of every 64th run: the base of the blocks
    std::int64_t groupStep = 0;         // that run's step: the base of the runs' steps
    std::int64_t step = 5;
    for (int s = 0; s < 3; ++s) {
        step += 1000;
        for (int layer = 0; layer < 100; ++layer) {
            BlockWindow run{step, layer, BlockKind::Attention, 0, 0};
            switch (pickRun(rng)) {
                case 0:  // a layer index that needs more than 16 bits
                    run.layer = 65536 + layer;
                    break;
                case 1:  // a negative layer index
                    run.layer = -1 - layer;
                    break;
                case 2:  // a step key 65,535 above its group's: kept apart, later runs unchanged
                    run.step = groupStep + 65535;
                    break;
                case 3:  // a step key below its group's
                    run.step = groupStep - 1;
                    break;
                case 4:  // the largest step key offset that fits
                    run.step = groupStep + 65534;
                    break;
                default:
                    break;
            }
            const bool groupFirst = runs % 64 == 0;
            for (const BlockKind kind : {BlockKind::Attention, BlockKind::Mlp}) {
                const bool first = kind == BlockKind::Attention;
                BlockWindow b{run.step, run.layer, kind, t, t + len(rng)};
                switch (pick(rng)) {
                    case 0:  // 2.1 s or more
                        b.endNs = b.startNs + 0x7FFFFFFFLL + len(rng);
                        break;
                    case 1:  // the longest narrow block
                        b.endNs = b.startNs + 0x7FFFFFFELL;
                        break;
                    case 2:  // 4.29 s or more after its group's first start
                        if (!(first && groupFirst)) b.startNs = groupStart + 0xFFFFFFFFLL + len(rng);
                        b.endNs = b.startNs + 10;
                        break;
                    case 3:  // ends before it starts
                        b.endNs = b.startNs - 1;
                        break;
                    case 4:  // starts before its group's first block (out of order)
                        if (!(first && groupFirst)) b.startNs = groupStart - 1;
                        break;
                    case 5:  // the latest narrow start
                        if (!(first && groupFirst)) b.startNs = groupStart + 0xFFFFFFFELL;
                        b.endNs = b.startNs + 10;
                        break;
                    default:
                        break;
                }
                if (first && groupFirst) {
                    groupStart = b.startNs;
                    groupStep = b.step;
                }
                if (first) wideRuns += runNarrowByDefinition(b, groupStep) ? 0 : 1;
                wide += narrowByDefinition(b, groupStart) ? 0 : 1;
                want.push_back(b);
                t += len(rng) % 1000;
            }
            ++runs;
        }
    }
    const BlockWindows blocks(want);
    ASSERT_GT(wide, 0u);
    ASSERT_LT(wide, want.size());
    ASSERT_GT(wideRuns, 0u);
    ASSERT_LT(wideRuns, runs);
    EXPECT_EQ(blocks.wideCount(), wide);
    EXPECT_EQ(blocks.wideRunCount(), wideRuns);
    ASSERT_EQ(blocks.size(), want.size());
    EXPECT_EQ(blocks.runCount(), runs);
    for (std::size_t i = 0; i < want.size(); ++i) expectSameBlock(blocks[i], want[i], i);
    std::size_t i = 0;
    for (const BlockWindow b : blocks) {
        expectSameBlock(b, want[i], i);
        ++i;
    }
    EXPECT_EQ(i, want.size());
}

TEST(BlockWindows, HoldEightBytesABlockEightARunAndSixteenAGroupOf64Runs) {
    std::vector<BlockWindow> list;
    for (int layer = 0; layer < 500; ++layer) {
        list.push_back({0, layer, BlockKind::Attention, layer * 100, layer * 100 + 60});
        list.push_back({0, layer, BlockKind::Mlp, layer * 100 + 60, layer * 100 + 100});
    }
    const BlockWindows blocks(list);
    EXPECT_EQ(blocks.wideCount(), 0u);
    EXPECT_EQ(blocks.wideRunCount(), 0u);
    // 32 bytes a block as BlockWindow values; two blocks a layer come to about 12 each.
    EXPECT_EQ(sizeof(BlockWindow), 32u);
    EXPECT_EQ(blocks.residentBytes(), list.size() * 8 + 500 * 8 + (500 + 63) / 64 * 16);
    EXPECT_TRUE(BlockWindows().empty());
    EXPECT_TRUE(BlockWindows().begin() == BlockWindows().end());
}

}  // namespace
}  // namespace tpscope::core::analysis
