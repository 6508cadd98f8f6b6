// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// EventColumns' correlation-id columns (event_columns.h): none while every id is 0, then per block of
// kBlock events its first id other than 0 as its base and a BlockCells cell an event (id - base + 1, 0
// for id 0), or all 32 bits once an id's cell would read as 0. Appending keeps the narrow form as the ids
// come; finalize() narrows a wide column again after sorting. Split from event_columns.cpp, which holds
// the other columns.
#include <algorithm>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "core/trace/event_columns.h"

namespace tpscope::core {

namespace {

// The cells of ids appended from index `first` on, the blocks' bases kept in `base` as they come (a
// block's first id other than 0; 0 while it has none). False, with `base` as it was, when an id's cell
// would be 0 (the id just below its block's base): the ids then stay at 32 bits.
bool cellsOf(std::span<const std::uint32_t> ids, std::size_t first, std::size_t block, std::vector<std::uint32_t>& base,
             std::vector<std::uint32_t>& cells) {
    const std::size_t bases = base.size();
    const std::uint32_t lastBase = bases > 0 ? base.back() : 0;
    cells.resize(ids.size());
    for (std::size_t k = 0; k < ids.size(); ++k) {
        if ((first + k) % block == 0) base.push_back(0);
        const std::uint32_t id = ids[k];
        if (id == 0) {
            cells[k] = 0;
            continue;
        }
        if (base.back() == 0) base.back() = id;
        cells[k] = id - base.back() + 1U;
        if (cells[k] == 0) {
            base.resize(bases);
            if (bases > 0) base.back() = lastBase;
            return false;
        }
    }
    return true;
}

}  // namespace

// Ids appended to the correlation columns. While every id so far is 0 there is no column; the first
// other id makes the narrow columns for the events before it (base 0, every cell 0).
void EventColumns::appendCorrelations(std::span<const std::uint32_t> ids) {
    if (m_correlationId.empty() && m_correlationCell.empty()) {
        const auto nonZero = std::find_if(ids.begin(), ids.end(), [](std::uint32_t id) { return id != 0; });
        if (nonZero == ids.end()) return;
        const std::size_t before = size() - ids.size() + static_cast<std::size_t>(nonZero - ids.begin());
        m_correlationCell.reserve(std::max(m_durNs.capacity(), size()));
        m_correlationBase.reserve((m_correlationCell.capacity() + kBlock - 1) / kBlock);
        m_correlationBase.assign((before + kBlock - 1) / kBlock, 0);
        const std::vector<std::uint32_t> zeros(before, 0);
        m_correlationCell.append(zeros);
        ids = ids.subspan(static_cast<std::size_t>(nonZero - ids.begin()));
    }
    if (m_correlationId.empty()) {
        thread_local std::vector<std::uint32_t> cells;
        if (cellsOf(ids, m_correlationCell.size(), kBlock, m_correlationBase, cells)) {
            m_correlationCell.append(cells);
            return;
        }
        widenCorrelations();
    }
    m_correlationId.insert(m_correlationId.end(), ids.begin(), ids.end());
}

void EventColumns::narrowCorrelations() {
    const std::size_t n = m_correlationId.size();
    if (n == 0 || n != size()) return;
    std::vector<std::uint32_t> base, cells;
    base.reserve((n + kBlock - 1) / kBlock);
    if (!cellsOf(m_correlationId, 0, kBlock, base, cells)) return;  // an id just below its base: 32 bits
    BlockCells narrow;
    narrow.reserve(n);
    narrow.append(cells);
    m_correlationBase = std::move(base);
    m_correlationCell = std::move(narrow);
    std::vector<std::uint32_t>().swap(m_correlationId);
}

void EventColumns::widenCorrelations() {
    if (m_correlationCell.empty()) return;  // all 32 bits already, or no events
    std::vector<std::uint32_t> wide(m_correlationCell.size());
    for (std::size_t i = 0; i < wide.size(); ++i) wide[i] = correlationId(i);
    m_correlationId = std::move(wide);
    std::vector<std::uint32_t>().swap(m_correlationBase);
    m_correlationCell = BlockCells();
}

}  // namespace tpscope::core
