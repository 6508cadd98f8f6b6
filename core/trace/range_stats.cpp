// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/trace/range_stats.h"

#include <algorithm>
#include <numeric>

namespace tpscope::core {

std::int64_t RankRangeStats::totalNs() const {
    return std::accumulate(kindNs.begin(), kindNs.end(), std::int64_t{0});
}

std::size_t RankRangeStats::totalCount() const {
    return std::accumulate(kindCount.begin(), kindCount.end(), std::size_t{0});
}

namespace {

// A stream that lies wholly inside [t0, t1) (the whole trace: what the timeline counts on open): no
// clipping, and only the kind and duration columns read, several times faster at 100 M events. The
// same result as the general loop, which leaves out, as visibleRange does, the leading events that
// end by t0 (here: zero-length events at exactly t0).
bool addWholeStream(const EventColumns& ev, std::int64_t t0, std::int64_t t1, RankRangeStats& out) {
    if (ev.empty() || ev.firstStartNs() < t0 || ev.lastEndNs() > t1 || ev.startNs(ev.size() - 1) >= t1) return false;
    std::size_t i = 0;
    while (i < ev.size() && ev.endNs(i) <= t0) ++i;
    for (; i < ev.size(); ++i) {
        const auto k = static_cast<std::size_t>(ev.kind(i));
        out.kindNs[k] += ev.durNs(i);
        ++out.kindCount[k];
    }
    return true;
}

}  // namespace

RankRangeStats rankRangeStats(const Rank& rank, std::int64_t t0, std::int64_t t1) {
    RankRangeStats out;
    out.rank = rank.id;
    for (const auto& stream : rank.streams) {
        const auto& ev = stream.events;
        if (addWholeStream(ev, t0, t1, out)) continue;
        const IndexRange r = ev.visibleRange(t0, t1);
        for (std::size_t i = r.first; i < r.last; ++i) {
            const std::int64_t clipped = std::min(ev.endNs(i), t1) - std::max(ev.startNs(i), t0);
            if (clipped <= 0 && !(ev.durNs(i) == 0 && ev.startNs(i) >= t0)) continue;
            const auto k = static_cast<std::size_t>(ev.kind(i));
            out.kindNs[k] += std::max<std::int64_t>(0, clipped);
            ++out.kindCount[k];
        }
    }
    return out;
}

RangeStats rangeStats(const Trace& trace, std::int64_t t0, std::int64_t t1) {
    RangeStats stats;
    stats.t0 = t0;
    stats.t1 = t1;
    stats.ranks.reserve(trace.ranks.size());
    for (const auto& rank : trace.ranks) stats.ranks.push_back(rankRangeStats(rank, t0, t1));
    return stats;
}

}  // namespace tpscope::core
