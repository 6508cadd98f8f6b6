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

// Index of the first interval ending after t in a disjoint sorted list (ends are sorted too); the
// same answer for any hint. Every interval before `hint` is known to end by t when hint's predecessor
// does: gallop forward from there. Else the answer lies before the hint: gallop backward (a window
// that starts inside the previous one, as a layer measured after its blocks).
std::size_t firstEndingAfter(std::span<const Interval> list, std::size_t hint, std::int64_t t) {
    auto before = [](std::int64_t v, const Interval& iv) { return v < iv.endNs; };
    auto at = [&list](std::size_t i) { return list.begin() + static_cast<std::ptrdiff_t>(i); };
    if (hint < list.size() && list[hint].endNs > t && (hint == 0 || list[hint - 1].endNs <= t)) return hint;
    hint = std::min(hint, list.size());
    std::size_t lo = 0;
    std::size_t hi = hint;
    if (hint > 0 && list[hint - 1].endNs > t) {
        hi = hint - 1;  // ends after t: the answer is at most hi
        for (std::size_t step = 1; hi >= step; step *= 2) {
            if (list[hi - step].endNs <= t) {
                lo = hi - step + 1;
                break;
            }
            hi -= step;
        }
    } else {
        lo = hint;
        hi = hint;
        for (std::size_t step = 1; hi < list.size() && list[hi].endNs <= t; step *= 2) {
            lo = hi + 1;
            hi = lo + step;
        }
        hi = std::min(hi, list.size());
    }
    return static_cast<std::size_t>(std::upper_bound(at(lo), at(hi), t, before) - list.begin());
}

// The sweep of stepAt over the first K of the lists, with K known when compiled: each list keeps its
// next boundary (the end of the interval covering t, else the start of the next one), so a step takes
// the least of K boundaries and re-reads only the lists whose boundary it reached, instead of testing
// every list at every boundary. Yields the stretches of constant mask (`bits`: each list's bit); the
// mask of each instant is stepAt's. Works on local copies of CoverageSweep's state (kept in
// registers), loaded at the window's start and saved at its end.
template <std::size_t K>
class ListSweep {
  public:
    static constexpr std::int64_t kNone = std::numeric_limits<std::int64_t>::max();
    using Positions = std::array<std::size_t, CoverageTimeline::kMaxLayers>;
    using Boundaries = std::array<std::int64_t, CoverageTimeline::kMaxLayers>;
    using Bits = std::array<std::uint32_t, CoverageTimeline::kMaxLayers>;

    // Stands at t with the state `pos`, `boundary` and `mask`, valid at t for every list unless
    // restart()ed.
    ListSweep(const std::span<const Interval>* lists, const Bits& bits, const Positions& pos,
              const Boundaries& boundary, std::uint32_t mask, std::int64_t t)
        : m_t(t), m_mask(mask) {
        for (std::size_t l = 0; l < K; ++l) {
            m_data[l] = lists[l].data();
            m_cur[l] = m_data[l] + pos[l];
            m_end[l] = m_data[l] + lists[l].size();
            m_boundary[l] = boundary[l];
            m_bit[l] = bits[l];
        }
    }
    std::int64_t boundary(std::size_t l) const { return m_boundary[l]; }
    // List l from its first interval ending after t (firstEndingAfter).
    void restart(std::size_t l, std::size_t pos) {
        m_cur[l] = m_data[l] + pos;
        settle(l);
    }
    // Calls emit(from, to, mask) for each stretch of [t, end) where the mask stays the same, in time
    // order; the sweep then stands at end (or stays at t when end <= t).
    template <typename Emit>
    void runTo(std::int64_t end, Emit&& emit) {
        while (m_t < end) {
            std::int64_t next = end;
            for (std::size_t l = 0; l < K; ++l) next = std::min(next, m_boundary[l]);
            emit(m_t, next, m_mask);
            m_t = next;
            for (std::size_t l = 0; l < K; ++l) {
                if (m_boundary[l] <= next) settle(l);
            }
        }
    }
    void save(Positions& pos, Boundaries& boundary, std::uint32_t& mask) const {
        for (std::size_t l = 0; l < K; ++l) {
            pos[l] = static_cast<std::size_t>(m_cur[l] - m_data[l]);
            boundary[l] = m_boundary[l];
        }
        mask = m_mask;
    }

  private:
    // stepAt's test of one list at m_t. Every boundary stays after m_t: the interval read ends after
    // it, and starts after it when it does not cover m_t.
    void settle(std::size_t l) {
        const Interval* p = m_cur[l];
        while (p != m_end[l] && p->endNs <= m_t) ++p;
        m_cur[l] = p;
        if (p == m_end[l]) {
            m_mask &= ~m_bit[l];
            m_boundary[l] = kNone;
            return;
        }
        const Interval iv = *p;
        const bool covers = iv.startNs <= m_t;
        m_mask = covers ? (m_mask | m_bit[l]) : (m_mask & ~m_bit[l]);
        // Not covering: stepAt's mask for this list changes at the start, or where the interval
        // ends if it ends first (an empty one).
        m_boundary[l] = covers ? iv.endNs : std::min(iv.startNs, iv.endNs);
    }

