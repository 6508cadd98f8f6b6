// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/trace/block_cells.h"

#include <algorithm>
#include <cstdlib>
#include <new>
#include <stdexcept>
#include <type_traits>
#include <utility>

#include "core/util/vector_grow.h"

namespace tpscope::core {

namespace {

// Bytes a cell needs for offsets up to `span`.
std::uint32_t widthFor(std::uint32_t span) {
    if (span == 0) return 0;
    if (span <= 0xFFU) return 1;
    if (span <= 0xFFFFU) return 2;
    if (span <= 0xFFFFFFU) return 3;
    return 4;
}

// Writes cells - base at `width` bytes each from `out`, each as one 4-byte store (its bytes above the
// width are 0 and land on the next cell's place, written next, or on the padding). Reading `from` and
// writing `out` may be the same block's bytes: cell j is read (at 4j) before its store (at width * j,
// never past 4j + 4), and no store reaches a cell not yet read.
void narrowInto(const std::uint8_t* from, std::size_t count, std::uint32_t base, std::uint32_t width,
                std::uint8_t* out) {
    for (std::size_t j = 0; j < count; ++j) {
        std::uint32_t cell;
        std::memcpy(&cell, from + j * 4, sizeof cell);
        const std::uint32_t offset = cell - base;
        std::memcpy(out + j * width, &offset, sizeof offset);
    }
}

// A whole block's cells - base at Width bytes each into out: decodeAt's converse, for a block
// written at once (a decoder's chunk). The count a constant and the pointers apart (the cells are the
// caller's, out the column's bytes), so -O2 vectorizes it at 1, 2 and 4 bytes, as it does the
// block's smallest and largest cell in writeBlock; width 3 stores 4 bytes a cell, each store's top
// byte the next cell's first (the last one's on the padding); width 0 writes nothing.
template <std::uint32_t Width>
void narrowBlock(const std::uint32_t* __restrict cells, std::uint32_t base, std::uint8_t* __restrict out) {
    if constexpr (Width == 0) return;
#pragma GCC unroll 8
    for (std::size_t j = 0; j < BlockCells::kBlock; ++j) {
        const std::uint32_t offset = cells[j] - base;
        if constexpr (Width == 1) {
            out[j] = static_cast<std::uint8_t>(offset);
        } else if constexpr (Width == 2) {
            const auto v = static_cast<std::uint16_t>(offset);
            std::memcpy(out + j * 2, &v, sizeof v);
        } else {
            std::memcpy(out + j * Width, &offset, sizeof offset);
        }
    }
}

// n cells at a fixed width from `bytes`, as base + offset: the width a constant, and for a whole block
// the count too, so that the compiler vectorizes it at 0 to 2 and 4 bytes (-O2's cheap vectorizer takes
// only a known count and pointers that cannot overlap: __restrict) and unrolls it at 3 (-O2 unrolls
// nothing unasked: 8 cells a turn cut these loops' own counting from 26.9 M to 3.4 M instructions of
// analyzeTrace 1 M, callgrind). Widths 3 and 4 read 4 bytes a cell (the padding keeps the last read
// in bounds).
template <std::uint32_t Width, std::size_t Count>
void decodeAt(const std::uint8_t* __restrict bytes, std::uint32_t base, std::size_t count,
              std::uint32_t* __restrict out) {
    const std::size_t n = Count != 0 ? Count : count;
#pragma GCC unroll 8
    for (std::size_t j = 0; j < n; ++j) {
        if constexpr (Width == 0) {
            out[j] = base;
        } else if constexpr (Width == 1) {
            out[j] = base + bytes[j];
        } else if constexpr (Width == 2) {
            std::uint16_t v;
            std::memcpy(&v, bytes + j * 2, sizeof v);
            out[j] = base + v;
        } else {
            std::uint32_t v;
            std::memcpy(&v, bytes + j * Width, sizeof v);
            out[j] = base + (Width == 3 ? v & 0xFFFFFFU : v);
        }
    }
}

template <std::uint32_t Width>
void decodeBlock(const std::uint8_t* bytes, std::uint32_t base, std::size_t n, std::uint32_t* out) {
    if (n == BlockCells::kBlock) {
        decodeAt<Width, BlockCells::kBlock>(bytes, base, n, out);
    } else {
        decodeAt<Width, 0>(bytes, base, n, out);
    }
}

// The 64-byte units of the sealed blocks once a block of `width` joins them: an entry keeps its block's
// place in 29 bits (more would be over 2^29 x 64 bytes in one column).
std::size_t unitsAfter(std::size_t units, std::uint32_t width) {
    constexpr std::size_t kMaxUnits = (std::size_t{1} << 29) - 1;
    if (units + width > kMaxUnits) {
        throw std::length_error("BlockCells: a column of more than 32 GiB");
    }
    return units + width;
}

// f(std::integral_constant<std::uint32_t, W>{}) for the block width W = width (0 to 4; above 4: 4): the
// one switch from a block's width to the loops compiled for it (narrowBlock, decodeBlock).
template <typename F>
void withWidth(std::uint32_t width, F&& f) {
    switch (width) {
        case 0:
            f(std::integral_constant<std::uint32_t, 0>{});
            break;
        case 1:
            f(std::integral_constant<std::uint32_t, 1>{});
            break;
        case 2:
            f(std::integral_constant<std::uint32_t, 2>{});
            break;
        case 3:
            f(std::integral_constant<std::uint32_t, 3>{});
            break;
        default:
            f(std::integral_constant<std::uint32_t, 4>{});
            break;
    }
}

}  // namespace

BlockCells::BlockCells(const BlockCells& other) : m_entry(other.m_entry), m_units(other.m_units), m_size(other.m_size) {
    const std::size_t used = other.usedBytes();
    if (used > 0) {
        ensureBytes(used);
        std::memcpy(m_bytes, other.m_bytes, used);
    }
}

BlockCells::BlockCells(BlockCells&& other) noexcept
    : m_entry(std::move(other.m_entry)),
      m_bytes(std::exchange(other.m_bytes, nullptr)),
      m_capacity(std::exchange(other.m_capacity, 0)),
      m_units(std::exchange(other.m_units, 0)),
      m_size(std::exchange(other.m_size, 0)) {}

BlockCells& BlockCells::operator=(const BlockCells& other) {
    if (this != &other) *this = BlockCells(other);
    return *this;
}

BlockCells& BlockCells::operator=(BlockCells&& other) noexcept {
    if (this != &other) {
        std::free(m_bytes);
        m_entry = std::move(other.m_entry);
        m_bytes = std::exchange(other.m_bytes, nullptr);
        m_capacity = std::exchange(other.m_capacity, 0);
        m_units = std::exchange(other.m_units, 0);
        m_size = std::exchange(other.m_size, 0);
    }
    return *this;
}

BlockCells::~BlockCells() {
    std::free(m_bytes);
}

std::size_t BlockCells::usedBytes() const {
    if (m_size == 0 && m_units == 0) return 0;
    const std::size_t partial = m_size % kBlock;
    if (partial == 0) return m_units * kBlock + kPadding;
    const Entry last = m_entry.back();
    if (last.where == openWhere()) return m_units * kBlock + kBlock * 4 + kPadding;
    // A sealed partial block (shrinkToFit) is the last: its cells' bytes only, not its block's.
    const std::uint32_t width = last.where & kWidthMask;
    return (m_units - width) * kBlock + partial * width + kPadding;
}

void BlockCells::ensureBytes(std::size_t bytes) {
    if (bytes <= m_capacity) return;
    const std::size_t capacity = std::max(bytes, m_capacity + m_capacity / 2);
    void* grown = std::realloc(m_bytes, capacity);
    if (grown == nullptr) throw std::bad_alloc();
    m_bytes = static_cast<std::uint8_t*>(grown);
    m_capacity = capacity;
}

void BlockCells::openBlock() {
    ensureBytes(m_units * kBlock + kBlock * 4 + kPadding);
    m_entry.push_back(Entry{0, openWhere()});
}

void BlockCells::reopenLast() {
    // The last block is partial and sealed (shrinkToFit): its cells back to 4 bytes each, in place
    // from the last (a cell's 4-byte place is never below its narrow one).
    const Entry e = m_entry.back();
    const std::uint32_t width = e.where & kWidthMask;
    const std::size_t count = m_size % kBlock;
    m_units -= width;
    ensureBytes(m_units * kBlock + kBlock * 4 + kPadding);
    std::uint8_t* block = m_bytes + m_units * kBlock;
    for (std::size_t j = count; j-- > 0;) {
        std::uint32_t v;
        std::memcpy(&v, block + j * width, sizeof v);
        const std::uint32_t cell = e.base + (v & maskOf(width));
        std::memcpy(block + j * 4, &cell, sizeof cell);
    }
    m_entry.back() = Entry{0, openWhere()};
}

void BlockCells::sealLast() {
    const std::size_t count = (m_size - 1) % kBlock + 1;
    std::uint8_t* block = m_bytes + m_units * kBlock;
    std::uint32_t lo = UINT32_MAX, hi = 0;
    for (std::size_t j = 0; j < count; ++j) {
        std::uint32_t cell;
        std::memcpy(&cell, block + j * 4, sizeof cell);
        lo = std::min(lo, cell);
        hi = std::max(hi, cell);
    }
    const std::uint32_t width = widthFor(hi - lo);
    const std::size_t after = unitsAfter(m_units, width);
    narrowInto(block, count, lo, width, block);
    m_entry.back() = Entry{lo, static_cast<std::uint32_t>(m_units << kWidthBits) | width};
    m_units = after;
}

void BlockCells::writeBlock(std::span<const std::uint32_t> block) {
    const std::uint32_t* cells = block.data();  // kBlock of them: the loops' count a constant
    std::uint32_t lo = UINT32_MAX, hi = 0;
    for (std::size_t j = 0; j < kBlock; ++j) {
        lo = std::min(lo, cells[j]);
        hi = std::max(hi, cells[j]);
    }
    const std::uint32_t width = widthFor(hi - lo);
    const std::size_t after = unitsAfter(m_units, width);
    ensureBytes(m_units * kBlock + kBlock * width + kPadding);
    std::uint8_t* out = m_bytes + m_units * kBlock;
    withWidth(width, [&](auto w) { narrowBlock<w.value>(cells, lo, out); });
    m_entry.push_back(Entry{lo, static_cast<std::uint32_t>(m_units << kWidthBits) | width});
    m_units = after;
}

void BlockCells::append(std::span<const std::uint32_t> cells) {
    if (cells.empty()) return;
    // The worst case of these cells at once (4 bytes each), so that a decoder's chunk grows the bytes
    // once, its pages faulted in by one call when the room was reserved; shrinkToFit() hands back what
    // the narrow blocks left unused.
    const std::size_t worst = m_units * kBlock + (cells.size() + kBlock) * 4 + kPadding;
    if (worst > m_capacity) {
        ensureBytes(worst);
    } else if (cells.size() * 4 >= std::size_t{16} * 4096) {
        populateForWrite(m_bytes + m_units * kBlock, m_bytes + worst);
    }
    std::size_t k = 0;
    if (m_size % kBlock != 0) {
        if (m_entry.back().where != openWhere()) reopenLast();
        const std::size_t take = std::min(cells.size(), kBlock - m_size % kBlock);
        std::memcpy(m_bytes + m_units * kBlock + (m_size % kBlock) * 4, cells.data(), take * 4);
        m_size += take;
        k = take;
        if (m_size % kBlock == 0) sealLast();
    }
    for (; cells.size() - k >= kBlock; k += kBlock) {
        writeBlock(cells.subspan(k, kBlock));
        m_size += kBlock;
    }
    if (k < cells.size()) {
        openBlock();
        std::memcpy(m_bytes + m_units * kBlock, cells.data() + k, (cells.size() - k) * 4);
        m_size += cells.size() - k;
    }
}

std::span<const std::uint8_t> BlockCells::blockBytes(std::size_t first, std::size_t last) const {
    if (first >= last) return {};
    const std::size_t from = std::size_t{m_entry[first].where >> kWidthBits} * kBlock;
    const std::size_t to =
        last < m_entry.size() ? std::size_t{m_entry[last].where >> kWidthBits} * kBlock : usedBytes() - kPadding;
    return {m_bytes + from, to - from};
}

bool BlockCells::appendBlocks(std::span<const std::uint8_t> widths, std::span<const std::uint8_t> bases,
                              std::span<const std::uint8_t> bytes, std::size_t cells) {
    const std::size_t blocks = widths.size();
    if (m_size % kBlock != 0 || blocks != (cells + kBlock - 1) / kBlock || bases.size() != blocks * 4) return false;
    std::size_t expected = 0, units = m_units;
    for (std::size_t k = 0; k < blocks; ++k) {
        if (widths[k] > 4) return false;
        expected += widths[k] * (k + 1 < blocks ? kBlock : cells - k * kBlock);
        units = unitsAfter(units, widths[k]);
    }
    if (bytes.size() != expected) return false;
    if (blocks == 0) return true;
    ensureBytes(m_units * kBlock + expected + kPadding);
    // Their pages faulted in by one call, as append() does: page by page, the copy took twice the faults.
    if (expected >= std::size_t{16} * 4096) {
        populateForWrite(m_bytes + m_units * kBlock, m_bytes + m_units * kBlock + expected);
    }
    std::memcpy(m_bytes + m_units * kBlock, bytes.data(), expected);
    for (std::size_t k = 0; k < blocks; ++k) {
        Entry e;
        std::memcpy(&e.base, bases.data() + k * 4, sizeof e.base);
        e.where = static_cast<std::uint32_t>(m_units << kWidthBits) | widths[k];
        m_entry.push_back(e);
        m_units += widths[k];
    }
    m_size += cells;
    return true;
}

std::size_t BlockCells::decode(std::size_t b, std::uint32_t* out) const {
    const std::size_t n = std::min(kBlock, m_size - b * kBlock);
    const Block cells = block(b);
    withWidth(cells.width, [&](auto w) { decodeBlock<w.value>(cells.bytes, cells.base, n, out); });
    return n;
}

void BlockCells::reserve(std::size_t n) {
    m_entry.reserve((n + kBlock - 1) / kBlock);
    ensureBytes((n + kBlock) * 4 + kPadding);
}

std::size_t BlockCells::capacity() const {
    const std::size_t cells = m_capacity <= kPadding ? 0 : (m_capacity - kPadding) / 4;
    return std::max(m_size, cells > kBlock ? cells - kBlock : 0);
}

void BlockCells::clear() {
    m_entry.clear();
    m_units = 0;
    m_size = 0;
}

void BlockCells::shrinkToFit() {
    if (m_size % kBlock != 0 && m_entry.back().where == openWhere()) sealLast();
    const std::size_t used = usedBytes();
    m_entry.shrink_to_fit();
    if (used == 0) {
        std::free(m_bytes);
        m_bytes = nullptr;
        m_capacity = 0;
    } else if (used < m_capacity) {
        // realloc() shrinks in place (a large block by mremap): no byte moves.
        void* shrunk = std::realloc(m_bytes, used);
        if (shrunk != nullptr) {
            m_bytes = static_cast<std::uint8_t*>(shrunk);
            m_capacity = used;
        }
    }
}

std::size_t BlockCells::residentBytes() const {
    return m_entry.capacity() * sizeof(Entry) + m_capacity;
}

std::size_t BlockCells::blocksOfWidth(unsigned width) const {
    std::size_t n = 0;
    for (std::size_t b = 0; b < m_entry.size(); ++b) {
        const bool open = b + 1 == m_entry.size() && m_size % kBlock != 0 && m_entry[b].where == openWhere();
        if (!open && (m_entry[b].where & kWidthMask) == width) ++n;
    }
    return n;
}

}  // namespace tpscope::core
