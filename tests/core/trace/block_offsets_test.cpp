// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// BlockOffsets (core/trace/block_offsets.h): 32-bit cells kept in 16 or 24 bits a cell by block.
#include "core/trace/block_offsets.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <span>
#include <string>
#include <vector>

namespace tpscope::core {
namespace {

// One block's cells: `count` values in [lo, lo + span], the smallest and the largest both present,
// in random order (so a smaller cell often joins a block after larger ones, and a partial block
// stops fitting half-way), and whether the block must keep all 32 bits.
struct BlockCase {
    std::uint32_t lo;
    std::uint32_t span;
    bool wide;
    std::size_t count = 64;
};

std::vector<std::uint32_t> cellsOf(const std::vector<BlockCase>& blocks, std::mt19937& rng) {
    std::vector<std::uint32_t> cells;
    for (const BlockCase& b : blocks) {
        std::vector<std::uint32_t> block(b.count);
        std::uniform_int_distribution<std::uint64_t> inside(0, b.span);
        for (auto& c : block) c = b.lo + static_cast<std::uint32_t>(inside(rng));
        block[0] = b.lo;
        if (b.count > 1) block[1] = b.lo + b.span;
        std::shuffle(block.begin(), block.end(), rng);
        cells.insert(cells.end(), block.begin(), block.end());
    }
    return cells;
}

template <unsigned LowBits>
void checkColumn(const std::vector<BlockCase>& blocks, const std::string& what) {
    using Column = BlockOffsets<LowBits>;
    std::mt19937 rng(LowBits);
    const std::vector<std::uint32_t> cells = cellsOf(blocks, rng);
    const std::size_t n = cells.size();
    const auto wide = static_cast<std::size_t>(
        std::count_if(blocks.begin(), blocks.end(), [](const BlockCase& b) { return b.wide; }));
    // 4 bytes a block entry, LowBits / 8 a cell, one byte of padding for 24 bits, and the high parts
    // of every cell of a wide block.
    const std::size_t expectedBytes =
        blocks.size() * 4 + n * (LowBits / 8) + (LowBits == 24 ? 1 : 0) + wide * Column::kBlock * ((32 - LowBits) / 8);
    auto expectCells = [&](Column& got, const std::string& how) {
        got.shrinkToFit();
        ASSERT_EQ(got.size(), n) << what << ", " << how;
        for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(got[i], cells[i]) << what << ", " << how << ", cell " << i;
        EXPECT_EQ(got.blocks(), blocks.size()) << what << ", " << how;
        EXPECT_EQ(got.wideBlocks(), wide) << what << ", " << how;
        EXPECT_EQ(got.residentBytes(), expectedBytes) << what << ", " << how;
    };
    Column oneByOne;
    for (std::size_t i = 0; i < n; ++i) {
        oneByOne.push_back(cells[i]);
        ASSERT_EQ(oneByOne[i], cells[i]) << what << ", while appending " << i;
    }
    expectCells(oneByOne, "one by one");
    for (const std::size_t span : {std::size_t{1}, std::size_t{7}, std::size_t{64}, std::size_t{333}, n}) {
        Column bySpan;
        bySpan.reserve(n);
        for (std::size_t first = 0; first < n; first += span) {
            bySpan.append(std::span(cells).subspan(first, std::min(span, n - first)));
        }
        expectCells(bySpan, "spans of " + std::to_string(span));
    }
    Column cleared = oneByOne;
    cleared.clear();
    EXPECT_TRUE(cleared.empty());
    cleared.append(cells);
    expectCells(cleared, "appended after clear()");
}

constexpr std::uint32_t kTop = UINT32_MAX;
constexpr std::uint32_t kHalf = std::uint32_t{1} << 31;  // a narrow block's cells are below it

TEST(BlockOffsets, SixteenBitOffsetsFitUpTo65535AndWideBlocksKeepEveryBit) {
    checkColumn<16>({{1000, 0, false},
                     {1000, 65'534, false},
                     {7, 65'535, false},
                     {7, 65'536, true},
                     {0, 1'000'000, true},
                     {kHalf - 1 - 65'535, 65'535, false},
                     {kHalf - 1, 65'535, true},  // the smallest below 2^31, but not the largest
                     {kHalf - 2, 1, false},
                     {kHalf, 0, true},
                     {kTop - 3, 3, true},
                     {0, kTop, true},
                     {12, 9, false, 37}},  // a partial last block
                    "16 bits");
}

TEST(BlockOffsets, TwentyFourBitOffsetsFitUpTo2Pow24Minus1) {
    constexpr std::uint32_t k24 = std::uint32_t{1} << 24;
    checkColumn<24>({{0, k24 - 1, false},
                     {0, k24, true},
                     {0, 1'000, false},
                     {kTop - k24, k24, true},
                     {kHalf, 1, true},
                     {0, kTop, true},
                     {3, k24 - 1, false, 63}},
                    "24 bits");
}

// A decoder reserves a stream's exact count and appends it one by one or in batches: the column must
// fill its reservation in place (no reallocation for its last block's unused cells) and keep capacity()
// at what was reserved, since other columns are reserved from it; shrinkToFit() then copies nothing.
template <unsigned LowBits>
void checkExactReservation(std::size_t n, bool oneByOne) {
    BlockOffsets<LowBits> column;
    column.reserve(n);
    const void* storage = column.address(0);
    std::vector<std::uint32_t> cells(n);
    for (std::size_t i = 0; i < n; ++i) cells[i] = static_cast<std::uint32_t>(1000 + 7 * i);  // starts in order
    if (oneByOne) {
        for (const std::uint32_t cell : cells) column.push_back(cell);
    } else {
        for (std::size_t i = 0; i < n; i += 100)
            column.append(std::span(cells).subspan(i, std::min<std::size_t>(100, n - i)));
    }
    const std::string what =
        std::to_string(LowBits) + " bits, " + std::to_string(n) + (oneByOne ? " one by one" : " in batches");
    EXPECT_EQ(column.address(0), storage) << what << ": reallocated";
    EXPECT_EQ(column.capacity(), n) << what;
    column.shrinkToFit();
    EXPECT_EQ(column.address(0), storage) << what << ": shrinkToFit copied";
    for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(column[i], cells[i]) << what << ", cell " << i;
}

TEST(BlockOffsets, AColumnReservedForItsCellsFillsItInPlace) {
    for (const std::size_t n : {1, 63, 64, 65, 1000, 4097}) {
        for (const bool oneByOne : {true, false}) {
            checkExactReservation<16>(n, oneByOne);
            checkExactReservation<24>(n, oneByOne);
        }
    }
}

}  // namespace
}  // namespace tpscope::core
