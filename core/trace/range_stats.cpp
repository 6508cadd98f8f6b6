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

RankRangeStats rankRangeStats(const Rank& rank, std::int64_t t0, std::int64_t t1) {
    RankRangeStats out;
    out.rank = rank.id;
    for (const auto& stream : rank.streams) {
        const auto& ev = stream.events;
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
