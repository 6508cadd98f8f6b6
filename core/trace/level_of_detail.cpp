// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/trace/level_of_detail.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace tpscope::core {

namespace {

// 128-bit products: (t - t0) * widthPx overflows 64 bits for day-long traces on wide screens.
__extension__ typedef __int128 Wide;

Wide floorDiv(Wide a, Wide b) {
    Wide q = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
    return q;
}

// std::lower_bound over [lo, hi) without data-dependent branches (a conditional move per step):
// event boundaries are random, so a branching search mispredicts about every other step.
template <class Events>
std::size_t branchlessLowerBound(const Events& events, std::size_t lo, std::size_t hi, std::int64_t t) {
    if (lo >= hi) return lo;
    std::size_t base = lo;
    std::size_t len = hi - lo;
    while (len > 1) {
        const std::size_t half = len / 2;
        base = events.startNs(base + half - 1) < t ? base + half : base;
        len -= half;
    }
    return base + (events.startNs(base) < t ? 1 : 0);
}

// First index in [lo, hi) whose start is >= t (hi when none), searched outwards from `guess` with
// doubling steps: the cost grows with the log of the guess's error, and the probes stay on the few
// cache lines around the guess instead of spreading over the stream.
template <class Events>
std::size_t lowerBoundNear(const Events& events, std::size_t lo, std::size_t hi, std::size_t guess, std::int64_t t) {
    if (lo >= hi) return lo;
    guess = std::clamp(guess, lo, hi - 1);
    if (events.startNs(guess) < t) {
        std::size_t below = guess;  // start of `below` < t
        std::size_t step = 1;
        std::size_t probe = guess + 1;
        while (probe < hi && events.startNs(probe) < t) {
            below = probe;
            step *= 2;
            probe = below + step;
        }
        return branchlessLowerBound(events, below + 1, std::min(probe, hi), t);
    }
    std::size_t above = guess;  // start of `above` >= t
    std::size_t step = 1;
    while (above > lo) {
        const std::size_t probe = above - std::min(step, above - lo);
        if (events.startNs(probe) < t) return branchlessLowerBound(events, probe + 1, above, t);
        above = probe;
        step *= 2;
    }
    return lo;
}

// pixelColumn / columnStartNs for one view without a division per call: a floating-point estimate
// corrected by exact 64-bit products, used when (t - t0) * widthPx cannot overflow (views shorter
// than ~6 days at 16k pixels; longer ones take the exact 128-bit path). Times are clamped to one
// span either side of the view first, which changes no column inside it.
constexpr std::size_t kDenseEventsPerColumn = 16;
constexpr std::size_t kMaxJumpColumns = 16;

class ColumnMap {
  public:
    ColumnMap(std::int64_t t0, std::int64_t t1, int widthPx)
        : m_t0(t0),
          m_t1(t1),
          m_span(t1 - t0),
          m_width(widthPx),
          m_pxPerNs(static_cast<double>(widthPx) / static_cast<double>(t1 - t0)),
          m_nsPerPx(static_cast<double>(t1 - t0) / widthPx),
          m_fast(m_span < (std::int64_t{1} << 60) / (3 * static_cast<std::int64_t>(widthPx) + 1)) {}

    std::int64_t column(std::int64_t t) const {
        if (!m_fast) return pixelColumn(t, m_t0, m_t1, m_width);
        const std::int64_t d = std::clamp(t, m_t0 - m_span, m_t1 + m_span) - m_t0;
        const std::int64_t n = d * m_width;
        auto c = static_cast<std::int64_t>(std::floor(static_cast<double>(d) * m_pxPerNs));
        while (n < c * m_span) --c;
        while (n >= (c + 1) * m_span) ++c;
        return c;
    }
    std::int64_t start(std::int64_t c) const {
        if (!m_fast || c < -1 || c > m_width + 1) return columnStartNs(c, m_t0, m_t1, m_width);
        const std::int64_t q = c * m_span;  // the first d with d * width >= q
        auto d = static_cast<std::int64_t>(std::ceil(static_cast<double>(c) * m_nsPerPx));
        while (d * m_width < q) ++d;
        while ((d - 1) * m_width >= q) --d;
        return m_t0 + d;
    }

