// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/analysis/layer_rows.h"

#include <algorithm>
#include <stdexcept>

namespace tpscope::core::analysis {

namespace {

bool fits32(std::int64_t v, std::uint32_t limit) {
    return v >= 0 && v < static_cast<std::int64_t>(limit);
}

}  // namespace

void LayerRows::reset(std::vector<Instance> instances, std::size_t rows) {
    const bool ordered =
        std::adjacent_find(instances.begin(), instances.end(), [](const Instance& a, const Instance& b) {
            return a.firstRow >= b.firstRow;
        }) == instances.end();
    const bool covered =
        instances.empty() ? rows == 0 : instances.front().firstRow == 0 && instances.back().firstRow < rows;
    if (!ordered || !covered || rows > 0xFFFFFFFFU) {
        throw std::invalid_argument("layer rows: the instances do not partition the rows");
    }
    m_instances = std::move(instances);
    m_rows.clear();
    m_rows.resize(rows);
    m_wide.clear();
}

bool LayerRows::store(std::size_t i, const LayerRankRow& row) {
    const Instance& inst = m_instances[instanceOf(i)];
    if (row.step != inst.step || row.layer != inst.layer) {
        throw std::invalid_argument("layer rows: a row stored outside its layer instance");
    }
    const TimeBreakdown& t = row.time;
    const bool narrow = fits32(t.wallNs, kWide) && fits32(t.computeNs, kWide) && fits32(t.overlappedCommNs, kWide) &&
                        fits32(t.exposedWaitNs, kWide) && fits32(t.exposedTransferNs, kWide) &&
                        t.exposedCommNs == t.exposedWaitNs + t.exposedTransferNs &&
                        t.commNs == t.exposedCommNs + t.overlappedCommNs &&
                        t.idleNs == t.wallNs - t.computeNs - t.exposedCommNs;
    Packed& p = m_rows[i];
    p.startNs = row.startNs;
    p.rankIndex = row.rankIndex;
    if (!narrow) {
        p.wallNs = kWide;
        return false;
    }
    p.wallNs = static_cast<std::uint32_t>(t.wallNs);
    p.computeNs = static_cast<std::uint32_t>(t.computeNs);
    p.overlappedCommNs = static_cast<std::uint32_t>(t.overlappedCommNs);
    p.exposedWaitNs = static_cast<std::uint32_t>(t.exposedWaitNs);
    p.exposedTransferNs = static_cast<std::uint32_t>(t.exposedTransferNs);
    return true;
}

void LayerRows::keepWide(std::vector<WideRow> wide) {
    std::sort(wide.begin(), wide.end(), [](const WideRow& a, const WideRow& b) { return a.first < b.first; });
    m_wide = std::move(wide);
}

std::size_t LayerRows::instanceOf(std::size_t row) const {
    // Instances mostly hold one row per rank, the same count each: the proportional guess is usually
    // the instance, checked in O(1) (the binary search was ~3 % of the analysis, once per row stored).
    const std::size_t n = m_instances.size();
    if (n > 0 && row < m_rows.size()) {
        const std::size_t guess = std::min(n - 1, row * n / m_rows.size());
        if (m_instances[guess].firstRow <= row && (guess + 1 == n || row < m_instances[guess + 1].firstRow)) {
            return guess;
        }
    }
    const auto it = std::upper_bound(m_instances.begin(), m_instances.end(), row,
                                     [](std::size_t r, const Instance& inst) { return r < inst.firstRow; });
    return static_cast<std::size_t>(it - m_instances.begin()) - 1;
}

namespace {

// A narrow row's times (or the sums of such rows') from the five it keeps: the other three are sums of
// those, the breakdown's partition.
TimeBreakdown fromStored(std::int64_t wall, std::int64_t compute, std::int64_t overlapped, std::int64_t wait,
                         std::int64_t transfer) {
    TimeBreakdown t;
    t.wallNs = wall;
    t.computeNs = compute;
    t.overlappedCommNs = overlapped;
    t.exposedWaitNs = wait;
    t.exposedTransferNs = transfer;
    t.exposedCommNs = wait + transfer;
    t.commNs = t.exposedCommNs + overlapped;
    t.idleNs = wall - compute - t.exposedCommNs;
    return t;
}

}  // namespace

LayerRows::TimesSum LayerRows::sumTimes(std::size_t first, std::size_t last, std::int64_t rankIndex) const {
    last = std::min(last, m_rows.size());
    TimesSum out;
    std::int64_t wall = 0;
    std::int64_t compute = 0;
    std::int64_t overlapped = 0;
    std::int64_t wait = 0;
    std::int64_t transfer = 0;
    for (std::size_t i = first; i < last; ++i) {
        const Packed& p = m_rows[i];
        if (rankIndex >= 0 && p.rankIndex != rankIndex) continue;
        ++out.rows;
        if (p.wallNs == kWide) {
            const auto it = std::lower_bound(m_wide.begin(), m_wide.end(), i,
                                             [](const WideRow& w, std::size_t r) { return w.first < r; });
            if (it != m_wide.end() && it->first == i) out.time += it->second;
            continue;
        }
        wall += p.wallNs;
        compute += p.computeNs;
        overlapped += p.overlappedCommNs;
        wait += p.exposedWaitNs;
        transfer += p.exposedTransferNs;
    }
    out.time += fromStored(wall, compute, overlapped, wait, transfer);
    return out;
}

LayerRankRow LayerRows::operator[](std::size_t i) const {
    return unpack(i, instanceOf(i));
}

LayerRankRow LayerRows::unpack(std::size_t row, std::size_t instance) const {
    const Packed& p = m_rows[row];
    const Instance& inst = m_instances[instance];
    LayerRankRow out{inst.step, inst.layer, p.rankIndex, p.startNs, {}};
    if (p.wallNs == kWide) {
        const auto it = std::lower_bound(m_wide.begin(), m_wide.end(), row,
                                         [](const WideRow& w, std::size_t r) { return w.first < r; });
        if (it != m_wide.end() && it->first == row) out.time = it->second;
        return out;
    }
    out.time = fromStored(p.wallNs, p.computeNs, p.overlappedCommNs, p.exposedWaitNs, p.exposedTransferNs);
    return out;
}

std::size_t LayerRows::residentBytes() const {
    return m_rows.capacity() * sizeof(Packed) + m_instances.capacity() * sizeof(Instance) +
           m_wide.capacity() * sizeof(WideRow);
}

}  // namespace tpscope::core::analysis
