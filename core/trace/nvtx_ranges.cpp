// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/trace/nvtx_ranges.h"

#include <algorithm>
#include <array>
#include <numeric>
#include <stdexcept>

namespace tpscope::core {

namespace {

EventRecord asEvent(const NvtxRange& range) {
    return EventRecord{range.startNs, range.endNs - range.startNs, range.name, EventKind::Other, 0, kNoPayload};
}

}  // namespace

NvtxRanges::NvtxRanges(std::initializer_list<NvtxRange> ranges) {
    reserve(ranges.size());
    for (const NvtxRange& r : ranges) push_back(r);
    finalize();
}

void NvtxRanges::reserve(std::size_t n) {
    m_columns.reserve(n);
    m_depth.reserve(n);
}

void NvtxRanges::push_back(const NvtxRange& range) {
    m_columns.append(asEvent(range));
    m_depth.push_back(range.depth);
}

void NvtxRanges::append(std::span<const std::int64_t> startNs, std::span<const std::int64_t> endNs,
                        std::span<const std::uint32_t> names, std::span<const std::uint8_t> depths) {
    // EventColumns takes whole columns; kinds and correlation ids are the same for every range.
    constexpr std::size_t kChunk = 1024;
    std::array<std::int64_t, kChunk> durations{};
    std::array<std::uint8_t, kChunk> kinds{};
    std::array<std::uint32_t, kChunk> ids{};
    kinds.fill(static_cast<std::uint8_t>(EventKind::Other));
    for (std::size_t first = 0; first < startNs.size(); first += kChunk) {
        const std::size_t n = std::min(kChunk, startNs.size() - first);
        for (std::size_t i = 0; i < n; ++i) durations[i] = endNs[first + i] - startNs[first + i];
        EventBatch batch;
        batch.startNs = startNs.subspan(first, n);
        batch.durNs = std::span<const std::int64_t>(durations.data(), n);
        batch.nameIds = names.subspan(first, n);
        batch.kinds = std::span<const std::uint8_t>(kinds.data(), n);
        batch.correlationIds = std::span<const std::uint32_t>(ids.data(), n);
        m_columns.append(batch);
    }
    m_depth.insert(m_depth.end(), depths.begin(), depths.end());
}

const char* NvtxRanges::appendBlockForm(std::string_view columns, std::span<const std::uint8_t> depths,
                                        std::size_t nameCount) {
    if (depths.empty()) return "range count";
    // Ranges have no payload (payload ids below 1).
    if (const char* wrong = m_columns.appendBlockForm(columns, depths.size(), nameCount, 1)) return wrong;
    m_depth.insert(m_depth.end(), depths.begin(), depths.end());
    return nullptr;
}

void NvtxRanges::finalize() {
    const auto before = [this](std::size_t a, std::size_t b) {
        const std::int64_t sa = startNs(a), sb = startNs(b);
        return sa != sb ? sa < sb : m_depth[a] < m_depth[b];
    };
    // Each start read once: range i is not before range i - 1 (as `before` orders them).
    bool sorted = true;
    std::int64_t previous = empty() ? 0 : startNs(0);
    for (std::size_t i = 1; i < size() && sorted; ++i) {
        const std::int64_t start = startNs(i);
        sorted = start != previous ? start > previous : m_depth[i] >= m_depth[i - 1];
        previous = start;
    }
    if (!sorted) {
        std::vector<std::size_t> order(size());
        std::iota(order.begin(), order.end(), std::size_t{0});
        std::stable_sort(order.begin(), order.end(), before);
        NvtxRanges byStart;
        byStart.reserve(size());
        for (const std::size_t i : order) byStart.push_back((*this)[i]);
        *this = std::move(byStart);
    }
    // In start order now, so the columns keep this order (their own sort is stable by start).
    if (!m_columns.finalized()) m_columns.finalize();
    m_depth.shrink_to_fit();
}

NvtxRange NvtxRanges::at(std::size_t i) const {
    if (i >= size()) throw std::out_of_range("NvtxRanges::at");
    return (*this)[i];
}

std::int64_t NvtxRanges::lastEndNs() const {
    if (empty()) return INT64_MIN;
    if (m_columns.finalized()) return m_columns.lastEndNs();
    std::int64_t end = INT64_MIN;
    for (std::size_t i = 0; i < size(); ++i) end = std::max(end, endNs(i));
    return end;
}

}  // namespace tpscope::core