  private:
    std::int64_t m_t0, m_t1, m_span;
    int m_width;
    double m_pxPerNs, m_nsPerPx;
    bool m_fast;
};

// What a run has seen so far: estimated time per kind and its longest event.
struct RunAccumulator {
    std::array<double, kEventKindCount> weightNs{};
    std::int64_t longestNs = -1;
    std::size_t longest = 0;
    std::int64_t maxEndNs = INT64_MIN;
    bool narrowOnly = true;

    void reset() { *this = RunAccumulator{}; }
    EventKind dominant() const {
        return static_cast<EventKind>(std::max_element(weightNs.begin(), weightNs.end()) - weightNs.begin());
    }
};

// Samples at most kKindSamples events of the group [first, last) (always its first and last) into acc.
template <class Events>
void sampleGroup(const Events& ev, std::size_t first, std::size_t last, std::int64_t spanNs, int widthPx,
                 RunAccumulator& acc) {
    const std::size_t n = last - first;
    const std::size_t samples = std::min(n, kKindSamples);
    const double scale = static_cast<double>(n) / static_cast<double>(samples);
    static_assert(kKindSamples == 3, "the sample positions below assume first, middle and last");
    const std::size_t positions[3] = {first, last - 1, first + (n - 1) / 2};
    for (std::size_t s = 0; s < samples; ++s) {
        const std::size_t i = positions[s];
        const std::int64_t dur = ev.durNs(i);
        acc.weightNs[static_cast<std::size_t>(ev.kind(i))] += static_cast<double>(dur + 1) * scale;
        if (dur > acc.longestNs) {
            acc.longestNs = dur;
            acc.longest = i;
        }
        acc.maxEndNs = std::max(acc.maxEndNs, ev.endNs(i));
        // Narrower than one pixel: dur / spanNs < 1 / widthPx.
        if (static_cast<Wide>(dur) * widthPx >= spanNs) acc.narrowOnly = false;
    }
}

// How far the group of events starting at i reaches: the events of one pixel column, or of several
// columns at once inside a dense narrow run. It remembers the recent density to guess the boundary.
struct GroupStride {
    std::size_t lastGroupSize = 1;  // events per column lately: where to guess the next boundary
    std::size_t jumpColumns = 1;

    // Inside a dense narrow run, try to take several columns at once (doubling up to
    // kMaxJumpColumns); keep the jump only if it holds at least 7/8 of the events the run's
    // density predicts, which bounds what it can hide to about jump/8 pixels of gap or of wider
    // events. Anything sparser is taken column by column.
    template <class Events>
    std::size_t end(const Events& events, std::size_t i, std::size_t last, const ColumnMap& columns,
                    std::int64_t column, bool inNarrowRun) {
        std::size_t groupEnd = 0;
        std::size_t groupColumns = 1;
        if (inNarrowRun && lastGroupSize >= kDenseEventsPerColumn) {
            const std::size_t k = std::min(jumpColumns * 2, kMaxJumpColumns);
            const std::size_t expected = k * lastGroupSize;
            const std::size_t candidate =
                lowerBoundNear(events, i + 1, last, i + expected, columns.start(column + static_cast<std::int64_t>(k)));
            if ((candidate - i) * 8 >= expected * 7) {
                groupEnd = candidate;
                groupColumns = k;
            }
        }
        jumpColumns = groupColumns;
        if (groupEnd == 0) groupEnd = lowerBoundNear(events, i + 1, last, i + lastGroupSize, columns.start(column + 1));
        lastGroupSize = std::max<std::size_t>(1, (groupEnd - i) / groupColumns);
        return groupEnd;
    }
};

// The next search and samples land about one group further: start loading them now. On a large
// trace every column is a fresh cache line (and page), and the loop is otherwise one dependent memory
// latency after another.
template <class Events>
void prefetchNextGroup(const Events& events, std::size_t groupEnd, std::size_t groupSize, std::size_t last) {
    if (const std::size_t ahead = groupEnd + groupSize; ahead < last) {
        events.prefetch(ahead);
        events.prefetch(ahead - groupSize / 2);
    }
}

// Adds a sampled group of `count` events to the open run.
void addGroup(LodSpan& cur, RunAccumulator& acc, const RunAccumulator& group, std::size_t count) {
    cur.count += count;
    cur.endNs = std::max(cur.endNs, group.maxEndNs);
    for (std::size_t k = 0; k < acc.weightNs.size(); ++k) acc.weightNs[k] += group.weightNs[k];
    if (group.longestNs > acc.longestNs) {
        acc.longestNs = group.longestNs;
        acc.longest = group.longest;
    }
    acc.narrowOnly = acc.narrowOnly && group.narrowOnly;
}

// The open run as a span: its dominant kind and its longest event.
LodSpan closedRun(LodSpan cur, const RunAccumulator& acc) {
    cur.kind = acc.dominant();
    cur.representative = acc.longest;
    return cur;
}

}  // namespace

