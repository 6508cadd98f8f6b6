// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/analysis/interval_union.h"

#include <algorithm>
#include <limits>

namespace tpscope::core::analysis {

std::vector<Interval> unionOfSorted(std::span<const Interval> sortedByStart) {
    std::vector<Interval> out(sortedByStart.begin(), sortedByStart.end());
    unionInPlace(out);
    return out;
}

void unionInPlace(std::vector<Interval>& v) {
    std::size_t w = 0;
    for (std::size_t i = 0; i < v.size(); ++i) {
        const Interval iv = v[i];
        if (iv.endNs <= iv.startNs) continue;
        if (w > 0 && iv.startNs <= v[w - 1].endNs) {
            v[w - 1].endNs = std::max(v[w - 1].endNs, iv.endNs);
        } else {
            v[w++] = iv;
        }
    }
    v.resize(w);
}

std::vector<Interval> mergeUnions(std::span<const Interval> a, std::span<const Interval> b) {
    std::vector<Interval> out;
    mergeUnions(a, b, out);
    return out;
}

void mergeUnions(std::span<const Interval> a, std::span<const Interval> b, std::vector<Interval>& out) {
    out.clear();
    out.reserve(a.size() + b.size());
    std::size_t i = 0;
    std::size_t j = 0;
    while (i < a.size() || j < b.size()) {
        const bool takeA = j == b.size() || (i < a.size() && a[i].startNs <= b[j].startNs);
        appendToUnion(out, takeA ? a[i++] : b[j++]);
    }
}

std::int64_t totalLength(std::span<const Interval> disjoint) {
    std::int64_t sum = 0;
    for (const auto& iv : disjoint) sum += iv.length();
    return sum;
}

namespace {

using ListPositions = std::array<std::size_t, CoverageTimeline::kMaxLayers>;

// One step of the sweep over k disjoint sorted lists: moves each list's position past the intervals
// that ended by t, sets `mask` to the lists covering t, and returns the next boundary after t
// (`limit` when none comes before it).
std::int64_t stepAt(const std::span<const Interval>* lists, std::size_t k, ListPositions& pos, std::int64_t t,
                    std::int64_t limit, std::uint32_t& mask) {
    mask = 0;
    std::int64_t next = limit;
    for (std::size_t l = 0; l < k; ++l) {
        const auto& list = lists[l];
        while (pos[l] < list.size() && list[pos[l]].endNs <= t) ++pos[l];
        if (pos[l] == list.size()) continue;
        const Interval& iv = list[pos[l]];
        if (iv.startNs <= t) {
            mask |= 1u << l;
            next = std::min(next, iv.endNs);
        } else {
            next = std::min(next, iv.startNs);
        }
    }
    return next;
}

}  // namespace

CoverageTimeline::CoverageTimeline(std::span<const std::span<const Interval>> lists) {
    const std::size_t k = std::min<std::size_t>(lists.size(), kMaxLayers);
    ListPositions pos{};
    std::size_t total = 0;
    for (std::size_t l = 0; l < k; ++l) total += lists[l].size();
    m_segments.reserve(total * 2);
    constexpr std::int64_t kNone = std::numeric_limits<std::int64_t>::max();
    std::int64_t t = std::numeric_limits<std::int64_t>::min();
    while (true) {
        std::uint32_t mask = 0;
        const std::int64_t next = stepAt(lists.data(), k, pos, t, kNone, mask);
        if (next == kNone) break;
        if (mask != 0) {
            if (!m_segments.empty() && m_segments.back().endNs == t && m_segments.back().mask == mask) {
                m_segments.back().endNs = next;
            } else {
                m_segments.push_back({t, next, mask});
            }
        }
        t = next;
    }
    m_segments.shrink_to_fit();
}

CoverageTimeline::MaskTimes CoverageTimeline::measure(Interval window) const {
    MaskTimes out{};
    if (window.endNs <= window.startNs) return out;
    auto it = std::upper_bound(m_segments.begin(), m_segments.end(), window.startNs,
                               [](std::int64_t t, const CoverageSegment& s) { return t < s.endNs; });
    std::int64_t covered = 0;
    for (; it != m_segments.end() && it->startNs < window.endNs; ++it) {
        const std::int64_t len = std::min(it->endNs, window.endNs) - std::max(it->startNs, window.startNs);
        out[it->mask] += len;
        covered += len;
    }
    out[0] = window.length() - covered;
    return out;
}

namespace {

// Index of the first interval ending after t in a disjoint sorted list (ends are sorted too).
// Every interval before `hint` is known to end by t when hint's predecessor does: gallop from there.
std::size_t firstEndingAfter(std::span<const Interval> list, std::size_t hint, std::int64_t t) {
    auto before = [](std::int64_t v, const Interval& iv) { return v < iv.endNs; };
    if (hint > list.size() || (hint > 0 && list[hint - 1].endNs > t)) {
        return static_cast<std::size_t>(std::upper_bound(list.begin(), list.end(), t, before) - list.begin());
    }
    std::size_t lo = hint;
    std::size_t hi = hint;
    std::size_t step = 1;
    while (hi < list.size() && list[hi].endNs <= t) {
        lo = hi + 1;
        hi = lo + step;
        step *= 2;
    }
    hi = std::min(hi, list.size());
    return static_cast<std::size_t>(std::upper_bound(list.begin() + static_cast<std::ptrdiff_t>(lo),
                                                     list.begin() + static_cast<std::ptrdiff_t>(hi), t, before) -
                                    list.begin());
}

}  // namespace

CoverageSweep::CoverageSweep(std::span<const std::span<const Interval>> lists)
    : m_count(std::min<std::size_t>(lists.size(), CoverageTimeline::kMaxLayers)) {
    for (std::size_t l = 0; l < m_count; ++l) m_lists[l] = lists[l];
}

CoverageTimeline::MaskTimes CoverageSweep::measure(Interval window) {
    CoverageTimeline::MaskTimes out{};
    if (window.endNs <= window.startNs) return out;
    ListPositions pos{};
    for (std::size_t l = 0; l < m_count; ++l) pos[l] = firstEndingAfter(m_lists[l], m_pos[l], window.startNs);
    m_pos = pos;
    // The sweep of the CoverageTimeline constructor, from the window start to its end.
    std::int64_t t = window.startNs;
    while (t < window.endNs) {
        std::uint32_t mask = 0;
        const std::int64_t next = stepAt(m_lists.data(), m_count, pos, t, window.endNs, mask);
        out[mask] += next - t;
        t = next;
    }
    return out;
}

void CoverageSweep::measureParts(Interval window, std::span<const std::int64_t> cuts,
                                 std::span<CoverageTimeline::MaskTimes> parts) {
    for (auto& p : parts) p.fill(0);
    if (window.endNs <= window.startNs || parts.empty()) return;
    ListPositions pos{};
    for (std::size_t l = 0; l < m_count; ++l) pos[l] = firstEndingAfter(m_lists[l], m_pos[l], window.startNs);
    m_pos = pos;
    std::int64_t t = window.startNs;
    for (std::size_t part = 0; part < parts.size(); ++part) {
        const std::int64_t end = part < cuts.size() ? std::clamp(cuts[part], t, window.endNs) : window.endNs;
        while (t < end) {
            std::uint32_t mask = 0;
            const std::int64_t next = stepAt(m_lists.data(), m_count, pos, t, end, mask);
            parts[part][mask] += next - t;
            t = next;
        }
    }
}

CoverageTimeline::MaskTimes measureLists(std::span<const std::span<const Interval>> lists, Interval window) {
    return CoverageSweep(lists).measure(window);
}

}  // namespace tpscope::core::analysis
