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
    out.reserve(a.size() + b.size());
    std::size_t i = 0;
    std::size_t j = 0;
    while (i < a.size() || j < b.size()) {
        const bool takeA = j == b.size() || (i < a.size() && a[i].startNs <= b[j].startNs);
        const Interval iv = takeA ? a[i++] : b[j++];
        if (!out.empty() && iv.startNs <= out.back().endNs) {
            out.back().endNs = std::max(out.back().endNs, iv.endNs);
        } else {
            out.push_back(iv);
        }
    }
    return out;
}

std::int64_t totalLength(std::span<const Interval> disjoint) {
    std::int64_t sum = 0;
    for (const auto& iv : disjoint) sum += iv.length();
    return sum;
}

CoverageTimeline::CoverageTimeline(std::span<const std::span<const Interval>> lists) {
    const std::size_t k = std::min<std::size_t>(lists.size(), kMaxLayers);
    std::array<std::size_t, kMaxLayers> pos{};
    constexpr std::int64_t kNone = std::numeric_limits<std::int64_t>::max();
    std::int64_t t = std::numeric_limits<std::int64_t>::min();
    while (true) {
        // The mask at time t and the next boundary after t.
        std::uint32_t mask = 0;
        std::int64_t next = kNone;
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

}  // namespace tpscope::core::analysis
