// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// BlockCells (core/trace/block_cells.h): 32-bit cells kept by block at 0 to 4 bytes a cell.
#include "core/trace/block_cells.h"

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
// in random order (so a smaller cell often joins a block after larger ones), and the width in bytes
// its span needs.
struct BlockCase {
    std::uint32_t lo;
    std::uint32_t span;
    unsigned width;
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

constexpr std::uint32_t kTop = UINT32_MAX;
constexpr std::uint32_t k24 = std::uint32_t{1} << 24;

const std::vector<BlockCase>& cases() {
    static const std::vector<BlockCase> all = {
        {1000, 0, 0},    {7, 1, 1},      {7, 255, 1},  {7, 256, 2},          {1000, 65'535, 2}, {1000, 65'536, 3},
        {0, k24 - 1, 3}, {0, k24, 4},    {kTop, 0, 0}, {kTop - 255, 255, 1}, {0, kTop, 4},      {1u << 31, 1u << 30, 4},
        {3'195, 0, 0},   {12, 9, 1, 37},  // a partial last block
    };
    return all;
}

// decode() gives every block's cells, as many as the block holds (a partial last block: its own).
void expectDecoded(const BlockCells& got, const std::vector<std::uint32_t>& cells, const std::string& how) {
    std::vector<std::uint32_t> decoded(BlockCells::kBlock);
    for (std::size_t b = 0; b < got.blocks(); ++b) {
        const std::size_t first = b * BlockCells::kBlock;
        const std::size_t n = got.decode(b, decoded.data());
        ASSERT_EQ(n, std::min(BlockCells::kBlock, got.size() - first)) << how << ", block " << b;
        for (std::size_t j = 0; j < n; ++j) ASSERT_EQ(decoded[j], cells[first + j]) << how << ", decoded " << first + j;
    }
}

// Every way of appending the same cells gives the same cells, the same widths and the same bytes:
// per block an 8-byte entry and 64 x its width (a partial last block: its cells x its width), 4 bytes
// of padding.
TEST(BlockCells, EachBlockKeepsTheNarrowestWidthItsSpanNeeds) {
    std::mt19937 rng(5);
    const std::vector<std::uint32_t> cells = cellsOf(cases(), rng);
    const std::size_t n = cells.size();
    std::size_t bytes = 4;
    std::vector<std::size_t> ofWidth(5);
    for (const BlockCase& b : cases()) {
        bytes += 8 + b.count * b.width;  // a partial last block: its cells only
        ++ofWidth[b.width];
    }
    const auto expectCells = [&](BlockCells& got, const std::string& how) {
        got.shrinkToFit();
        ASSERT_EQ(got.size(), n) << how;
        for (std::size_t i = 0; i < n; ++i) {
            ASSERT_EQ(got[i], cells[i]) << how << ", cell " << i;
            ASSERT_EQ(got.block(i / BlockCells::kBlock)[i % BlockCells::kBlock], cells[i])
                << how << ", block read " << i;
        }
        EXPECT_EQ(got.blocks(), cases().size()) << how;
        expectDecoded(got, cells, how);
        for (std::size_t b = 0; b < cases().size(); ++b) EXPECT_EQ(got.block(b).width, cases()[b].width) << how;
        for (unsigned w = 0; w <= 4; ++w) EXPECT_EQ(got.blocksOfWidth(w), ofWidth[w]) << how << ", width " << w;
        EXPECT_EQ(got.residentBytes(), bytes) << how;
    };
    BlockCells oneByOne;
    for (std::size_t i = 0; i < n; ++i) {
        oneByOne.push_back(cells[i]);
        ASSERT_EQ(oneByOne[i], cells[i]) << "while appending " << i;
        ASSERT_EQ(oneByOne[i / 2], cells[i / 2]) << "an earlier cell while appending " << i;
        if (i % 13 == 0) expectDecoded(oneByOne, cells, "while appending " + std::to_string(i));  // the open block too
    }
    expectCells(oneByOne, "one by one");
    for (const std::size_t span : {std::size_t{1}, std::size_t{7}, std::size_t{64}, std::size_t{333}, n}) {
        for (const bool reserved : {false, true}) {
            BlockCells bySpan;
            if (reserved) bySpan.reserve(n);
            for (std::size_t first = 0; first < n; first += span) {
                bySpan.append(std::span(cells).subspan(first, std::min(span, n - first)));
            }
            expectCells(bySpan, "spans of " + std::to_string(span) + (reserved ? ", reserved" : ""));
        }
    }
    // Sealed part-way (a partial block narrowed by shrinkToFit), then appended to again.
    BlockCells resumed;
    for (std::size_t first = 0; first < n; first += 45) {
        resumed.append(std::span(cells).subspan(first, std::min<std::size_t>(45, n - first)));
        resumed.shrinkToFit();
        for (std::size_t i = 0; i < resumed.size(); ++i) ASSERT_EQ(resumed[i], cells[i]) << "resumed, cell " << i;
    }
    expectCells(resumed, "sealed after every 45 cells");
    BlockCells copy = oneByOne;
    BlockCells cleared = oneByOne;
    cleared.clear();
    EXPECT_TRUE(cleared.empty());
    cleared.append(cells);
    expectCells(cleared, "appended after clear()");
    expectCells(copy, "a copy");
    BlockCells moved = std::move(copy);
    expectCells(moved, "moved");
}

// A block's width is chosen from its cells alone: a block of equal cells keeps no byte a cell
// whatever value they have, and cells that grow by one keep one byte.
TEST(BlockCells, EqualCellsCostNoByteAndConsecutiveOnesOne) {
    BlockCells equal, consecutive;
    for (std::uint32_t i = 0; i < 64 * 100; ++i) {
        equal.push_back(3'195);
        consecutive.push_back(400'000 + i);
    }
    equal.shrinkToFit();
    consecutive.shrinkToFit();
    EXPECT_EQ(equal.blocksOfWidth(0), 100U);
    EXPECT_EQ(equal.residentBytes(), 100 * 8 + 4U);
    EXPECT_EQ(consecutive.blocksOfWidth(1), 100U);
    EXPECT_EQ(consecutive.residentBytes(), 100 * (8 + 64) + 4U);
    for (std::uint32_t i = 0; i < 64 * 100; ++i) {
        ASSERT_EQ(equal[i], 3'195U);
        ASSERT_EQ(consecutive[i], 400'000 + i);
    }
}

// A decoder reserves a stream's exact count and appends it one by one or in batches: the column fills
// its reservation in place (no reallocation), capacity() is what was reserved (other columns are
// reserved from it), and shrinkToFit() gives back the unused room without moving the cells.
TEST(BlockCells, AColumnReservedForItsCellsFillsItInPlace) {
    for (const std::size_t n : {1, 63, 64, 65, 1000, 4097, 300'000}) {
        for (const bool oneByOne : {true, false}) {
            const std::string what = std::to_string(n) + (oneByOne ? " one by one" : " in batches");
            BlockCells column;
            column.reserve(n);
            EXPECT_EQ(column.capacity(), n) << what;
            std::vector<std::uint32_t> cells(n);
            for (std::size_t i = 0; i < n; ++i) cells[i] = static_cast<std::uint32_t>(1000 + 7 * i);  // starts in order
            column.push_back(cells[0]);
            const void* storage = column.address(0);
            if (oneByOne) {
                for (std::size_t i = 1; i < n; ++i) column.push_back(cells[i]);
            } else {
                for (std::size_t i = 1; i < n; i += 100)
                    column.append(std::span(cells).subspan(i, std::min<std::size_t>(100, n - i)));
            }
            EXPECT_EQ(column.address(0), storage) << what << ": reallocated";
            EXPECT_EQ(column.capacity(), n) << what;
            const std::size_t before = column.residentBytes();
            column.shrinkToFit();
            EXPECT_EQ(column.address(0), storage) << what << ": shrinkToFit moved the cells";
            EXPECT_LE(column.residentBytes(), before) << what;
            for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(column[i], cells[i]) << what << ", cell " << i;
        }
    }
}

}  // namespace
}  // namespace tpscope::core