    std::array<const Interval*, K> m_data{};
    std::array<const Interval*, K> m_cur{};
    std::array<const Interval*, K> m_end{};
    std::array<std::uint32_t, K> m_bit{};
    std::array<std::int64_t, K> m_boundary{};
    std::int64_t m_t = 0;
    std::uint32_t m_mask = 0;
};

// The time one disjoint sorted list covers in consecutive stretches of time, each starting where the
// previous one ended: a walk over the intervals that reach into them.
class CoveredTime {
  public:
    // pos: the list's first interval ending after the first stretch's start.
    CoveredTime(std::span<const Interval> list, std::size_t pos)
        : m_data(list.data()), m_cur(list.data() + pos), m_end(list.data() + list.size()) {}
    std::int64_t in(std::int64_t from, std::int64_t to) {
        std::int64_t sum = 0;
        for (; m_cur != m_end && m_cur->startNs < to; ++m_cur) {
            const Interval iv = *m_cur;
            sum += std::min(iv.endNs, to) - std::max(iv.startNs, from);
            if (iv.endNs > to) break;  // reaches into the next stretch
        }
        return sum;
    }
    std::size_t position() const { return static_cast<std::size_t>(m_cur - m_data); }

  private:
    const Interval* m_data;
    const Interval* m_cur;
    const Interval* m_end;
};

}  // namespace

CoverageSweep::CoverageSweep(std::span<const std::span<const Interval>> lists)
    : m_count(std::min<std::size_t>(lists.size(), CoverageTimeline::kMaxLayers)) {
    // The list with the most intervals (the first on ties) goes last, the others keep their order.
    std::size_t inner = 0;
    for (std::size_t l = 1; l < m_count; ++l) {
        if (lists[l].size() > lists[inner].size()) inner = l;
    }
    std::size_t slot = 0;
    for (std::size_t l = 0; l < m_count; ++l) {
        const std::size_t at = l == inner ? m_count - 1 : slot++;
        m_lists[at] = lists[l];
        m_bits[at] = 1U << l;
    }
}

CoverageTimeline::MaskTimes CoverageSweep::measure(Interval window) {
    CoverageTimeline::MaskTimes out{};
    measureParts(window, {}, std::span(&out, 1));
    return out;
}

// Measures `window` cut at `cuts` into `parts` (parts.size() == cuts.size() + 1, each zeroed): the
// first K lists give the stretches of constant mask, and in each the last one's covered time is summed
// from its intervals. The times per mask are the full sweep's: each is a sum of
// lengths, whatever the pieces it is summed in.
template <std::size_t K>
void CoverageSweep::sweepParts(Interval window, std::span<const std::int64_t> cuts,
                               std::span<CoverageTimeline::MaskTimes> parts) {
    // From where the last window ended, a list's state holds until its next boundary; the others
    // (all of them for a window that starts earlier) find their place from their last one.
    const bool resume = m_live && window.startNs >= m_at;
    ListSweep<K> sweep(m_lists.data(), m_bits, m_pos, m_boundary, resume ? m_mask : 0, window.startNs);
    for (std::size_t l = 0; l < K; ++l) {
        if (!resume || sweep.boundary(l) <= window.startNs) {
            sweep.restart(l, firstEndingAfter(m_lists[l], m_pos[l], window.startNs));
        }
    }
    CoveredTime covered(m_lists[K], firstEndingAfter(m_lists[K], m_pos[K], window.startNs));
    const std::uint32_t innerBit = m_bits[K];
    std::int64_t t = window.startNs;
    for (std::size_t part = 0; part < parts.size(); ++part) {
        const std::int64_t end = part < cuts.size() ? std::clamp(cuts[part], t, window.endNs) : window.endNs;
        auto& out = parts[part];
        sweep.runTo(end, [&](std::int64_t from, std::int64_t to, std::uint32_t mask) {
            const std::int64_t in = covered.in(from, to);
            out[mask | innerBit] += in;
            out[mask] += to - from - in;
        });
        t = end;
    }
    sweep.save(m_pos, m_boundary, m_mask);
    m_pos[K] = covered.position();
    m_at = window.endNs;
    m_live = true;
}

void CoverageSweep::measureParts(Interval window, std::span<const std::int64_t> cuts,
                                 std::span<CoverageTimeline::MaskTimes> parts) {
    for (auto& p : parts) p.fill(0);
    if (window.endNs <= window.startNs || parts.empty()) return;
    // Each count of swept lists has its own unrolled sweep (the breakdown's: two, comm and transfer).
    static_assert(CoverageTimeline::kMaxLayers == 4);
    switch (m_count) {
        case 0: {  // all of the window uncovered
            std::int64_t t = window.startNs;
            for (std::size_t part = 0; part < parts.size(); ++part) {
                const std::int64_t end = part < cuts.size() ? std::clamp(cuts[part], t, window.endNs) : window.endNs;
                parts[part][0] = end - t;
                t = end;
            }
            break;
        }
        case 1:
            sweepParts<0>(window, cuts, parts);
            break;
        case 2:
            sweepParts<1>(window, cuts, parts);
            break;
        case 3:
            sweepParts<2>(window, cuts, parts);
            break;
        default:
            sweepParts<3>(window, cuts, parts);
            break;
    }
}

CoverageTimeline::MaskTimes measureLists(std::span<const std::span<const Interval>> lists, Interval window) {
    return CoverageSweep(lists).measure(window);
}

}  // namespace tpscope::core::analysis