std::int64_t pixelColumn(std::int64_t t, std::int64_t t0, std::int64_t t1, int widthPx) {
    return static_cast<std::int64_t>(floorDiv(static_cast<Wide>(t - t0) * widthPx, t1 - t0));
}

std::int64_t columnStartNs(std::int64_t c, std::int64_t t0, std::int64_t t1, int widthPx) {
    return t0 - static_cast<std::int64_t>(floorDiv(-static_cast<Wide>(c) * (t1 - t0), widthPx));
}

namespace {

// The level of detail over any event list with EventColumns' read accessors (startNs, durNs, endNs,
// kind, prefetch, visibleRange, empty): the trace's columns and the NVTX depth rows. One algorithm,
// so both draw the same items from the same events.
template <class Events>
void visibleSpansOf(const Events& events, std::int64_t t0, std::int64_t t1, int widthPx, std::vector<LodSpan>& out) {
    out.clear();
    if (widthPx <= 0 || t1 <= t0 || events.empty()) return;
    const IndexRange range = events.visibleRange(t0, t1);
    const std::int64_t spanNs = t1 - t0;
    const ColumnMap columns(t0, t1, widthPx);
    // Within one pixel of the open run's end: gap / spanNs < 1 / widthPx.
    const auto withinOnePixel = [&](std::int64_t startNs, std::int64_t endNs) {
        return static_cast<Wide>(startNs - endNs) * widthPx < spanNs;
    };

    LodSpan cur;
    RunAccumulator acc;
    bool open = false;
    GroupStride stride;
    std::size_t i = range.first;
    while (i < range.last) {
        if (events.endNs(i) <= t0) {  // only on streams whose events overlap
            ++i;
            continue;
        }
        const std::int64_t startNs = events.startNs(i);
        const std::int64_t column = std::max<std::int64_t>(0, columns.column(startNs));
        const bool inNarrowRun = open && acc.narrowOnly && withinOnePixel(startNs, cur.endNs);
        const std::size_t groupEnd = stride.end(events, i, range.last, columns, column, inNarrowRun);
        prefetchNextGroup(events, groupEnd, stride.lastGroupSize, range.last);
        RunAccumulator group;
        sampleGroup(events, i, groupEnd, spanNs, widthPx, group);
        group.maxEndNs = std::max(group.maxEndNs, events.endNs(groupEnd - 1));

        if (!(inNarrowRun && group.narrowOnly)) {
            if (open) out.push_back(closedRun(cur, acc));
            cur = LodSpan{};
            cur.startNs = startNs;
            cur.endNs = group.maxEndNs;
            cur.firstIndex = i;
            acc.reset();
            open = true;
        }
        addGroup(cur, acc, group, groupEnd - i);
        i = groupEnd;
    }
    if (open) out.push_back(closedRun(cur, acc));
}

}  // namespace

void visibleSpans(const EventColumns& events, std::int64_t t0, std::int64_t t1, int widthPx,
                  std::vector<LodSpan>& out) {
    visibleSpansOf(events, t0, t1, widthPx, out);
}

void visibleSpans(const NvtxDepthRow& events, std::int64_t t0, std::int64_t t1, int widthPx,
                  std::vector<LodSpan>& out) {
    visibleSpansOf(events, t0, t1, widthPx, out);
}

std::vector<LodSpan> visibleSpans(const EventColumns& events, std::int64_t t0, std::int64_t t1, int widthPx) {
    std::vector<LodSpan> out;
    visibleSpans(events, t0, t1, widthPx, out);
    return out;
}

std::vector<LodSpan> visibleSpans(const NvtxDepthRow& events, std::int64_t t0, std::int64_t t1, int widthPx) {
    std::vector<LodSpan> out;
    visibleSpans(events, t0, t1, widthPx, out);
    return out;
}

}  // namespace tpscope::core
