// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// EventColumns' block decode (event_columns.h, decodeStarts ...): a block of 64 events' column at once,
// for EventScan's passes over every event (core/trace/event_scan.h).
#include "core/trace/event_columns.h"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>

#include "core/trace/block_cells.h"

namespace tpscope::core {

namespace {

// out[j] = base + cells[j] for a block's n cells, the count a constant for a whole block (BlockCells'
// decodeAt: so that -O2 vectorizes it).
template <std::size_t Count>
void widenAt(const std::uint32_t* __restrict cells, std::int64_t base, std::size_t count,
             std::int64_t* __restrict out) {
    const std::size_t n = Count != 0 ? Count : count;
    for (std::size_t j = 0; j < n; ++j) out[j] = base + std::int64_t{cells[j]};
}

void widen(const std::uint32_t* cells, std::int64_t base, std::size_t n, std::int64_t* out) {
    if (n == EventColumns::kBlock) {
        widenAt<EventColumns::kBlock>(cells, base, n, out);
    } else {
        widenAt<0>(cells, base, n, out);
    }
}

// A block's kinds through its labels. A block of one label is one kind; a block of one byte a label
// (a kernel stream's usual block) is read from its bytes, without decoding the labels first.
// `out` (bytes) could alias the table but for __restrict, which would reload the table's address a cell.
void kindsOfLabels(const BlockCells& labelIndex, std::size_t b, std::size_t n,
                   const std::uint8_t* __restrict kindOfLabel, std::uint8_t* __restrict out) {
    const BlockCells::Block labels = labelIndex.block(b);
    if (labels.width == 0) {
        std::fill_n(out, n, kindOfLabel[labels.base]);
        return;
    }
    if (labels.width == 1) {
        const std::uint8_t* __restrict bytes = labels.bytes;
        const std::uint8_t* __restrict kinds = kindOfLabel + labels.base;
#pragma GCC unroll 8
        for (std::size_t j = 0; j < n; ++j) out[j] = kinds[bytes[j]];
        return;
    }
    std::array<std::uint32_t, BlockCells::kBlock> cells;  // filled by decode()
    labelIndex.decode(b, cells.data());
#pragma GCC unroll 8
    for (std::size_t j = 0; j < n; ++j) out[j] = kindOfLabel[cells[j]];
}

}  // namespace

std::size_t EventColumns::decodeStarts(std::size_t b, std::int64_t* out) const {
    const std::size_t first = b * kBlock;
    if (!m_startNs.empty()) {
        const std::size_t n = std::min(kBlock, size() - first);
        std::copy_n(m_startNs.begin() + static_cast<std::ptrdiff_t>(first), n, out);
        return n;
    }
    std::array<std::uint32_t, kBlock> cells;  // filled by decode()
    const std::size_t n = m_startOffset.decode(b, cells.data());
    widen(cells.data(), m_startBase[b], n, out);
    if (!m_farStartNs.empty()) {  // the rare escape, found by its cell
        for (std::size_t j = 0; j < n; ++j) {
            if (cells[j] == kFarStart) out[j] = farStartNs(first + j);
        }
    }
    return n;
}

std::size_t EventColumns::decodeDurations(std::size_t b, std::int64_t* out) const {
    std::array<std::uint32_t, kBlock> cells;  // filled by decode()
    const std::size_t n = m_durNs.decode(b, cells.data());
    widen(cells.data(), 0, n, out);
    if (!m_longDurNs.empty()) {
        for (std::size_t j = 0; j < n; ++j) {
            if (cells[j] == kLongDuration) out[j] = longDurNs(b * kBlock + j);
        }
    }
    return n;
}

std::size_t EventColumns::decodeKinds(std::size_t b, std::uint8_t* out) const {
    const std::size_t first = b * kBlock;
    const std::size_t n = std::min(kBlock, size() - first);
    if (!m_kind.empty()) {
        std::copy_n(m_kind.begin() + static_cast<std::ptrdiff_t>(first), n, out);
    } else {
        kindsOfLabels(m_labelIndex, b, n, m_labelKind.data(), out);
    }
    return n;
}

std::size_t EventColumns::decodeNames(std::size_t b, std::uint32_t* out) const {
    const std::size_t first = b * kBlock;
    const std::size_t n = std::min(kBlock, size() - first);
    if (m_wideLabels) {
        std::copy_n(m_nameId.begin() + static_cast<std::ptrdiff_t>(first), n, out);
        return n;
    }
    m_labelIndex.decode(b, out);
    for (std::size_t j = 0; j < n; ++j) out[j] = m_labels[out[j]].name.value;
    return n;
}

}  // namespace tpscope::core
