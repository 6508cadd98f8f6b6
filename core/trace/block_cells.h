// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// A column of 32-bit cells kept by block of kBlock consecutive cells, each block at the narrowest width
// its cells need (EventColumns' start offsets and durations): a block keeps its smallest cell as its base
// and each cell's offset from it in 0, 1, 2, 3 or 4 bytes, as the block's span (largest - smallest)
// needs. A block whose cells are all equal (a simulated launch thread's calls, every one 3.195 µs) costs
// no byte a cell; a block of kernels whose durations span more than 65 µs (a real trace's GEMMs beside
// its element-wise kernels) three bytes, not four.
//
// Input: cells appended in index order, any 32-bit values, one at a time or in spans of any length.
// Mapping: per block an 8-byte entry: its base, and where its bytes begin with its width
//   (where = the 64-byte units of the blocks before it << 3 | width; the blocks' bytes lie back to back).
//   The open block (the last one, while it has fewer than kBlock cells) keeps its cells whole (base 0,
//   width 4) and is narrowed in place when its last cell comes (sealed); shrinkToFit() seals a partial
//   last block too, and an append to it opens it again. A block's form depends on its cells alone.
// Cost: its width in bytes a cell (a sealed partial last block: its cells only) + 8 bytes a block + 4 of
// padding (a cell is read with one 4-byte load, in bounds); a read is the entry, a load, a mask: O(1).
// The bytes live in one malloc'd block that realloc() resizes: shrinking a large one (a decoder's stream,
// reserved at 4 bytes a cell) moves no byte.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <vector>

namespace tpscope::core {

class BlockCells {
  public:
    static constexpr std::size_t kBlock = 64;

    BlockCells() = default;
    BlockCells(const BlockCells& other);
    BlockCells(BlockCells&& other) noexcept;
    BlockCells& operator=(const BlockCells& other);
    BlockCells& operator=(BlockCells&& other) noexcept;
    ~BlockCells();

    std::size_t size() const { return m_size; }
    bool empty() const { return m_size == 0; }
    std::uint32_t operator[](std::size_t i) const {
        const Entry e = m_entry[i / kBlock];
        const std::uint32_t width = e.where & kWidthMask;
        std::uint32_t v;
        std::memcpy(&v, m_bytes + std::size_t{e.where >> kWidthBits} * kBlock + (i % kBlock) * width, sizeof v);
        return e.base + (v & maskOf(width));
    }
    // Block b's cells, to read a block without its entry each time (a scan).
    struct Block {
        std::uint32_t base = 0;
        std::uint32_t width = 0;  // bytes a cell; 0: every cell is `base`
        const std::uint8_t* bytes = nullptr;
        std::uint32_t operator[](std::size_t j) const {  // cell j of the block
            std::uint32_t v;
            std::memcpy(&v, bytes + j * width, sizeof v);
            return base + (v & maskOf(width));
        }
    };
    Block block(std::size_t b) const {
        const Entry e = m_entry[b];
        return Block{e.base, e.where & kWidthMask, m_bytes + std::size_t{e.where >> kWidthBits} * kBlock};
    }
    // Block b's cells into out[0, n), n the count returned (kBlock, or fewer in a partial last block):
    // a scan's block at once, the width chosen once for the block's loop (EventScan).
    std::size_t decode(std::size_t b, std::uint32_t* out) const;
    // Where cell i's bytes lie (to prefetch).
    const void* address(std::size_t i) const {
        const Entry e = m_entry[i / kBlock];
        return m_bytes + std::size_t{e.where >> kWidthBits} * kBlock + (i % kBlock) * (e.where & kWidthMask);
    }

    void push_back(std::uint32_t cell) {
        // Usually the open block takes it as it is: one 4-byte store.
        if (m_size % kBlock != 0 && m_entry.back().where == openWhere()) {
            std::memcpy(m_bytes + m_units * kBlock + (m_size % kBlock) * 4, &cell, sizeof cell);
            if (++m_size % kBlock == 0) sealLast();
            return;
        }
        append(std::span<const std::uint32_t>(&cell, 1));
    }
    void append(std::span<const std::uint32_t> cells);
    // Blocks as they lie, for a file (EventColumns' block form): block b's width and base are block(b)'s,
    // and blockBytes(first, last) the bytes of blocks [first, last) back to back, width bytes a cell (a
    // partial last block: its cells only). Sealed blocks only (after shrinkToFit()).
    std::span<const std::uint8_t> blockBytes(std::size_t first, std::size_t last) const;
    // Appends blocks as blockBytes() gives them, `cells` cells in all (whole blocks but the last), onto a
    // column of whole blocks: widths[k] and bases[k] are block k's (each base 4 bytes, little-endian), bytes
    // theirs back to back. Copied, not narrowed again. False, the column unchanged, when the column ends
    // in a partial block or the counts, widths and bytes do not fit together.
    bool appendBlocks(std::span<const std::uint8_t> widths, std::span<const std::uint8_t> bases,
                      std::span<const std::uint8_t> bytes, std::size_t cells);
    // Room for n cells at 4 bytes each (their pages are not touched until written).
    void reserve(std::size_t n);
    // Cells the reserved storage holds at 4 bytes each (at least size()).
    std::size_t capacity() const;
    void clear();
    void shrinkToFit();
    std::size_t residentBytes() const;
    std::size_t blocks() const { return m_entry.size(); }
    // Blocks that keep `width` bytes a cell (0 to 4); a partial last block counts once sealed.
    std::size_t blocksOfWidth(unsigned width) const;
    // Blocks that keep all 4 bytes a cell.
    std::size_t wideBlocks() const { return blocksOfWidth(4); }

  private:
    struct Entry {
        std::uint32_t base = 0;
        std::uint32_t where = 0;
    };
    static constexpr unsigned kWidthBits = 3;
    static constexpr std::uint32_t kWidthMask = (1U << kWidthBits) - 1U;
    static constexpr std::size_t kPadding = 4;  // the last cell's 4-byte load
    static std::uint32_t maskOf(std::uint32_t width) {
        return static_cast<std::uint32_t>((std::uint64_t{1} << (8U * width)) - 1U);
    }
    std::uint32_t openWhere() const { return static_cast<std::uint32_t>(m_units << kWidthBits) | 4U; }

    void openBlock();   // a new open block after the sealed ones
    void reopenLast();  // a sealed partial last block back to whole cells
    void sealLast();    // narrows the last block (full, or partial from shrinkToFit)
    void writeBlock(std::span<const std::uint32_t> cells);  // a whole new block, sealed at once
    void ensureBytes(std::size_t bytes);                    // capacity for `bytes` (padding included)
    std::size_t usedBytes() const;                          // sealed blocks, the open block, padding

    std::vector<Entry> m_entry;
    std::uint8_t* m_bytes = nullptr;  // malloc'd: sealed blocks back to back, then the open block
    std::size_t m_capacity = 0;       // bytes allocated
    std::size_t m_units = 0;          // 64-byte units of the sealed blocks (the sum of their widths)
    std::size_t m_size = 0;
};

}  // namespace tpscope::core
