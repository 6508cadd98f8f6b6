// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// EventColumns' correlation-id columns (event_columns.h): none while every id is 0, then per block of
// kBlock events its smallest id other than 0 and 16-bit offsets from it (id 0 as kIdZero), or all 32
// bits once a block's ids span more. Appending keeps the narrow form block by block; finalize() narrows
// a wide column again after sorting. Split from event_columns.cpp, which holds the other columns.
#include "core/trace/event_columns.h"

#include <algorithm>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "core/util/vector_grow.h"

namespace tpscope::core {

namespace {

constexpr std::uint16_t kIdZero = EventColumns::kIdZero;
constexpr std::uint32_t kMaxIdOffset = EventColumns::kMaxIdOffset;

// The smallest and largest ids other than 0 in ids ({UINT32_MAX, 0} when every id is 0).
// Without a branch per id: id - 1 wraps 0 to UINT32_MAX, above every other id - 1.
std::pair<std::uint32_t, std::uint32_t> nonZeroRange(std::span<const std::uint32_t> ids) {
    std::uint32_t loLess = UINT32_MAX, hi = 0;
    for (const std::uint32_t id : ids) {
        loLess = std::min(loLess, id - 1U);
        hi = std::max(hi, id);
    }
    return {loLess == UINT32_MAX ? UINT32_MAX : loLess + 1U, hi};
}

// Appends the ids of a new block (`ids`, at most a block) to narrow correlation columns in one pass:
// offsets from its first id other than 0 (usually its smallest: ids grow), its range measured as they
// are written, and written again from its smallest other id only when a smaller one came. The same
// base and offsets as narrowCorrelations() stores. False, with nothing appended, when its ids other
// than 0 span more than kMaxIdOffset.
bool appendNarrowBlock(std::vector<std::uint32_t>& base, std::vector<std::uint16_t>& offset,
                       std::span<const std::uint32_t> ids) {
    const std::size_t m = ids.size();
    std::size_t firstNonZero = 0;
    while (firstNonZero < m && ids[firstNonZero] == 0) ++firstNonZero;
    const std::uint32_t guess = firstNonZero < m ? ids[firstNonZero] : 0;
    std::uint16_t* out = grow(offset, m);
    std::uint32_t loLess = UINT32_MAX, hi = 0;  // as nonZeroRange
    for (std::size_t j = 0; j < m; ++j) {
        const std::uint32_t id = ids[j];
        loLess = std::min(loLess, id - 1U);
        hi = std::max(hi, id);
        out[j] = id != 0 ? static_cast<std::uint16_t>(id - guess) : kIdZero;
    }
    const std::uint32_t lo = hi == 0 ? 0 : loLess + 1U;  // all 0: base 0
    if (hi - lo > kMaxIdOffset) {
        offset.resize(offset.size() - m);
        return false;
    }
    base.push_back(lo);
    if (lo != guess) {
        for (std::size_t j = 0; j < m; ++j) {
            if (ids[j] != 0) out[j] = static_cast<std::uint16_t>(ids[j] - lo);
        }
    }
    return true;
}

// Appends ids to narrow correlation columns: per block of `block` events the smallest id other than 0
// as its base (0 while all are 0) and 16-bit offsets from it, id 0 as kIdZero, exactly as
// narrowCorrelations() stores them; the last block, when partial, is re-based when a smaller id joins
// it. Returns how many ids were appended: all of them, or fewer when a block's non-zero ids span more
// than kMaxIdOffset (the caller then keeps all 32 bits).
std::size_t appendNarrowCorrelations(std::vector<std::uint32_t>& base, std::vector<std::uint16_t>& offset,
                                     std::span<const std::uint32_t> ids, std::size_t block) {
    std::size_t k = 0;
    while (k < ids.size()) {
        const std::size_t inBlock = offset.size() % block;
        const std::size_t m = std::min(ids.size() - k, block - inBlock);
        if (inBlock == 0) {
            if (!appendNarrowBlock(base, offset, ids.subspan(k, m))) return k;
            k += m;
            continue;
        }
        auto [lo, hi] = nonZeroRange(ids.subspan(k, m));
        if (hi != 0 && (lo < base.back() || hi - base.back() > kMaxIdOffset)) {
            // Re-based on the smallest non-zero id of the block so far and of the new ones (the base
            // may be below the former: a block that began with id 0 has base 0).
            const std::uint32_t b = base.back();
            const auto kept = offset.end() - static_cast<std::ptrdiff_t>(inBlock);
            for (auto it = kept; it != offset.end(); ++it) {
                if (*it == kIdZero) continue;
                lo = std::min<std::uint32_t>(lo, b + *it);
                hi = std::max<std::uint32_t>(hi, b + *it);
            }
            if (hi - lo > kMaxIdOffset) return k;
            for (auto it = kept; it != offset.end(); ++it) {
                if (*it != kIdZero) *it = static_cast<std::uint16_t>(b + *it - lo);
            }
            base.back() = lo;
        } else {
            lo = base.back();
        }
        std::uint16_t* out = grow(offset, m);
        for (std::size_t j = 0; j < m; ++j) {
            const std::uint32_t id = ids[k + j];
            out[j] = id != 0 ? static_cast<std::uint16_t>(id - lo) : kIdZero;
        }
        k += m;
    }
    return k;
}

// Appends ids to the correlation columns: narrow while every block's ids fit 16 bits; from the first
// block that does not, all 32 bits (`wide`; finalize() tries to narrow them again, after sorting).
void appendIds(std::vector<std::uint32_t>& wide, std::vector<std::uint32_t>& base, std::vector<std::uint16_t>& offset,
               std::span<const std::uint32_t> ids, std::size_t block) {
    std::size_t k = 0;
    if (wide.empty()) {
        k = appendNarrowCorrelations(base, offset, ids, block);
        if (k == ids.size()) return;
        wide.resize(offset.size());
        for (std::size_t i = 0; i < wide.size(); ++i) wide[i] = offset[i] != kIdZero ? base[i / block] + offset[i] : 0;
        std::vector<std::uint32_t>().swap(base);
        std::vector<std::uint16_t>().swap(offset);
    }
    wide.insert(wide.end(), ids.begin() + static_cast<std::ptrdiff_t>(k), ids.end());
}

}  // namespace

// Ids appended to the correlation columns. While every id so far is 0 there is no column; the first
// other id makes the narrow columns for the events before it (base 0, every offset kIdZero).
void EventColumns::appendCorrelations(std::span<const std::uint32_t> ids) {
    if (m_correlationId.empty() && m_correlationOffset.empty()) {
        const auto nonZero = std::find_if(ids.begin(), ids.end(), [](std::uint32_t id) { return id != 0; });
        if (nonZero == ids.end()) return;
        const std::size_t before = size() - ids.size() + static_cast<std::size_t>(nonZero - ids.begin());
        m_correlationOffset.reserve(std::max(m_durNs.capacity(), size()));
        m_correlationBase.reserve((m_correlationOffset.capacity() + kBlock - 1) / kBlock);
        m_correlationBase.assign((before + kBlock - 1) / kBlock, 0);
        m_correlationOffset.assign(before, kIdZero);
        ids = ids.subspan(static_cast<std::size_t>(nonZero - ids.begin()));
    }
    appendIds(m_correlationId, m_correlationBase, m_correlationOffset, ids, kBlock);
}

void EventColumns::narrowCorrelations() {
    const std::size_t n = m_correlationId.size();
    if (n == 0 || n != size()) return;
    std::vector<std::uint32_t> base((n + kBlock - 1) / kBlock);
    std::vector<std::uint16_t> offset(n);
    for (std::size_t b = 0; b < base.size(); ++b) {
        const std::size_t first = b * kBlock, last = std::min(n, first + kBlock);
        const auto [lo, hi] =
            nonZeroRange(std::span<const std::uint32_t>(m_correlationId).subspan(first, last - first));
        base[b] = hi != 0 ? lo : 0;
        if (hi - base[b] > kMaxIdOffset) return;  // ids jump within a block: keep all 32 bits
        for (std::size_t i = first; i < last; ++i) {
            const std::uint32_t id = m_correlationId[i];
            offset[i] = id != 0 ? static_cast<std::uint16_t>(id - base[b]) : kIdZero;
        }
    }
    m_correlationBase = std::move(base);
    m_correlationOffset = std::move(offset);
    std::vector<std::uint32_t>().swap(m_correlationId);
}

void EventColumns::widenCorrelations() {
    if (m_correlationOffset.empty()) return;  // all 32 bits already, or no events
    m_correlationId.resize(m_correlationOffset.size());
    for (std::size_t i = 0; i < m_correlationId.size(); ++i) {
        m_correlationId[i] = narrowId(m_correlationBase[i / kBlock], m_correlationOffset[i]);
    }
    std::vector<std::uint32_t>().swap(m_correlationBase);
    std::vector<std::uint16_t>().swap(m_correlationOffset);
}

}  // namespace tpscope::core
