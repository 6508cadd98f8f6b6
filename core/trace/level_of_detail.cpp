#include "core/trace/level_of_detail.h"

#include <algorithm>
#include <array>

namespace tpscope::core {

namespace {

// 128-bit products: (t - t0) * widthPx overflows 64 bits for day-long traces on wide screens.
__extension__ typedef __int128 Wide;

Wide floorDiv(Wide a, Wide b) {
    Wide q = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
    return q;
}

// First index in [from, last) whose start is >= t. Gallops from `from`, so the cost grows with the
// log of the distance travelled rather than with the size of the stream.
std::size_t gallopLowerBound(std::span<const std::int64_t> starts, std::size_t from, std::size_t last,
                             std::int64_t t) {
    if (from >= last || starts[from] >= t) return from;
    std::size_t lo = from;  // starts[lo] < t
    std::size_t step = 1;
    std::size_t hi = from + 1;
    while (hi < last && starts[hi] < t) {
        lo = hi;
        step *= 2;
        hi = lo + step;
    }
    hi = std::min(hi, last);
    return static_cast<std::size_t>(std::lower_bound(starts.begin() + static_cast<std::ptrdiff_t>(lo + 1),
                                                     starts.begin() + static_cast<std::ptrdiff_t>(hi), t) -
                                    starts.begin());
}

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
void sampleGroup(const EventColumns& ev, std::size_t first, std::size_t last, std::int64_t spanNs, int widthPx,
                 RunAccumulator& acc) {
    const std::size_t n = last - first;
    const std::size_t samples = std::min(n, kKindSamples);
    const double scale = static_cast<double>(n) / static_cast<double>(samples);
    for (std::size_t s = 0; s < samples; ++s) {
        const std::size_t i = samples == 1 ? first : first + (n - 1) * s / (samples - 1);
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

}  // namespace

std::int64_t pixelColumn(std::int64_t t, std::int64_t t0, std::int64_t t1, int widthPx) {
    return static_cast<std::int64_t>(floorDiv(static_cast<Wide>(t - t0) * widthPx, t1 - t0));
}

std::int64_t columnStartNs(std::int64_t c, std::int64_t t0, std::int64_t t1, int widthPx) {
    return t0 - static_cast<std::int64_t>(floorDiv(-static_cast<Wide>(c) * (t1 - t0), widthPx));
}

void visibleSpans(const EventColumns& events, std::int64_t t0, std::int64_t t1, int widthPx,
                  std::vector<LodSpan>& out) {
    out.clear();
    if (widthPx <= 0 || t1 <= t0 || events.empty()) return;
    const IndexRange range = events.visibleRange(t0, t1);
    const auto starts = events.starts();
    const std::int64_t spanNs = t1 - t0;

    LodSpan cur;
    RunAccumulator acc;
    bool open = false;
    std::int64_t curEndColumn = 0;
    const auto flush = [&] {
        cur.kind = acc.dominant();
        cur.representative = acc.longest;
        out.push_back(cur);
        open = false;
    };

    std::size_t i = range.first;
    while (i < range.last) {
        if (events.endNs(i) <= t0) {  // only on streams whose events overlap
            ++i;
            continue;
        }
        const std::int64_t column = std::max<std::int64_t>(0, pixelColumn(starts[i], t0, t1, widthPx));
        const std::size_t groupEnd =
            gallopLowerBound(starts, i + 1, range.last, columnStartNs(column + 1, t0, t1, widthPx));
        RunAccumulator group;
        sampleGroup(events, i, groupEnd, spanNs, widthPx, group);
        group.maxEndNs = std::max(group.maxEndNs, events.endNs(groupEnd - 1));

        const bool extend = open && acc.narrowOnly && group.narrowOnly && column <= curEndColumn + 1;
        if (!extend) {
            if (open) flush();
            cur = LodSpan{};
            cur.startNs = starts[i];
            cur.endNs = group.maxEndNs;
            cur.firstIndex = i;
            acc.reset();
            open = true;
        }
        cur.count += groupEnd - i;
        cur.endNs = std::max(cur.endNs, group.maxEndNs);
        for (std::size_t k = 0; k < acc.weightNs.size(); ++k) acc.weightNs[k] += group.weightNs[k];
        if (group.longestNs > acc.longestNs) {
            acc.longestNs = group.longestNs;
            acc.longest = group.longest;
        }
        acc.narrowOnly = acc.narrowOnly && group.narrowOnly;
        curEndColumn = pixelColumn(cur.endNs - 1, t0, t1, widthPx);
        i = groupEnd;
    }
    if (open) flush();
}

std::vector<LodSpan> visibleSpans(const EventColumns& events, std::int64_t t0, std::int64_t t1, int widthPx) {
    std::vector<LodSpan> out;
    visibleSpans(events, t0, t1, widthPx, out);
    return out;
}

std::vector<EventColumns> nvtxDepthColumns(const Rank& rank, int maxDepth) {
    std::vector<EventColumns> rows;
    for (const auto& r : rank.ranges) {
        if (r.depth > maxDepth) continue;
        if (rows.size() <= r.depth) rows.resize(r.depth + 1u);
        rows[r.depth].append(EventRecord{r.startNs, std::max<std::int64_t>(0, r.endNs - r.startNs), r.name,
                                         EventKind::Other, 0, kNoPayload});
    }
    for (auto& row : rows) row.finalize();
    return rows;
}

}  // namespace tpscope::core
