// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/trace/block_offsets.h"

#include <algorithm>
#include <cstring>

#include "core/util/vector_grow.h"

namespace tpscope::core {

template <unsigned LowBits>
std::uint32_t BlockOffsets<LowBits>::addWideBlock() {
    const auto number = static_cast<std::uint32_t>(m_high.size() / kBlock);
    m_high.resize(m_high.size() + kBlock);
    return kWide | number;
}

// Cells [i, i + cells.size()), all in the last block, as that block's entry keeps them.
template <unsigned LowBits>
void BlockOffsets<LowBits>::write(std::size_t i, std::span<const std::uint32_t> cells) {
    const std::uint32_t entry = m_entry.back();
    if ((entry & kWide) == 0) {
        if constexpr (LowBits == 24) {
            // Each low part as a 4-byte store: its top byte is 0 (the offset fits 24 bits) and lands on
            // the next cell's first byte, written next, or on the padding byte, which is 0.
            std::uint8_t* low = m_low.data() + i * kLowBytes;
            for (std::size_t j = 0; j < cells.size(); ++j) {
                const std::uint32_t offset = cells[j] - entry;
                std::memcpy(low + j * kLowBytes, &offset, sizeof offset);
            }
        } else {
            for (std::size_t j = 0; j < cells.size(); ++j) setLow(i + j, cells[j] - entry);
        }
        return;
    }
    High* high = m_high.data() + std::size_t{entry & ~kWide} * kBlock;
    for (std::size_t j = 0; j < cells.size(); ++j) {
        setLow(i + j, cells[j] & kMaxOffset);
        high[(i + j) % kBlock] = static_cast<High>(cells[j] >> LowBits);
    }
}

template <unsigned LowBits>
void BlockOffsets<LowBits>::append(std::span<const std::uint32_t> cells) {
    if (cells.empty()) return;
    const std::size_t first = m_size;
    // The low parts up to the end of the last block these cells reach, as far as the storage already
    // allocated goes, so that push_back() fills the rest of that block without a resize. Never past the
    // capacity: a column reserved for exactly n cells (a decoder's stream) must not reallocate for its
    // last block's unused cells, and capacity() must stay what reserve() asked for (other columns are
    // reserved from it).
    const std::size_t needed = (first + cells.size()) * kLowBytes + kPadding;
    const std::size_t blockEnd = (first + cells.size() + kBlock - 1) / kBlock * kBlock * kLowBytes + kPadding;
    const std::size_t lowBytes = std::max(needed, std::min(blockEnd, m_low.capacity()));
    if (lowBytes > m_low.size()) grow(m_low, lowBytes - m_low.size());
    m_size += cells.size();
    // Both conditions only fail more as cells join a block (its largest grows, its span grows), so a
    // block's form depends on its cells alone, not on how they were appended.
    const auto fits = [](std::uint32_t lo, std::uint32_t hi) { return hi < kWide && hi - lo <= kMaxOffset; };
    for (std::size_t k = 0; k < cells.size();) {
        const std::size_t i = first + k;
        const std::size_t inBlock = i % kBlock;
        const auto part = cells.subspan(k, std::min(cells.size() - k, kBlock - inBlock));
        std::uint32_t lo = UINT32_MAX, hi = 0;
        if (LowBits == 24 && inBlock == 0) {
            // A new block of start offsets: its first cell is usually its smallest (starts in order,
            // the first 0), so its low parts are written from it in the pass that measures the block,
            // as write() would write them when it is; else write() below writes them again.
            const std::uint32_t firstCell = part[0];
            std::uint8_t* low = m_low.data() + i * kLowBytes;
            for (std::size_t j = 0; j < part.size(); ++j) {
                lo = std::min(lo, part[j]);
                hi = std::max(hi, part[j]);
                const std::uint32_t offset = (part[j] - firstCell) & kMaxOffset;  // a 4-byte store, as write()'s
                std::memcpy(low + j * kLowBytes, &offset, sizeof offset);
            }
            if (lo == firstCell && fits(lo, hi)) {
                m_entry.push_back(lo);
                k += part.size();
                continue;
            }
        } else {
            for (const std::uint32_t cell : part) {
                lo = std::min(lo, cell);
                hi = std::max(hi, cell);
            }
        }
        if (inBlock == 0) {
            m_entry.push_back(fits(lo, hi) ? lo : addWideBlock());
        } else if (const std::uint32_t base = m_entry.back();
                   (base & kWide) == 0 && (lo < base || hi - base > kMaxOffset || hi >= kWide)) {
            // The block so far spans [base, base + its largest offset]: re-based on the new smallest
            // cell when all still fit, else widened.
            const std::size_t blockFirst = i - inBlock;
            std::uint32_t top = 0;
            for (std::size_t j = blockFirst; j < i; ++j) top = std::max(top, lowAt(j));
            const std::uint32_t newLo = std::min(lo, base), newHi = std::max(hi, base + top);
            if (fits(newLo, newHi)) {
                for (std::size_t j = blockFirst; j < i; ++j) setLow(j, lowAt(j) + (base - newLo));
                m_entry.back() = newLo;
            } else {
                m_entry.back() = addWideBlock();
                High* high = m_high.data() + std::size_t{m_entry.back() & ~kWide} * kBlock;
                for (std::size_t j = blockFirst; j < i; ++j) {
                    const std::uint32_t cell = base + lowAt(j);
                    setLow(j, cell & kMaxOffset);
                    high[j % kBlock] = static_cast<High>(cell >> LowBits);
                }
            }
        }
        write(i, part);
        k += part.size();
    }
}

template <unsigned LowBits>
void BlockOffsets<LowBits>::reserve(std::size_t n) {
    m_entry.reserve((n + kBlock - 1) / kBlock);
    m_low.reserve(n * kLowBytes + kPadding);
}

template <unsigned LowBits>
void BlockOffsets<LowBits>::clear() {
    m_entry.clear();
    m_low.clear();
    m_high.clear();
    m_size = 0;
}

template <unsigned LowBits>
void BlockOffsets<LowBits>::shrinkToFit() {
    // Without the open block's unused cells that append() added within the capacity. A column reserved
    // for exactly its cells has none (its size is then its capacity, and the shrink copies nothing).
    m_low.resize(m_size * kLowBytes + (m_size > 0 ? kPadding : 0));
    m_entry.shrink_to_fit();
    m_low.shrink_to_fit();
    m_high.shrink_to_fit();
}

template <unsigned LowBits>
std::size_t BlockOffsets<LowBits>::residentBytes() const {
    return m_entry.capacity() * sizeof(std::uint32_t) + m_low.capacity() + m_high.capacity() * sizeof(High);
}

template class BlockOffsets<16>;
template class BlockOffsets<24>;

}  // namespace tpscope::core
