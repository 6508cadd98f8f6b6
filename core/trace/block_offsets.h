// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// A column of 32-bit cells kept in LowBits bits a cell (EventColumns' durations at 16, start offsets at
// 24): values that sit close together within a block of kBlock consecutive cells are stored as
// offsets from the block's smallest, and a block whose cells do not sit close keeps all 32 bits.
//
// Input: cells appended in index order, any 32-bit values, one at a time or in spans of any length.
// Mapping: per block a 32-bit entry.
//   narrow block: cells below 2^31 that span at most kMaxOffset (65,535 for 16 bits, 2^24 - 1 =
//                 16.7 ms of start for 24 bits): the entry is the block's smallest cell and each cell
//                 keeps its offset from it in LowBits bits.
//   wide block:   any other (cells spanning more, or a cell of 2^31 or more): the entry is
//                 kWide | the block's number among the wide blocks, each cell keeps its low LowBits
//                 bits in the same place and its high 32 - LowBits bits in a side column of kBlock per
//                 wide block.
// Appending to a partial block re-bases it when a smaller cell joins and widens it when the cells stop
// fitting; a block never narrows again (EventColumns rebuilds a column to narrow it).
// Cost: LowBits / 8 bytes a cell + 4 bytes a block, + kBlock * (32 - LowBits) / 8 bytes a wide block;
// a read is two loads and a branch that changes at most once a block (three loads in a wide block):
// O(1). The low parts are read with one (unaligned) load of 2 or 4 bytes; a 24-bit column keeps one
// byte of padding after its last cell so that the 4-byte load of the last cell stays in bounds.

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <type_traits>
#include <vector>

namespace tpscope::core {

template <unsigned LowBits>
class BlockOffsets {
    static_assert(LowBits == 16 || LowBits == 24, "low parts are 2 or 3 bytes");
    static_assert(std::endian::native == std::endian::little, "low parts are read as the low bytes of a load");

  public:
    static constexpr std::size_t kBlock = 64;
    static constexpr std::uint32_t kMaxOffset = (std::uint32_t{1} << LowBits) - 1;

    std::size_t size() const { return m_size; }
    bool empty() const { return m_size == 0; }
    std::uint32_t operator[](std::size_t i) const {
        const std::uint32_t entry = m_entry[i / kBlock];
        const std::uint32_t low = lowAt(i);
        if ((entry & kWide) == 0) [[likely]] {
            return entry + low;
        }
        return (std::uint32_t{m_high[std::size_t{entry & ~kWide} * kBlock + i % kBlock]} << LowBits) | low;
    }
    // Where cell i's low part lies (to prefetch).
    const void* address(std::size_t i) const { return m_low.data() + i * kLowBytes; }

    void push_back(std::uint32_t cell) {
        // Usually the cell fits the open block's base (unsigned: a cell below the base wraps far above),
        // and the block's low parts are already there (append() sizes them to the block's end): no
        // resize per cell, which was a sixth of the simulator's instructions.
        if (m_size % kBlock != 0 && (m_entry.back() & kWide) == 0 && cell - m_entry.back() <= kMaxOffset &&
            cell < kWide && (m_size + 1) * kLowBytes + kPadding <= m_low.size()) {
            setLow(m_size, cell - m_entry.back());
            ++m_size;
            return;
        }
        append(std::span<const std::uint32_t>(&cell, 1));
    }
    void append(std::span<const std::uint32_t> cells);
    void reserve(std::size_t n);
    // Cells the reserved storage holds.
    std::size_t capacity() const {
        return m_low.capacity() <= kPadding ? 0 : (m_low.capacity() - kPadding) / kLowBytes;
    }
    void clear();
    void shrinkToFit();
    std::size_t residentBytes() const;
    // Blocks that keep all 32 bits.
    std::size_t wideBlocks() const { return m_high.size() / kBlock; }
    std::size_t blocks() const { return m_entry.size(); }

  private:
    static constexpr std::uint32_t kWide = std::uint32_t{1} << 31;
    static constexpr std::size_t kLowBytes = LowBits / 8;
    static constexpr std::size_t kPadding = LowBits == 24 ? 1 : 0;  // the last cell's 4-byte load
    using High = std::conditional_t<LowBits == 16, std::uint16_t, std::uint8_t>;

    std::uint32_t lowAt(std::size_t i) const {
        if constexpr (LowBits == 16) {
            std::uint16_t v;
            std::memcpy(&v, m_low.data() + i * kLowBytes, sizeof v);
            return v;
        } else {
            std::uint32_t v;
            std::memcpy(&v, m_low.data() + i * kLowBytes, sizeof v);
            return v & kMaxOffset;
        }
    }
    void setLow(std::size_t i, std::uint32_t low) { std::memcpy(m_low.data() + i * kLowBytes, &low, kLowBytes); }
    std::uint32_t addWideBlock();
    void write(std::size_t i, std::span<const std::uint32_t> cells);

    std::vector<std::uint32_t> m_entry;  // per block: its base, or kWide | its number among wide blocks
    std::vector<std::uint8_t> m_low;     // kLowBytes per cell, then kPadding bytes; up to the open
                                         // block's end (zeros past the last cell) while it fills
    std::vector<High> m_high;            // per wide block, its cells' high parts
    std::size_t m_size = 0;
};

extern template class BlockOffsets<16>;
extern template class BlockOffsets<24>;

}  // namespace tpscope::core
